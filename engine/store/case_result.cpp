// SPDX-License-Identifier: GPL-3.0-or-later
// Rebuilding an AnalysisResult from the JSON columns and rows of a case.
#include "engine/store/case_result.h"

#include "engine/store/case_events.h"

#include "engine/json_util.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using nlohmann::json;

namespace attrib::store {

namespace {

std::string text(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

template <typename T> T number(const json& j, const char* key, T fallback)
{
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<T>() : fallback;
}

engine::TimeNs nsOf(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_object() ? number<engine::TimeNs>(j[key], "ns", engine::NoTime)
                                                                  : engine::NoTime;
}

engine::TimeNs isoOf(const json& j, const char* key)
{
    const std::string s = text(j, key);
    return s.empty() ? engine::NoTime : engine::parseIsoTime(s);
}

template <typename Enum, int N> Enum enumOf(const std::string& name, Enum fallback)
{
    for (int i = 0; i < N; ++i)
        if (name == engine::toString(static_cast<Enum>(i)))
            return static_cast<Enum>(i);
    return fallback;
}

/// Records stored before coverage had a role field said it only in the format's display name.
engine::FileRole legacyRole(const std::string& format)
{
    return enumOf<engine::FileRole, engine::FileRoleCount>(format, engine::FileRole::Evidence);
}

engine::ExecutionContext contextOf(const std::string& contextJson)
{
    const json j = json::parse(contextJson, nullptr, false);
    engine::ExecutionContext c;
    c.workloadId = text(j, "workload_id");
    c.scheduler = text(j, "scheduler").empty() ? "none" : text(j, "scheduler");
    c.attempt = number<int>(j, "attempt", 0);
    c.platform = text(j, "platform");
    c.start = nsOf(j, "start");
    c.end = nsOf(j, "end");
    c.source = text(j, "source");
    if (j.is_object() && j.contains("nodes"))
        c.nodes = engine::stringList(j["nodes"]);
    if (j.is_object() && j.contains("rank_map") && j["rank_map"].is_array())
        for (const auto& r : j["rank_map"])
            c.rankMap[number<int>(r, "rank", -1)] = {text(r, "node"), number<int>(r, "gpu", -1)};
    return c;
}

void addCoverage(engine::AnalysisResult& r, const std::string& coverageJson, bool moved)
{
    const json j = json::parse(coverageJson, nullptr, false);
    const bool folder = !moved && fs::is_directory(r.bundlePath);
    for (const auto& f : j.is_object() && j.contains("files") ? j["files"] : json::array()) {
        engine::FileCoverage c;
        c.path = text(f, "path");
        c.kind = engine::sourceKindFromString(text(f, "collector")).value_or(engine::SourceKind::Unknown);
        c.format = text(f, "format");
        c.role = f.is_object() && f.contains("role")
            ? enumOf<engine::FileRole, engine::FileRoleCount>(text(f, "role"), engine::FileRole::Evidence)
            : legacyRole(c.format);
        c.node = text(f, "node");
        c.lines = number<std::uint64_t>(f, "lines", 0);
        c.skipped = number<std::uint64_t>(f, "skipped", 0);
        c.first = nsOf(f, "first");
        c.last = nsOf(f, "last");
        c.status = enumOf<engine::CoverageStatus, 5>(text(f, "status"), engine::CoverageStatus::Ok);
        c.errors = engine::stringsAt(f, "errors");
        engine::BundleFile file{c.path, folder ? (fs::path(r.bundlePath) / c.path).string() : std::string(), {}, 0};
        if (!moved && !folder)
            file.archiveMember = c.path;
        r.files.push_back(file);
        r.fileCoverage.push_back(std::move(c));
    }
    for (const auto& c : j.is_object() && j.contains("collectors") ? j["collectors"] : json::array()) {
        engine::CollectorCoverage cc;
        cc.kind = engine::sourceKindFromString(text(c, "collector")).value_or(engine::SourceKind::Unknown);
        cc.files = engine::stringsAt(c, "files");
        cc.nodes = engine::stringsAt(c, "nodes");
        if (c.contains("span")) {
            cc.first = isoOf(c["span"], "start");
            cc.last = isoOf(c["span"], "end");
        }
        if (c.contains("lines")) {
            cc.lines = number<std::uint64_t>(c["lines"], "read", 0);
            cc.skipped = number<std::uint64_t>(c["lines"], "skipped", 0);
        }
        cc.status = enumOf<engine::CoverageStatus, 5>(text(c, "status"), engine::CoverageStatus::Ok);
        cc.errors = engine::stringsAt(c, "errors");
        r.coverage.push_back(std::move(cc));
    }
}

void addEvidence(engine::AnalysisResult& r, const CaseRecord& record)
{
    std::map<std::string, std::uint32_t> fileIndex;
    for (std::uint32_t i = 0; i < r.files.size(); ++i)
        fileIndex[r.files[i].path] = i;
    for (const auto& e : record.evidence) {
        if (!fileIndex.count(e.file)) {  // a case written without per-file coverage
            fileIndex[e.file] = static_cast<std::uint32_t>(r.files.size());
            r.files.push_back({e.file, {}, {}, 0});
        }
        engine::Observation o;
        o.id = e.observationId;
        o.source = {fileIndex[e.file], static_cast<std::uint32_t>(e.length), e.line, e.offset};
        const auto fi = o.source.file;
        o.kind = fi < r.fileCoverage.size() ? r.fileCoverage[fi].kind : engine::SourceKind::Unknown;
        o.node = e.node;
        o.time = e.time;
        o.timeSource = e.time == engine::NoTime ? engine::TimeSource::None : engine::TimeSource::Absolute;
        o.text = e.text;
        r.observations.push_back(std::move(o));
    }
}

}  // namespace

void addVerdictAndSymptoms(engine::AnalysisResult& r, const CaseRecord& record);
void addStandInEvents(engine::AnalysisResult& r);
std::vector<engine::TraceStep> traceOf(const std::string& traceJson);

std::shared_ptr<engine::AnalysisResult> caseToResult(const CaseRecord& record, bool* bundleMoved)
{
    auto r = std::make_shared<engine::AnalysisResult>();
    r->bundlePath = record.summary.bundlePath;
    std::error_code ec;
    const bool moved = !fs::exists(r->bundlePath, ec);
    if (bundleMoved)
        *bundleMoved = moved;
    r->context = contextOf(record.contextJson);
    addCoverage(*r, record.coverageJson, moved);
    addEvidence(*r, record);
    addVerdictAndSymptoms(*r, record);
    if (!restoreEvents(*r, record.eventsJson))
        addStandInEvents(*r);
    r->trace = traceOf(record.traceJson);
    r->engine = {record.summary.engineVersion, record.summary.catalogVersion, record.summary.catalogHash};
    return r;
}

}  // namespace attrib::store
