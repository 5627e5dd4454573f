// SPDX-License-Identifier: GPL-3.0-or-later
// Case records from analysis results.
#include "engine/store/case_record.h"

#include "engine/json_util.h"
#include "engine/store/case_events.h"
#include "engine/verdict_json.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace attrib::store {

using nlohmann::ordered_json;

namespace {

ordered_json timeJson(engine::TimeNs t)
{
    if (t == engine::NoTime)
        return nullptr;
    return {{"ns", t}, {"iso", engine::formatTime(t)}};
}

/// Feeds a file's bytes into the hash in 1 MiB chunks.
std::uint64_t hashFile(const std::string& path, std::uint64_t h)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw StoreError(StoreError::Kind::Io, path + ": cannot read the file to hash the bundle");
    std::string buffer(1 << 20, '\0');
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        h = engine::fnv1a(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())), h);
    }
    if (in.bad())
        throw StoreError(StoreError::Kind::Io, path + ": read error while hashing the bundle");
    return h;
}

std::string hexHash(std::uint64_t h)
{
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return std::string("fnv1a64:") + text;
}

std::string compact(const ordered_json& j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<CaseEvidence> evidenceOf(const engine::AnalysisResult& r)
{
    std::vector<CaseEvidence> out;
    out.reserve(r.observations.size());
    for (const auto& o : r.observations) {
        CaseEvidence e;
        e.observationId = o.id;
        e.file = o.source.file < r.files.size() ? r.files[o.source.file].path : std::string();
        e.line = o.source.line;
        e.offset = o.source.offset;
        e.length = o.source.length;
        e.node = o.node;
        e.time = o.time;
        e.text = o.text;
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<CaseSymptom> symptomsOf(const engine::AnalysisResult& r)
{
    std::vector<CaseSymptom> out;
    for (const auto& s : r.symptoms) {
        out.push_back({s.id, s.name, s.domain, s.node, s.gpu, engine::toString(s.status), s.statusRule, s.statusReason,
                       s.firstSeen, s.lastSeen, s.count, s.interesting});
    }
    return out;
}

}  // namespace

ordered_json contextToJson(const engine::ExecutionContext& c)
{
    ordered_json j;
    j["workload_id"] = c.workloadId.empty() ? ordered_json(nullptr) : ordered_json(c.workloadId);
    j["scheduler"] = c.scheduler;
    j["attempt"] = c.attempt;
    j["platform"] = c.platform.empty() ? ordered_json(nullptr) : ordered_json(c.platform);
    j["start"] = timeJson(c.start);
    j["end"] = timeJson(c.end);
    j["nodes"] = c.nodes;
    ordered_json ranks = ordered_json::array();
    for (const auto& [rank, where] : c.rankMap)
        ranks.push_back({{"rank", rank}, {"node", where.first}, {"gpu", where.second}});
    j["rank_map"] = ranks;
    j["source"] = c.source;
    ordered_json collected = ordered_json::object();
    for (const auto& [node, kinds] : c.collected)
        collected[node] = kinds;
    j["collected"] = collected;
    return j;
}

ordered_json coverageToJson(const engine::AnalysisResult& r)
{
    ordered_json files = ordered_json::array();
    for (const auto& f : r.fileCoverage) {
        files.push_back({{"path", f.path},
                         {"collector", engine::toString(f.kind)},
                         {"role", engine::toString(f.role)},
                         {"format", f.format},
                         {"node", f.node},
                         {"lines", f.lines},
                         {"skipped", f.skipped},
                         {"first", timeJson(f.first)},
                         {"last", timeJson(f.last)},
                         {"status", engine::toString(f.status)},
                         {"errors", f.errors}});
    }
    ordered_json j;
    j["collectors"] = engine::verdictToJson(r)["coverage"];
    j["files"] = files;
    return j;
}

std::string bundleContentHash(const engine::AnalysisResult& r)
{
    std::error_code ec;
    if (fs::is_regular_file(r.bundlePath, ec))
        return hexHash(hashFile(r.bundlePath, engine::fnv1a({})));
    std::vector<const engine::BundleFile*> files;
    for (const auto& f : r.files)
        files.push_back(&f);
    std::sort(files.begin(), files.end(), [](const auto* a, const auto* b) { return a->path < b->path; });
    std::uint64_t h = engine::fnv1a({});
    for (const auto* f : files) {
        h = engine::fnv1a(f->path + '\n' + std::to_string(f->size) + '\n', h);
        if (!f->absolutePath.empty())
            h = hashFile(f->absolutePath, h);
    }
    return hexHash(h);
}

CaseRecord makeCaseRecord(const engine::AnalysisResult& r, std::string bundleHash, engine::TimeNs createdAt)
{
    CaseRecord c;
    CaseSummary& s = c.summary;
    s.createdAt = createdAt;
    s.bundlePath = r.bundlePath;
    s.bundleHash = std::move(bundleHash);
    s.workloadId = r.context.workloadId;
    s.jobStart = r.context.start;
    s.jobEnd = r.context.end;
    s.terminalState = r.verdict.terminalState;
    s.subDomain = r.verdict.subDomain;
    if (r.verdict.rootCause) {
        s.rootNode = r.verdict.rootCause->node;
        s.rootSymptom = r.verdict.rootCause->symptom;
    }
    s.engineVersion = r.engine.version;
    s.catalogVersion = r.engine.catalogVersion;
    s.catalogHash = r.engine.catalogHash;
    c.scheduler = r.context.scheduler;
    c.attempt = r.context.attempt;
    c.contextJson = compact(contextToJson(r.context));
    c.verdictJson = engine::dumpJson(engine::verdictToJson(r));
    c.coverageJson = compact(coverageToJson(r));
    c.traceJson = compact(engine::traceToJson(r.trace));
    c.symptoms = symptomsOf(r);
    c.evidence = evidenceOf(r);
    c.eventsJson = eventsToJson(r);
    c.eventCount = r.events.size();
    return c;
}

LabelAgreement compareLabel(const CaseLabel& label, const std::string& terminalState, const std::string& subDomain,
                            const std::string& rootNode)
{
    LabelAgreement a;
    auto one = [&a](const std::string& want, const std::string& got, bool& ok) {
        if (want.empty())
            return;
        ++a.stated;
        ok = want == got;
        a.agreed += ok;
    };
    one(label.terminalState, terminalState, a.terminalState);
    one(label.subDomain, subDomain, a.subDomain);
    one(label.node, rootNode, a.node);
    return a;
}

std::string agreementText(const CaseSummary& s)
{
    if (!s.label)
        return "-";
    const auto a = compareLabel(*s.label, s.terminalState, s.subDomain, s.rootNode);
    return a.stated == 0 ? "-" : a.agrees() ? "yes" : "no";
}

engine::TimeNs nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace attrib::store
