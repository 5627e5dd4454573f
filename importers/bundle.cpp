// SPDX-License-Identifier: GPL-3.0-or-later
// Bundle walking and workload.json.
#include "importers/bundle.h"
#include "importers/timestamps.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pci.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace attrib::importers {

std::string shortHost(std::string_view host)
{
    // An IPv4 address (NCCL prefixes and MPI messages may name hosts that way) is kept whole, not cut at a dot.
    const bool address = !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
    std::string s(address ? host : host.substr(0, host.find('.')));
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string nodeFromPath(std::string_view relativePath)
{
    const fs::path rel{std::string(relativePath)};
    std::vector<std::string> parts;
    for (const auto& p : rel.parent_path())
        parts.push_back(p.string());
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (parts[i] == "nodes" || parts[i] == "hosts")
            return shortHost(parts[i + 1]);
    }
    return {};
}

int rankFromName(const std::string& name)
{
    // rank-11.log, rank_11.txt, rank11.out, worker-rank3.log
    auto pos = name.find("rank");
    if (pos == std::string::npos)
        return -1;
    pos += 4;
    while (pos < name.size() && (name[pos] == '-' || name[pos] == '_'))
        ++pos;
    int value = 0;
    bool any = false;
    while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos]))) {
        value = value * 10 + (name[pos++] - '0');
        any = true;
        if (value > 10'000'000)
            return -1;
    }
    return any ? value : -1;
}

namespace {

/// Files a sample or corpus case carries for people and tests (expected verdict, lesson, source address), not as
/// evidence.
bool isSampleMetadata(const std::string& rel)
{
    return rel == "expected.json" || rel == "LESSON.md" || rel == "README.md" || rel == "SOURCE";
}

BundleEntry makeEntry(const std::string& rel, const std::string& absolute)
{
    BundleEntry entry;
    entry.file.path = rel;
    entry.file.absolutePath = absolute;
    entry.metadata = isSampleMetadata(rel);
    entry.nodeHint = nodeFromPath(rel);
    entry.rankHint = rankFromName(fs::path(rel).filename().string());
    return entry;
}

/// The single top-level folder all members share ("bundle/" in bundle.tar.gz), or "".
std::string commonTopFolder(const std::vector<ArchiveMember>& members)
{
    std::string top;
    for (const auto& m : members) {
        const auto slash = m.name.find('/');
        if (slash == std::string::npos || slash == 0)
            return {};
        const std::string first = m.name.substr(0, slash + 1);
        if (top.empty())
            top = first;
        else if (first != top)
            return {};
    }
    return top;
}

/// Appends the members of the archive at `absolute` as entries under `prefix` ("" for an archive bundle).
void addArchiveMembers(const std::string& absolute, const std::string& prefix, const ArchiveLimits& limits,
                       bool stripTop, std::vector<BundleEntry>& out)
{
    ArchiveListing listing = listArchive(absolute, limits);
    const std::string top = stripTop ? commonTopFolder(listing.members) : std::string();
    std::set<std::string> seen;
    for (auto& m : listing.members) {
        const std::string inner = m.name.substr(m.name.compare(0, top.size(), top) == 0 ? top.size() : 0);
        BundleEntry entry = makeEntry(prefix + inner, absolute);
        entry.file.archiveMember = m.name;
        entry.file.size = m.size;
        entry.mtime = m.mtime;
        entry.problem = m.problem;
        if (entry.problem.empty() && !seen.insert(m.name).second)
            entry.problem = "duplicate member name inside the archive; only the first copy is read";
        out.push_back(std::move(entry));
    }
    if (!listing.error.empty()) {
        BundleEntry entry = makeEntry(
            prefix.empty() ? fs::path(absolute).filename().string() : prefix.substr(0, prefix.size() - 1), absolute);
        entry.problem = listing.error;
        entry.metadata = false;
        out.push_back(std::move(entry));
    }
}

void sortEntries(std::vector<BundleEntry>& out)
{
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file.path < b.file.path; });
}

}  // namespace

