// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict, symptoms and trace of a stored case, back from their JSON.
#include "engine/store/case_result.h"

#include "engine/json_util.h"

#include <nlohmann/json.hpp>

#include <map>

using nlohmann::json;

namespace attrib::store {

namespace {

std::string text(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

int integer(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : -1;
}

engine::TimeNs isoOf(const json& j, const char* key)
{
    const std::string s = text(j, key);
    return s.empty() ? engine::NoTime : engine::parseIsoTime(s);
}

engine::SymptomStatus statusOf(const std::string& s)
{
    return s == "demoted" ? engine::SymptomStatus::Demoted
        : s == "scrubbed" ? engine::SymptomStatus::Scrubbed
                          : engine::SymptomStatus::Active;
}

/// (file path, line) -> observation id, to turn the verdict's evidence references back into ids.
std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> observationsByPlace(const engine::AnalysisResult& r)
{
    std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> out;
    for (const auto& o : r.observations)
        if (o.source.file < r.files.size())
            out.emplace(std::pair(r.files[o.source.file].path, o.source.line), o.id);
    return out;
}

void addSymptoms(engine::AnalysisResult& r, const CaseRecord& record, const json& verdict)
{
    const auto byPlace = observationsByPlace(r);
    std::map<std::string, const json*> fromVerdict;
    if (verdict.contains("symptoms") && verdict["symptoms"].is_array())
        for (const auto& s : verdict["symptoms"])
            fromVerdict[text(s, "id")] = &s;
    for (const auto& y : record.symptoms) {
        engine::Symptom s;
        s.id = y.symptomId;
        s.name = y.name;
        s.domain = y.domain;
        s.node = y.node;
        s.gpu = y.gpu;
        s.firstSeen = y.firstSeen;
        s.lastSeen = y.lastSeen;
        s.origin = y.firstSeen;
        s.count = y.count;
        s.status = statusOf(y.status);
        s.statusRule = y.statusRule;
        s.statusReason = y.statusReason;
        s.interesting = y.interesting;
        s.timeSource = y.firstSeen == engine::NoTime ? engine::TimeSource::None : engine::TimeSource::Absolute;
        if (const auto it = fromVerdict.find(y.symptomId); it != fromVerdict.end()) {
            const json& v = *it->second;
            s.causedBy = text(v, "caused_by");
            if (v.contains("attributes") && v["attributes"].is_object())
                for (const auto& [k, val] : v["attributes"].items())
                    s.attrs[k] = val.is_string() ? val.get<std::string>() : val.dump();
            if (v.contains("evidence") && v["evidence"].is_array())
                for (const auto& e : v["evidence"]) {
                    const auto line = e.contains("line") && e["line"].is_number() ? e["line"].get<std::uint64_t>() : 0;
                    if (const auto o = byPlace.find({text(e, "file"), line}); o != byPlace.end())
                        s.evidence.push_back(o->second);
                }
        }
        r.symptoms.push_back(std::move(s));
    }
}

void addVerdict(engine::AnalysisResult& r, const json& v)
{
    engine::Verdict& out = r.verdict;
    out.terminalState = text(v, "terminal_state").empty() ? "unknown" : text(v, "terminal_state");
    out.subDomain = text(v, "sub_domain").empty() ? "unknown" : text(v, "sub_domain");
    if (v.contains("root_cause") && v["root_cause"].is_object()) {
        const json& rc = v["root_cause"];
        engine::RootCause c{
            text(rc, "symptom_id"), text(rc, "symptom"), text(rc, "node"),    integer(rc, "gpu"), integer(rc, "rank"),
            text(rc, "link"),       isoOf(rc, "time"),   text(rc, "summary"), text(rc, "rule"),   0};
        if (rc.contains("decisive_evidence") && rc["decisive_evidence"].is_object()) {
            const auto& d = rc["decisive_evidence"];
            const auto line = d.contains("line") && d["line"].is_number() ? d["line"].get<std::uint64_t>() : 0;
            const auto byPlace = observationsByPlace(r);
            if (const auto o = byPlace.find({text(d, "file"), line}); o != byPlace.end())
                c.decisiveObservation = o->second;
        }
        out.rootCause = c;
    }
    if (v.contains("candidates") && v["candidates"].is_array())
        for (const auto& c : v["candidates"])
            out.candidates.push_back({text(c, "symptom_id"), text(c, "symptom"), text(c, "node"), integer(c, "gpu"),
                                      isoOf(c, "time"), text(c, "terminal_state"), text(c, "sub_domain"),
                                      text(c, "summary"), text(c, "separated_by")});
    out.affectedNodes = engine::stringsAt(v, "affected_nodes");
    if (v.contains("recommended_action"))
        out.action = {text(v["recommended_action"], "action"), text(v["recommended_action"], "target"),
                      text(v["recommended_action"], "why")};
    out.explanation = text(v, "explanation");
}

}  // namespace

void addVerdictAndSymptoms(engine::AnalysisResult& r, const CaseRecord& record)
{
    const json v = json::parse(record.verdictJson, nullptr, false);
    if (!v.is_object())
        return;
    addSymptoms(r, record, v);
    addVerdict(r, v);
}

void addStandInEvents(engine::AnalysisResult& r)
{
    for (auto& s : r.symptoms) {  // one event per symptom, for cases saved before events were kept
        engine::Event ev;
        ev.id = r.events.size() + 1;
        ev.type = "stored";
        ev.rule = s.statusRule;
        ev.symptom = s.name;
        ev.node = s.node;
        ev.gpu = s.gpu;
        ev.time = s.firstSeen;
        ev.timeSource = s.timeSource;
        ev.observations = s.evidence;
        s.events = {ev.id};
        r.events.push_back(std::move(ev));
    }
}

std::vector<engine::TraceStep> traceOf(const std::string& traceJson)
{
    std::vector<engine::TraceStep> out;
    const json j = json::parse(traceJson, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& s : j) {
        if (!s.is_object())
            continue;
        engine::TraceStep t;
        t.index = static_cast<std::uint32_t>(out.size());
        t.phase = engine::tracePhaseFrom(text(s, "phase")).value_or(engine::TracePhase::Unknown);
        t.rule = text(s, "rule");
        t.action = engine::traceActionFrom(text(s, "action")).value_or(engine::TraceAction::Unknown);
        t.fired = !s.contains("fired") || !s["fired"].is_boolean() || s["fired"].get<bool>();
        t.summary = text(s, "summary");
        t.node = text(s, "node");
        t.gpu = integer(s, "gpu");
        if (s.contains("window")) {
            t.windowStart = isoOf(s["window"], "start");
            t.windowEnd = isoOf(s["window"], "end");
        }
        if (s.contains("details") && s["details"].is_object())
            for (const auto& [k, val] : s["details"].items())
                t.details[k] = val.is_string() ? val.get<std::string>() : val.dump();
        if (s.contains("changes") && s["changes"].is_array())
            for (const auto& c : s["changes"]) {
                engine::SymptomChange ch;
                ch.kind = engine::changeKindFrom(text(c, "kind")).value_or(engine::SymptomChange::Kind::Added);
                ch.symptom = text(c, "symptom");
                ch.from = statusOf(text(c, "from"));
                ch.to = statusOf(text(c, "to"));
                ch.reason = text(c, "reason");
                t.changes.push_back(std::move(ch));
            }
        out.push_back(std::move(t));
    }
    return out;
}

}  // namespace attrib::store
