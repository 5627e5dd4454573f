// SPDX-License-Identifier: GPL-3.0-or-later
// relayToNet: attrib hands `serve` and `analyze --service` to attrib-net, which links Qt's network modules.
#include "app/cli/cli.h"

#include "engine/safe_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace attrib::cli {

namespace {

/// Where attrib-net is: beside this program (the build tree, a copied folder), else in the package's libexec
/// folder (/usr/bin/attrib -> /usr/libexec/attribution-workbench/attrib-net).
std::filesystem::path netProgram(const CliContext& cli)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        self = fs::absolute(cli.executable, ec);
    const fs::path dir = self.parent_path();
    const fs::path beside = dir / "attrib-net";
    if (::access(beside.c_str(), X_OK) == 0)
        return beside;
    return dir.parent_path() / "libexec" / "attribution-workbench" / "attrib-net";
}

}  // namespace

int relayToNet(const CliContext& cli)
{
    const std::filesystem::path program = netProgram(cli);
    std::vector<char*> argv;
    for (const auto& a : cli.arguments)
        argv.push_back(const_cast<char*>(a.c_str()));  // execv does not write them
    argv.push_back(nullptr);
    std::cout.flush();
    ::execv(program.c_str(), argv.data());
    std::cerr << "attrib: this command runs in attrib-net, which cannot be started ("
              << engine::terminalSafe(program.string()) << ": " << std::strerror(errno) << ")\n";
    return 1;
}

}  // namespace attrib::cli
