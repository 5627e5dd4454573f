// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the verdict and the trace as JSON with a fixed key order.
#include "engine/verdict_json.h"

#include "engine/json_util.h"

#include <ostream>
#include <sstream>

namespace attrib::engine {

using nlohmann::ordered_json;

namespace {

ordered_json optionalInt(int v)
{
    return v >= 0 ? ordered_json(v) : ordered_json(nullptr);
}

ordered_json optionalString(const std::string& s)
{
    return s.empty() ? ordered_json(nullptr) : ordered_json(s);
}

ordered_json evidenceJson(const AnalysisResult& r, const Symptom& s)
{
    ordered_json list = ordered_json::array();
    for (std::size_t i = 0; i < s.evidence.size() && i < MaxEvidencePerSymptom; ++i) {
        const Observation* o = r.observation(s.evidence[i]);
        if (!o)
            continue;
        ordered_json e;
        e["file"] = o->source.file < r.files.size() ? r.files[o->source.file].path : std::string();
        e["line"] = o->source.line;
        e["time"] = optionalString(formatTime(o->time, o->timeSource));
        e["text"] = o->text;
        e["interesting"] = s.interesting;
        list.push_back(std::move(e));
    }
    return list;
}

ordered_json symptomJson(const AnalysisResult& r, const Symptom& s)
{
    ordered_json j;
    j["id"] = s.id;
    j["name"] = s.name;
    j["domain"] = s.domain;
    j["node"] = optionalString(s.node);
    j["gpu"] = optionalInt(s.gpu);
    j["first_seen"] = optionalString(formatTime(s.firstSeen, s.timeSource));
    j["last_seen"] = optionalString(formatTime(s.lastSeen, s.timeSource));
    j["time_source"] = toString(s.timeSource);
    j["count"] = s.count;
    j["status"] = toString(s.status);
    j["status_rule"] = optionalString(s.statusRule);
    j["status_reason"] = optionalString(s.statusReason);
    j["caused_by"] = optionalString(s.causedBy);
    ordered_json attrs = ordered_json::object();
    for (const auto& [k, v] : s.attrs)
        attrs[k] = v;
    j["attributes"] = attrs;
    j["evidence"] = evidenceJson(r, s);
    j["evidence_total"] = r.evidenceLines(s);
    return j;
}

ordered_json coverageJson(const AnalysisResult& r)
{
    ordered_json list = ordered_json::array();
    for (const auto& c : r.coverage) {
        ordered_json j;
        j["collector"] = toString(c.kind);
        j["files"] = c.files;
        j["nodes"] = c.nodes;
        j["span"] = {{"start", optionalString(formatTime(c.first))}, {"end", optionalString(formatTime(c.last))}};
        j["lines"] = {{"read", c.lines}, {"skipped", c.skipped}};
        j["status"] = toString(c.status);
        j["errors"] = c.errors;
        list.push_back(std::move(j));
    }
    return list;
}

ordered_json rootCauseJson(const AnalysisResult& r)
{
    if (!r.verdict.rootCause)
        return nullptr;
    const RootCause& rc = *r.verdict.rootCause;
    ordered_json j;
    j["symptom"] = rc.symptom;
    j["symptom_id"] = rc.symptomId;
    j["node"] = optionalString(rc.node);
    j["gpu"] = optionalInt(rc.gpu);
    j["rank"] = optionalInt(rc.rank);
    j["link"] = optionalString(rc.link);
    j["time"] = optionalString(formatTime(rc.time, r.timeSourceOf(rc.symptomId)));
    j["summary"] = rc.summary;
    j["rule"] = rc.rule;
    ordered_json evidence = nullptr;
    if (const Observation* o = r.observation(rc.decisiveObservation)) {
        evidence = {{"file", o->source.file < r.files.size() ? r.files[o->source.file].path : std::string()},
                    {"line", o->source.line},
                    {"text", o->text}};
    }
    j["decisive_evidence"] = evidence;
    return j;
}

}  // namespace

ordered_json verdictToJson(const AnalysisResult& r)
{
    const Verdict& v = r.verdict;
    ordered_json j;
    j["schema_version"] = VerdictSchemaVersion;
    j["workload"] = {{"id", optionalString(r.context.workloadId)},
                     {"scheduler", r.context.scheduler},
                     {"attempt", r.context.attempt},
                     {"platform", optionalString(r.context.platform)},
                     {"start", optionalString(formatTime(r.context.start))},
                     {"end", optionalString(formatTime(r.context.end))},
                     {"nodes", r.context.nodes}};
    j["terminal_state"] = v.terminalState;
    j["sub_domain"] = v.subDomain;
    j["root_cause"] = rootCauseJson(r);
    ordered_json candidates = ordered_json::array();
    for (const auto& c : v.candidates) {
        candidates.push_back({{"symptom", c.symptom},
                              {"symptom_id", c.symptomId},
                              {"node", optionalString(c.node)},
                              {"gpu", optionalInt(c.gpu)},
                              {"time", optionalString(formatTime(c.time, r.timeSourceOf(c.symptomId)))},
                              {"terminal_state", c.terminalState},
                              {"sub_domain", c.subDomain},
                              {"summary", c.summary},
                              {"separated_by", c.separatedBy}});
    }
    j["candidates"] = candidates;
    j["affected_nodes"] = v.affectedNodes;
    j["recommended_action"] = {{"action", v.action.action}, {"target", v.action.target}, {"why", v.action.why}};
    j["explanation"] = v.explanation;
    if (!v.leads.empty()) {  // only an unknown verdict has leads; the key is absent otherwise
        ordered_json leads = ordered_json::array();
        for (const auto& lead : v.leads)
            leads.push_back({{"file", lead.file}, {"line", lead.line}, {"text", lead.text}});
        j["leads"] = leads;
    }
    ordered_json symptoms = ordered_json::array();
    for (const auto& s : r.symptoms)
        symptoms.push_back(symptomJson(r, s));
    j["symptoms"] = symptoms;
    j["coverage"] = coverageJson(r);
    ordered_json offsets = ordered_json::array();
    for (const auto& o : r.clockOffsets)
        offsets.push_back({{"node", o.node},
                           {"offset_ms", static_cast<double>(o.offset) / 1e6},
                           {"uncertainty_ms", static_cast<double>(o.uncertainty) / 1e6},
                           {"anchor", o.anchor},
                           {"applied", o.applied}});
    j["clock_offsets"] = offsets;
    j["engine"] = {{"version", r.engine.version},
                   {"catalog_version", r.engine.catalogVersion},
                   {"catalog_hash", r.engine.catalogHash}};
    return j;
}

ordered_json traceToJson(const std::vector<TraceStep>& trace)
{
    ordered_json list = ordered_json::array();
    for (const auto& s : trace) {
        ordered_json j;
        j["index"] = s.index;
        j["phase"] = toString(s.phase);
        j["rule"] = s.rule;
        j["action"] = toString(s.action);
        j["fired"] = s.fired;
        j["summary"] = s.summary;
        j["node"] = optionalString(s.node);
        j["gpu"] = optionalInt(s.gpu);
        j["window"] = {{"start", optionalString(formatTime(s.windowStart))},
                       {"end", optionalString(formatTime(s.windowEnd))}};
        ordered_json details = ordered_json::object();
        for (const auto& [k, v] : s.details)
            details[k] = v;
        j["details"] = details;
        j["events"] = s.events;
        ordered_json changes = ordered_json::array();
        for (const auto& c : s.changes)
            changes.push_back({{"kind", toString(c.kind)},
                               {"symptom", c.symptom},
                               {"from", toString(c.from)},
                               {"to", toString(c.to)},
                               {"reason", c.reason}});
        j["changes"] = changes;
        list.push_back(std::move(j));
    }
    return list;
}

std::string dumpJson(const ordered_json& json)
{
    std::ostringstream out;
    writeJson(out, json);
    return std::move(out).str();
}

void writeJson(std::ostream& out, const ordered_json& json)
{
    // basic_json::dump(2, ' ', false, replace) into the stream: no string the size of the whole text.
    nlohmann::detail::serializer<ordered_json> serializer(nlohmann::detail::output_adapter<char>(out), ' ',
                                                          nlohmann::json::error_handler_t::replace);
    serializer.dump(json, true, false, 2);
    out << '\n';
}

}  // namespace attrib::engine