namespace {

/// A directory entry as a bundle entry: links resolved (or reported), archives expanded.
void addFolderEntry(const fs::directory_entry& item, const std::string& root, const ArchiveLimits& limits,
                    std::vector<BundleEntry>& out)
{
    std::error_code sec;
    const fs::path path = item.path();
    // Lexical: fs::relative would resolve links, which fails for the broken and looping ones we must report.
    std::string rel = path.lexically_normal().lexically_relative(fs::path(root).lexically_normal()).generic_string();
    if (rel.empty() || rel.rfind("..", 0) == 0)
        rel = path.filename().generic_string();
    const auto status = item.symlink_status(sec);
    if (fs::is_directory(status))
        return;
    BundleEntry entry = makeEntry(rel, path.string());
    if (fs::is_symlink(status)) {
        const auto target = fs::status(path, sec);
        if (sec || !fs::is_regular_file(target)) {
            entry.problem = sec            ? "broken or looping symbolic link: " + sec.message()
                : fs::is_directory(target) ? "symbolic link to a folder: not followed"
                                           : "symbolic link to something that is not a regular file";
            out.push_back(std::move(entry));
            return;
        }
    } else if (!fs::is_regular_file(status)) {
        entry.problem = "not a regular file (device, socket or pipe)";
        out.push_back(std::move(entry));
        return;
    }
    entry.file.size = fs::file_size(path, sec);
    auto mtime = fs::last_write_time(path, sec);
    if (!sec)
        entry.mtime =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                .count();
    if (::access(path.c_str(), R_OK) != 0)
        entry.problem = "permission denied";
    else if (!entry.metadata && probeFile(path.string()) == Container::Archive)
        return addArchiveMembers(path.string(), rel + "/", limits, false, out);
    out.push_back(std::move(entry));
}

}  // namespace

std::vector<BundleEntry> listBundle(const std::string& root, std::string& error)
{
    return listBundle(root, ArchiveLimits(), error);
}

std::vector<BundleEntry> listBundle(const std::string& root, const ArchiveLimits& limits, std::string& error)
{
    std::vector<BundleEntry> out;
    std::error_code ec;
    auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error = root + ": " + ec.message();
        return out;
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) {
            error = root + ": " + ec.message();
            break;
        }
        addFolderEntry(*it, root, limits, out);
    }
    sortEntries(out);
    return out;
}

std::vector<BundleEntry> listArchiveBundle(const std::string& archive, const ArchiveLimits& limits, std::string& error)
{
    std::vector<BundleEntry> out;
    addArchiveMembers(archive, "", limits, true, out);
    if (out.size() == 1 && out[0].file.archiveMember.empty())
        error = archive + ": " + out[0].problem;
    sortEntries(out);
    return out;
}

namespace {

void readWorkloadObject(const nlohmann::json& j, engine::ExecutionContext& ctx,
                        std::map<std::string, engine::TimeNs>* bootTimes)
{
    auto str = [](const nlohmann::json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    ctx.workloadId = str(j, "id");
    if (!str(j, "scheduler").empty())
        ctx.scheduler = str(j, "scheduler");
    if (auto it = j.find("attempt"); it != j.end() && it->is_number_integer())
        ctx.attempt = it->get<int>();
    ctx.platform = str(j, "platform");
    ctx.start = isoTime(str(j, "start"));
    ctx.end = isoTime(str(j, "end"));
    if (auto it = j.find("nodes"); it != j.end() && it->is_array())
        for (const auto& n : *it)
            if (n.is_string())
                ctx.nodes.push_back(shortHost(n.get<std::string>()));
    for (const auto& [rank, place] : engine::objectAt(j, "ranks").items()) {
        if (!place.is_object())
            continue;
        const auto index = engine::parseIntegerIn<int>(rank, 0, INT32_MAX);
        if (!index)
            continue;
        auto gpu = place.find("gpu");
        ctx.rankMap[*index] = {shortHost(str(place, "node")),
                               gpu != place.end() && gpu->is_number_integer() ? gpu->get<int>() : -1};
    }
    for (const auto& [node, map] : engine::objectAt(j, "gpus").items()) {
        if (!map.is_object())
            continue;
        for (const auto& [pci, index] : map.items())
            if (index.is_number_integer())
                ctx.pciToGpu[shortHost(node)][engine::normalizePci(pci)] = index.get<int>();
    }
    if (bootTimes) {
        for (const auto& [node, when] : engine::objectAt(j, "boot_times").items())
            if (when.is_string())
                if (const auto t = isoTime(when.get<std::string>()); t != engine::NoTime)
                    (*bootTimes)[shortHost(node)] = t;
    }
    ctx.source = "workload.json";
}

}  // namespace

std::string readWorkloadText(const std::string& text, engine::ExecutionContext& ctx,
                             std::map<std::string, engine::TimeNs>* bootTimes)
{
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded())
        return "invalid JSON";
    if (!j.is_object())
        return "workload.json must hold an object";
    try {
        readWorkloadObject(j, ctx, bootTimes);
    } catch (const std::exception& e) {
        return std::string("unusable workload.json: ") + e.what();
    }
    return {};
}

std::string readWorkload(const std::string& path, engine::ExecutionContext& ctx)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return readWorkloadText(text, ctx);
}

}  // namespace attrib::importers
