// SPDX-License-Identifier: GPL-3.0-or-later
// Bundle walking and workload.json.
#include "importers/bundle.h"

#include "engine/json_util.h"
#include "engine/pci.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace attrib::importers {

std::string shortHost(std::string_view host)
{
    std::string s(host.substr(0, host.find('.')));
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

namespace {

std::string nodeFromPath(const fs::path& rel)
{
    std::vector<std::string> parts;
    for (const auto& p : rel.parent_path())
        parts.push_back(p.string());
    for (std::size_t i = 0; i + 1 < parts.size() + 1 && i < parts.size(); ++i) {
        if ((parts[i] == "nodes" || parts[i] == "hosts") && i + 1 < parts.size())
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

/// Files a sample bundle carries for people and tests, not as evidence.
bool isSampleMetadata(const std::string& rel)
{
    return rel == "expected.json" || rel == "LESSON.md" || rel == "README.md";
}

}  // namespace

std::vector<BundleEntry> listBundle(const std::string& root, std::string& error)
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
        const fs::path path = it->path();
        const fs::path rel = fs::relative(path, root, ec);
        std::error_code sec;
        const auto status = it->symlink_status(sec);
        if (fs::is_directory(status))
            continue;
        BundleEntry entry;
        entry.file.path = rel.generic_string();
        entry.metadata = isSampleMetadata(entry.file.path);
        entry.file.absolutePath = path.string();
        entry.nodeHint = nodeFromPath(rel);
        entry.rankHint = rankFromName(path.filename().string());
        if (fs::is_symlink(status)) {
            const auto target = fs::status(path, sec);
            if (sec || !fs::is_regular_file(target)) {
                entry.problem = sec ? "broken or looping symbolic link: " + sec.message()
                                    : "symbolic link to something that is not a regular file";
                out.push_back(std::move(entry));
                continue;
            }
        } else if (!fs::is_regular_file(status)) {
            entry.problem = "not a regular file (device, socket or pipe)";
            out.push_back(std::move(entry));
            continue;
        }
        entry.file.size = fs::file_size(path, sec);
        auto mtime = fs::last_write_time(path, sec);
        if (!sec)
            entry.mtime = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                              .count();
        if (::access(path.c_str(), R_OK) != 0)
            entry.problem = "permission denied";
        out.push_back(std::move(entry));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file.path < b.file.path; });
    return out;
}

std::string readWorkload(const std::string& path, engine::ExecutionContext& ctx)
{
    std::ifstream in(path);
    if (!in)
        return {};
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception& e) {
        return std::string("invalid JSON: ") + e.what();
    }
    if (!j.is_object())
        return "workload.json must hold an object";
    auto str = [&](const char* key) {
        auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    ctx.workloadId = str("id");
    if (!str("scheduler").empty())
        ctx.scheduler = str("scheduler");
    ctx.attempt = j.value("attempt", 0);
    ctx.platform = str("platform");
    ctx.start = engine::parseIsoTime(str("start"));
    ctx.end = engine::parseIsoTime(str("end"));
    for (const auto& n : j.value("nodes", nlohmann::json::array()))
        if (n.is_string())
            ctx.nodes.push_back(shortHost(n.get<std::string>()));
    for (const auto& [rank, place] : engine::objectAt(j, "ranks").items()) {
        if (place.is_object())
            ctx.rankMap[std::atoi(rank.c_str())] = {shortHost(place.value("node", "")), place.value("gpu", -1)};
    }
    for (const auto& [node, map] : engine::objectAt(j, "gpus").items()) {
        if (!map.is_object())
            continue;
        for (const auto& [pci, index] : map.items())
            if (index.is_number_integer())
                ctx.pciToGpu[shortHost(node)][engine::normalizePci(pci)] = index.get<int>();
    }
    ctx.source = "workload.json";
    return {};
}

}  // namespace attrib::importers
