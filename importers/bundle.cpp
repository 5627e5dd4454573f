// SPDX-License-Identifier: GPL-3.0-or-later
// Bundle walking and workload.json.
#include "importers/bundle.h"
#include "importers/bundle_walk.h"
#include "importers/file_open.h"
#include "importers/timestamps.h"

#include "engine/host_name.h"
#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pci.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace attrib::importers {

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
/// evidence. Only the expected verdict is known by its name alone; the notes are a case's only where the bundle
/// carries one (settleCaseNotes), elsewhere a README.md or SOURCE is text like any other, and text is evidence.
bool isSampleMetadata(const std::string& rel)
{
    return rel == "expected.json" || rel == "LESSON.md" || rel == "README.md" || rel == "SOURCE";
}

/// Without a root expected.json the bundle is not a sample or corpus case: its README.md, LESSON.md and SOURCE are
/// read as evidence (a ticket's notes often hold the pasted log).
void settleCaseNotes(std::vector<BundleEntry>& out)
{
    const bool isCase =
        std::any_of(out.begin(), out.end(), [](const BundleEntry& e) { return e.file.path == "expected.json"; });
    if (isCase)
        return;
    for (BundleEntry& e : out) {
        if (e.metadata && e.file.path != "expected.json")
            e.metadata = false;
    }
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
    const auto layoutFolder = [](const std::string& first) { return first == "nodes/" || first == "hosts/"; };
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
    return layoutFolder(top) ? std::string() : top;  // a lone nodes/ folder names the nodes: keep it
}

/// Appends the members of the archive at `absolute` as entries under `prefix` ("" for an archive bundle).
void addArchiveMembers(const std::string& absolute, const std::string& prefix, DecompressionBudget& budget,
                       bool stripTop, std::vector<BundleEntry>& out)
{
    ArchiveListing listing = listArchive(absolute, budget);
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

/// Stable order by relative path, and the case notes settled (a listing is complete here).
void finishEntries(std::vector<BundleEntry>& out)
{
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file.path < b.file.path; });
    settleCaseNotes(out);
}

}  // namespace

std::vector<BundleEntry> listBundle(const std::string& root, std::string& error)
{
    return listBundle(root, ArchiveLimits(), error);
}

std::vector<BundleEntry> listArchiveBundle(const std::string& archive, const ArchiveLimits& limits, std::string& error)
{
    std::vector<BundleEntry> out;
    DecompressionBudget budget(limits);
    addArchiveMembers(archive, "", budget, true, out);
    if (out.size() == 1 && out[0].file.archiveMember.empty())
        error = archive + ": " + out[0].problem;
    finishEntries(out);
    return out;
}

namespace detail {

BundleEntry makeFolderEntry(const std::string& rel, const std::string& absolute)
{
    return makeEntry(rel, absolute);
}

void addFolderArchive(const std::string& absolute, const std::string& rel, DecompressionBudget& budget,
                      std::vector<BundleEntry>& out)
{
    addArchiveMembers(absolute, rel + "/", budget, false, out);
}

void finishBundleEntries(std::vector<BundleEntry>& out)
{
    finishEntries(out);
}

}  // namespace detail

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
    const std::string text = regularFileHead(path, 16 << 20);  // never a FIFO or device, never unbounded
    return text.empty() ? std::string() : readWorkloadText(text, ctx);
}

}  // namespace attrib::importers
