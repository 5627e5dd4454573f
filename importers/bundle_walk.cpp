// SPDX-License-Identifier: GPL-3.0-or-later
// Walking a folder bundle: one folder at a time (memory linear in what is listed), nesting and file count
// capped, symbolic links followed only to regular files inside the bundle, every folder or file that cannot
// be read listed with its problem (a coverage error) instead of skipped silently.
#include "importers/bundle_walk.h"
#include "importers/file_open.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace attrib::importers {

namespace {

struct Walk {
    fs::path root;          ///< the bundle folder as given
    std::string canonical;  ///< its resolved path, with a trailing separator (the boundary)
    DecompressionBudget budget;
    std::vector<BundleEntry> out;
    std::set<std::pair<dev_t, ino_t>> archivesSeen;  ///< an archive reached twice (hard links) is read once
    std::size_t files = 0;
    std::string error;
};

std::string relativeTo(const fs::path& path, const fs::path& root)
{
    // Lexical: fs::relative would resolve links, which fails for the broken and looping ones we must report.
    std::string rel = path.lexically_normal().lexically_relative(root.lexically_normal()).generic_string();
    return rel.empty() || rel.rfind("..", 0) == 0 ? path.filename().generic_string() : rel;
}

void addProblem(Walk& w, const std::string& rel, const fs::path& path, const std::string& problem)
{
    BundleEntry entry = detail::makeFolderEntry(rel, path.string());
    entry.problem = problem;
    entry.metadata = false;
    w.out.push_back(std::move(entry));
}

/// Where a symbolic link leads when it stays inside the bundle and ends at a regular file; otherwise "" and
/// `problem` says why it is not followed.
std::string followLink(const Walk& w, const fs::path& path, std::string& problem)
{
    std::error_code ec;
    const fs::path target = fs::canonical(path, ec);
    if (ec) {
        problem = "broken or looping symbolic link: " + ec.message();
        return {};
    }
    const std::string t = target.string();
    if (t.compare(0, w.canonical.size(), w.canonical) != 0) {
        problem = "symbolic link to " + t + ", outside the bundle: not followed";
        return {};
    }
    const auto status = fs::symlink_status(target, ec);
    if (fs::is_directory(status))
        problem = "symbolic link to a folder: not followed";
    else if (!fs::is_regular_file(status))
        problem = "symbolic link to something that is not a regular file";
    return problem.empty() ? t : std::string();
}

void addFile(Walk& w, const fs::path& path, const std::string& rel, const fs::file_status& status)
{
    if (++w.files > w.budget.limits().maxFiles) {
        if (w.files == w.budget.limits().maxFiles + 1)
            addProblem(w, rel, path,
                       "more than " + std::to_string(w.budget.limits().maxFiles) +
                           " files in the bundle: this and the rest are not listed");
        return;
    }
    std::string absolute = path.string();
    std::string problem;
    if (fs::is_symlink(status))
        absolute = followLink(w, path, problem);
    else if (!fs::is_regular_file(status))
        problem = "not a regular file (device, socket or pipe)";
    if (!problem.empty())
        return addProblem(w, rel, path, problem);
    BundleEntry entry = detail::makeFolderEntry(rel, absolute);
    struct stat info { };
    if (::stat(absolute.c_str(), &info) != 0)
        return addProblem(w, rel, path, "cannot be read: " + std::error_code(errno, std::generic_category()).message());
    entry.file.size = static_cast<std::uint64_t>(info.st_size);
    entry.mtime = static_cast<std::int64_t>(info.st_mtime);
    if (::access(absolute.c_str(), R_OK) != 0)
        entry.problem = "permission denied";
    else if (!entry.metadata && probeFile(absolute) == Container::Archive) {
        if (!w.archivesSeen.insert({info.st_dev, info.st_ino}).second)
            return addProblem(w, rel, path, "the same archive as another path of the bundle (a link): read once");
        return detail::addFolderArchive(absolute, rel, w.budget, w.out);
    }
    w.out.push_back(std::move(entry));
}

/// Lists one folder's children (sorted); sub-folders are returned to be walked next.
std::vector<fs::path> readFolder(Walk& w, const fs::path& dir, int depth)
{
    std::vector<std::pair<fs::path, fs::file_status>> children;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec))
        children.emplace_back(it->path(), it->symlink_status(ec));
    if (ec && dir == w.root && children.empty()) {
        w.error = dir.string() + ": " + ec.message();
        return {};
    }
    if (ec)
        addProblem(w, relativeTo(dir, w.root), dir,
                   "folder cannot be read (" + ec.message() + "): its files are missing");
    std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<fs::path> folders;
    for (const auto& [path, status] : children) {
        const std::string rel = relativeTo(path, w.root);
        if (!fs::is_directory(status))
            addFile(w, path, rel, status);
        else if (depth + 1 >= w.budget.limits().maxDepth)
            addProblem(w, rel, path,
                       "folder nested deeper than " + std::to_string(w.budget.limits().maxDepth) + " levels: not read");
        else
            folders.push_back(path);
    }
    return folders;
}

}  // namespace

std::vector<BundleEntry> listBundle(const std::string& root, const ArchiveLimits& limits, std::string& error)
{
    Walk w{fs::path(root), {}, DecompressionBudget(limits), {}, {}, 0, {}};
    std::error_code ec;
    w.canonical = fs::canonical(w.root, ec).string();
    if (ec) {
        error = root + ": " + ec.message();
        return {};
    }
    if (w.canonical.empty() || w.canonical.back() != '/')
        w.canonical += '/';
    std::vector<std::pair<fs::path, int>> pending{{w.root, 0}};  // depth-first, one folder open at a time
    while (!pending.empty()) {
        auto [dir, depth] = std::move(pending.back());
        pending.pop_back();
        auto folders = readFolder(w, dir, depth);
        for (auto it = folders.rbegin(); it != folders.rend(); ++it)
            pending.emplace_back(std::move(*it), depth + 1);
    }
    error = w.error;
    detail::finishBundleEntries(w.out);
    return std::move(w.out);
}

}  // namespace attrib::importers
