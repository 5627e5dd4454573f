// SPDX-License-Identifier: GPL-3.0-or-later
// Linked into every test executable: makes the executable's folder the working directory before main(), so the
// relative ATTRIB_SOURCE_DIR / ATTRIB_SOURCE_RULES_DIR paths resolve however the test is started.
#include <filesystem>
#include <system_error>

namespace {

const bool g_inExeDir = [] {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        std::filesystem::current_path(exe.parent_path(), ec);
    return !ec;
}();

}  // namespace
