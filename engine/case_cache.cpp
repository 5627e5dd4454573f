// SPDX-License-Identifier: GPL-3.0-or-later
// Inline-case outcomes kept on disk, one small JSON file per (program, catalog) pair.
#include "engine/case_cache.h"
#include "engine/json_util.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace attrib::engine {

namespace {

constexpr const char* Format = "attrib-case-outcome/1";
constexpr std::size_t KeptEntries = 32;

std::string envValue(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string entryPath(const std::string& cacheDir, const std::string& key)
{
    char name[40];
    std::snprintf(name, sizeof name, "cases-%016llx.json", static_cast<unsigned long long>(fnv1a(key)));
    return (fs::path(cacheDir) / name).string();
}

json toJson(const Location& where)
{
    return json::array({where.file, where.line});
}

Location locationFrom(const json& j)
{
    return {j.at(0).get<std::string>(), j.at(1).get<int>()};
}

json toJson(const CaseOutcome& outcome, const std::string& key)
{
    json results = json::array();
    for (const auto& r : outcome.results)
        results.push_back(json::array({r.rule, r.name, r.passed, r.failure, toJson(r.where)}));
    json diagnostics = json::array();
    for (const auto& d : outcome.diagnostics)
        diagnostics.push_back(json::array(
            {d.severity == Diagnostic::Severity::Error ? "error" : "warning", toJson(d.where), d.rule, d.message}));
    json dropped = json::array();
    for (const auto& ids : outcome.dropped)
        dropped.push_back(ids);
    return json{{"format", Format},
                {"key", key},
                {"results", std::move(results)},
                {"diagnostics", std::move(diagnostics)},
                {"dropped", std::move(dropped)}};
}

CaseOutcome outcomeFrom(const json& j)
{
    CaseOutcome outcome;
    for (const auto& r : j.at("results"))
        outcome.results.push_back({r.at(0).get<std::string>(), r.at(1).get<std::string>(), r.at(2).get<bool>(),
                                   r.at(3).get<std::string>(), locationFrom(r.at(4))});
    for (const auto& d : j.at("diagnostics"))
        outcome.diagnostics.push_back(
            {d.at(0).get<std::string>() == "error" ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning,
             locationFrom(d.at(1)), d.at(2).get<std::string>(), d.at(3).get<std::string>()});
    const json& dropped = j.at("dropped");
    if (dropped.size() != CaseRuleKindCount)
        throw std::runtime_error("dropped lists");
    for (std::size_t k = 0; k < CaseRuleKindCount; ++k)
        outcome.dropped[k] = dropped.at(k).get<std::vector<std::string>>();
    return outcome;
}

/// Removes the least recently written entries beyond KeptEntries (a catalog being edited leaves one per save).
void prune(const std::string& cacheDir)
{
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> entries;
    for (fs::directory_iterator it(cacheDir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.rfind("cases-", 0) == 0 && it->path().extension() == ".json")
            entries.emplace_back(it->last_write_time(ec), it->path());
    }
    if (entries.size() <= KeptEntries)
        return;
    std::sort(entries.begin(), entries.end());
    for (std::size_t i = 0; i + KeptEntries < entries.size(); ++i)
        fs::remove(entries[i].second, ec);
}

}  // namespace

std::string defaultCaseCacheDir()
{
    if (const std::string chosen = envValue("ATTRIB_CASE_CACHE"); !chosen.empty())
        return chosen == "off" || chosen == "0" ? std::string() : chosen;
    if (const std::string xdg = envValue("XDG_CACHE_HOME"); !xdg.empty())
        return (fs::path(xdg) / "attrib-workbench").string();
    if (const std::string home = envValue("HOME"); !home.empty())
        return (fs::path(home) / ".cache" / "attrib-workbench").string();
    return {};
}

std::string caseCacheKey(const std::string& catalogDir, const std::string& catalogHash)
{
    std::error_code ec;
    const fs::path program = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    const auto size = fs::file_size(program, ec);
    if (ec)
        return {};
    const auto modified = fs::last_write_time(program, ec);
    if (ec)
        return {};
    std::ostringstream key;
    key << Format << '\n'
        << program.string() << '\n'
        << size << ' ' << modified.time_since_epoch().count() << '\n'
        << fs::absolute(catalogDir, ec).lexically_normal().string() << '\n'
        << catalogHash;
    return key.str();
}

std::optional<CaseOutcome> readCaseOutcome(const std::string& cacheDir, const std::string& key)
{
    if (cacheDir.empty() || key.empty())
        return std::nullopt;
    std::ifstream in(entryPath(cacheDir, key), std::ios::binary);
    if (!in)
        return std::nullopt;
    try {
        const json j = json::parse(in);
        if (j.at("format") != Format || j.at("key") != key)  // another program or catalog under a colliding name
            return std::nullopt;
        return outcomeFrom(j);
    } catch (const std::exception&) {  // truncated or edited by hand: run the cases again
        return std::nullopt;
    }
}

void writeCaseOutcome(const std::string& cacheDir, const std::string& key, const CaseOutcome& outcome)
{
    if (cacheDir.empty() || key.empty())
        return;
    std::string text;
    try {
        text = toJson(outcome, key).dump();
    } catch (const nlohmann::json::exception&) {  // a message that is not UTF-8 (a C++ rule's exception text): the
        return;                                   // outcome is not kept, so a reused one never differs from a fresh
    }
    std::error_code ec;
    fs::create_directories(cacheDir, ec);
    const std::string path = entryPath(cacheDir, key);
    const std::string aside = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(aside, std::ios::binary | std::ios::trunc);
        if (!out)
            return;
        out << text;
        if (!out.flush()) {
            out.close();
            fs::remove(aside, ec);
            return;
        }
    }
    fs::rename(aside, path, ec);
    if (ec) {
        fs::remove(aside, ec);
        return;
    }
    prune(cacheDir);
}

}  // namespace attrib::engine
