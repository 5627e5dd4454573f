// SPDX-License-Identifier: GPL-3.0-or-later
// Listing and reading the files of a rules folder without following links out of it or around in circles.
#include "engine/catalog_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace attrib::engine {

namespace {

constexpr int MaxDepth = 16;

struct FolderWalk {
    fs::path root;
    std::string boundary;  ///< canonical root with a trailing '/'
    std::vector<CatalogFile> files;
    std::vector<Diagnostic>& diagnostics;

    void problem(const std::string& rel, const std::string& message)
    {
        diagnostics.push_back({Diagnostic::Severity::Error, {rel, 1}, "", message});
    }

    void visit(const fs::path& path, const std::string& rel, const fs::file_status& status, int depth,
               std::vector<std::pair<fs::path, int>>& pending)
    {
        if (fs::is_directory(status)) {
            if (depth + 1 >= MaxDepth)
                problem(rel, "folder nested deeper than " + std::to_string(MaxDepth) + " levels: not read");
            else
                pending.emplace_back(path, depth + 1);
            return;
        }
        if (path.extension() != ".json")
            return;
        if (fs::is_regular_file(status)) {
            files.push_back({rel, path.string()});
            return;
        }
        if (!fs::is_symlink(status))
            return problem(rel, "not a regular file: not read");
        std::error_code ec;
        const fs::path target = fs::canonical(path, ec);
        if (ec)
            return problem(rel, "broken or looping symbolic link (" + ec.message() + "): not read");
        if (target.string().compare(0, boundary.size(), boundary) != 0)
            return problem(rel, "symbolic link to " + target.string() + ", outside the rules folder: not read");
        if (!fs::is_regular_file(fs::symlink_status(target, ec)))
            return problem(rel, "symbolic link to something that is not a regular file: not read");
        files.push_back({rel, target.string()});
    }
};

}  // namespace

std::vector<CatalogFile> listCatalogFiles(const std::string& dir, std::vector<Diagnostic>& diagnostics)
{
    std::error_code ec;
    FolderWalk walk{fs::path(dir), fs::canonical(dir, ec).string(), {}, diagnostics};
    if (walk.boundary.empty() || walk.boundary.back() != '/')
        walk.boundary += '/';
    std::vector<std::pair<fs::path, int>> pending{{walk.root, 0}};
    while (!pending.empty()) {
        const auto [folder, depth] = pending.back();
        pending.pop_back();
        std::vector<std::pair<fs::path, fs::file_status>> children;
        fs::directory_iterator it(folder, ec);
        for (; !ec && it != fs::directory_iterator(); it.increment(ec))
            children.emplace_back(it->path(), it->symlink_status(ec));
        const std::string folderRel = folder.lexically_relative(walk.root).generic_string();
        if (ec)
            walk.problem(folderRel, "folder cannot be read (" + ec.message() + "): its rules are missing");
        std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [path, status] : children)
            walk.visit(path, path.lexically_relative(walk.root).generic_string(), status, depth, pending);
    }
    std::sort(walk.files.begin(), walk.files.end(), [](const auto& a, const auto& b) { return a.rel < b.rel; });
    return std::move(walk.files);
}

std::string readCatalogFile(const std::string& path, std::size_t maxBytes, std::string& error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        error = std::error_code(errno, std::generic_category()).message();
        return {};
    }
    struct stat info { };
    std::string text;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
        error = "not a regular file";
    else if (static_cast<std::uint64_t>(info.st_size) > maxBytes)
        error = "file of " + std::to_string(info.st_size) + " bytes is over the cap of " + std::to_string(maxBytes);
    else {
        text.resize(static_cast<std::size_t>(info.st_size));
        std::size_t got = 0;
        while (got < text.size()) {
            const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
            if (n <= 0)
                break;
            got += static_cast<std::size_t>(n);
        }
        text.resize(got);
    }
    ::close(fd);
    return text;
}

}  // namespace attrib::engine
