// SPDX-License-Identifier: GPL-3.0-or-later
// Why / why-not answers from the recorded trace, and the rules that looked at an evidence line.
#include "engine/trace_why.h"
#include "engine/lazy_regex.h"

#include <re2/re2.h>

#include "engine/catalog.h"
#include "engine/extractor.h"

#include <algorithm>
#include <set>

namespace attrib::engine {

namespace {

std::string stepRef(const TraceStep& step)
{
    return "step " + std::to_string(step.index) + " (" + toString(step.phase) +
        (step.rule.empty() ? "" : ", " + step.rule) + ")";
}

std::string rootCauseClause(const TraceReplay& replay, const std::string& id)
{
    const auto& v = replay.result().verdict;
    const auto outcome = replay.firstStepOfPhase(TracePhase::Outcome);
    if (v.rootCause && v.rootCause->symptomId == id)
        return "; " + v.rootCause->rule + " ranked it first and " +
            (outcome ? "step " + std::to_string(*outcome) : std::string("the outcome")) + " chose it as the root cause";
    for (const auto& c : v.candidates)
        if (c.symptomId == id)
            return "; it is one of the ambiguous candidates";
    return {};
}

}  // namespace

WhyStatus whyStatus(const TraceReplay& replay, const std::string& symptomId, std::size_t asOf)
{
    WhyStatus why;
    why.symptom = symptomId;
    const std::size_t at = asOf != TraceReplay::NoStep ? asOf : replay.stepCount() - 1;
    const auto state = replay.stepCount() == 0 ? std::nullopt : replay.symptomAt(symptomId, at);
    if (!state) {
        why.sentence = symptomId + " does not appear in the trace up to this step.";
        return why;
    }
    why.status = state->status;
    why.step = state->setAt;
    const TraceStep& step = replay.step(state->setAt);
    const std::string because = state->causedBy.empty() ? ": " : " because " + state->causedBy + " explains it: ";
    switch (state->status) {
    case SymptomStatus::Demoted:
        why.sentence = symptomId + " was demoted at " + stepRef(step) + because + state->reason + ".";
        break;
    case SymptomStatus::Scrubbed:
        why.sentence = symptomId + " was scrubbed at " + stepRef(step) + because + state->reason + ".";
        break;
    case SymptomStatus::Active: {
        const auto then = replay.symptomAt(symptomId, state->setAt);
        const bool promoted = then && then->change == StepChange::Promoted;
        why.sentence = promoted ? symptomId + " was promoted back to active at " + stepRef(step) + ": " + state->reason
                                : symptomId + " is active: " + stepRef(step) + " raised it (" + state->reason +
                ") and no later rule demoted or scrubbed it";
        why.sentence += (asOf == TraceReplay::NoStep ? rootCauseClause(replay, symptomId) : std::string()) + ".";
        break;
    }
    }
    return why;
}

std::vector<Condition> conditionsOf(const TraceStep& step)
{
    std::vector<Condition> out;
    const auto& d = step.details;
    std::set<std::string> used;
    for (const char* key : {"cause", "target"})
        if (auto it = d.find(key); it != d.end()) {
            out.push_back({key, it->second, std::nullopt});
            used.insert(key);
        }
    for (const auto& [key, value] : d) {
        if (key.size() < 4 || key.compare(key.size() - 3, 3, "_ok") != 0)
            continue;
        const std::string name = key.substr(0, key.size() - 3);
        Condition c{name, d.count(name) ? d.at(name) : std::string(), value == "true"};
        if (name == "window" && d.count("target_origin_minus_cause")) {
            c.value = "target origin " + d.at("target_origin_minus_cause") + " from the cause, allowed " + c.value;
            used.insert("target_origin_minus_cause");
        }
        out.push_back(std::move(c));
        used.insert(key);
        used.insert(name);
    }
    if (auto it = d.find("causes_matched"); it != d.end()) {
        out.push_back({"active cause", it->second + " symptom(s) matched the cause pattern, none active", false});
        used.insert("causes_matched");
    }
    for (const auto& [key, value] : d)
        if (!used.count(key))
            out.push_back({key, value, std::nullopt});
    return out;
}

namespace {

Evaluation toEvaluation(const TraceStep& step)
{
    Evaluation e;
    e.step = step.index;
    if (auto it = step.details.find("target"); it != step.details.end())
        e.target = it->second;
    if (auto it = step.details.find("cause"); it != step.details.end())
        e.cause = it->second;
    e.conditions = conditionsOf(step);
    std::string failed;
    for (const auto& c : e.conditions)
        if (c.holds && !*c.holds)
            failed += (failed.empty() ? "" : "; ") + c.name + " failed (" + c.value + ")";
    e.sentence = "step " + std::to_string(step.index) + ": " + step.summary +
        (failed.empty() ? std::string() : " [" + failed + "]");
    return e;
}

std::string silentRuleSummary(const TraceReplay& replay, const std::string& ruleId, const Catalog* catalog)
{
    if (catalog) {
        for (const auto& x : catalog->extractors()) {
            if (x.id != ruleId)
                continue;
            std::size_t events = 0;
            for (const auto& e : replay.result().events)
                events += e.rule == ruleId;
            if (events > 0)
                return ruleId + " is an extractor; it matched lines that became " + std::to_string(events) +
                    " event(s) (extractors record no trace steps: see the evidence lines).";
            std::string kinds;
            for (auto k : x.sources)
                kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
            return ruleId + " is an extractor and no line of its sources (" + kinds + ") matched its pattern.";
        }
        bool known = false;
        for (const auto& r : catalog->refineRules())
            known = known || r.id == ruleId;
        for (const auto& r : catalog->codeRules())
            known = known || r.id == ruleId;
        for (const auto& t : catalog->priorityTables())
            known = known || t.id == ruleId;
        if (!known)
            return ruleId + " is not in the active catalog (unknown, or left out because an inline case failed).";
    }
    return ruleId +
        " left no step in this trace: it had nothing to evaluate (no symptom of its phase, or not the "
        "priority table of this platform).";
}

}  // namespace

WhyNot whyNot(const TraceReplay& replay, const std::string& ruleId, const Catalog* catalog)
{
    WhyNot why;
    why.rule = ruleId;
    for (std::size_t i = 0; i < replay.stepCount(); ++i) {
        const TraceStep& step = replay.step(i);
        if (step.rule != ruleId)
            continue;
        if (step.fired)
            ++why.firedSteps;
        else
            why.evaluations.push_back(toEvaluation(step));
    }
    if (why.firedSteps == 0 && why.evaluations.empty()) {
        why.summary = silentRuleSummary(replay, ruleId, catalog);
        return why;
    }
    why.summary = ruleId + " fired " + std::to_string(why.firedSteps) + " time(s) and did not fire " +
        std::to_string(why.evaluations.size()) + " time(s)";
    if (!why.evaluations.empty())
        why.summary += "; first: " + why.evaluations.front().sentence;
    why.summary += ".";
    return why;
}

std::vector<LineLook> extractorsThatLookedAt(const Catalog& catalog, SourceKind kind, std::string_view text)
{
    std::vector<LineLook> out;
    for (const auto& rule : catalog.extractors()) {
        if (std::find(rule.sources.begin(), rule.sources.end(), kind) == rule.sources.end())
            continue;
        LineLook look;
        look.rule = rule.id;
        look.phase = TracePhase::Extract;
        look.matched = matchRule(rule, text, look.captures);
        look.summary = look.matched
            ? "matched; emits " + rule.event + (rule.symptom.empty() ? std::string() : " -> " + rule.symptom)
            : rule.re && narrowsPattern(rule) &&
                re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), rule.re->regex())
            ? "pattern matched, but its require, map or exclude ruled the line out"
            : "pattern did not match";
        if (look.matched && rule.context && rule.context->required)
            look.summary += " when a line matching its context came at most " + std::to_string(rule.context->within) +
                " line(s) before";
        if (look.matched && rule.after)
            look.summary += std::string(rule.after->absent ? " unless" : " when") +
                " a line matching its 'after' follows at most " + std::to_string(rule.after->within) + " line(s) later";
        out.push_back(std::move(look));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const LineLook& a, const LineLook& b) { return a.matched > b.matched; });
    return out;
}

namespace {

bool stepUsesSymptom(const TraceStep& step, const std::set<std::string>& symptoms)
{
    for (const auto& c : step.changes)
        if (symptoms.count(c.symptom))
            return true;
    for (const char* key : {"target", "cause"})
        if (auto it = step.details.find(key); it != step.details.end() && symptoms.count(it->second))
            return true;
    return false;
}

bool stepUsesEvent(const TraceStep& step, const std::set<std::uint64_t>& events)
{
    return std::any_of(step.events.begin(), step.events.end(), [&](std::uint64_t id) { return events.count(id); });
}

}  // namespace

std::vector<LineLook> rulesThatLookedAt(const TraceReplay& replay, const Catalog& catalog, std::uint64_t observation)
{
    const AnalysisResult& r = replay.result();
    const Observation* obs = r.observation(observation);
    if (!obs)
        return {};
    std::vector<LineLook> out = extractorsThatLookedAt(catalog, obs->kind, obs->text);
    for (auto& look : out)
        for (std::size_t i = 0; look.matched && !look.step && i < replay.stepCount(); ++i)
            if (replay.step(i).phase == TracePhase::Extract && replay.step(i).rule == look.rule)
                look.step = i;
    std::set<std::uint64_t> events;
    for (const auto& e : r.events)
        if (std::find(e.observations.begin(), e.observations.end(), observation) != e.observations.end())
            events.insert(e.id);
    std::set<std::string> symptoms;
    for (const auto& s : r.symptoms)
        if (std::find(s.evidence.begin(), s.evidence.end(), observation) != s.evidence.end())
            symptoms.insert(s.id);
    for (std::size_t i = 0; i < replay.stepCount(); ++i) {
        const TraceStep& step = replay.step(i);
        if (step.phase == TracePhase::Extract || (!stepUsesEvent(step, events) && !stepUsesSymptom(step, symptoms)))
            continue;
        out.push_back({step.rule, step.phase, step.fired, {}, i, step.summary});
    }
    return out;
}

}  // namespace attrib::engine
