// SPDX-License-Identifier: GPL-3.0-or-later
// Phases 4-6: early rules, per-node symptoms, per-node scrub, job-wide merge.
#include "engine/event_pack.h"
#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"
#include "engine/refine_eval.h"

#include <algorithm>
#include <set>

namespace attrib::engine {

void changeStatus(Symptom& s, SymptomStatus to, TraceStep step, const std::string& reason, const std::string& cause,
                  TraceSink& trace)
{
    step.node = s.node;
    step.gpu = s.gpu;
    if (step.summary.empty())
        step.summary = s.id + " " + toString(to) + ": " + reason;
    const auto kind = to == SymptomStatus::Scrubbed ? SymptomChange::Kind::Scrubbed
        : to == SymptomStatus::Demoted              ? SymptomChange::Kind::Demoted
                                                    : SymptomChange::Kind::Promoted;
    step.changes.push_back({kind, s.id, s.status, to, reason});
    s.statusRule = step.rule;
    trace.record(std::move(step));
    s.status = to;
    s.statusReason = reason;
    s.causedBy = cause;
    s.interesting = to != SymptomStatus::Active;
}

std::string symptomIdFor(const std::string& name, const std::string& node, int gpu)
{
    std::string id = name + "@" + (node.empty() ? std::string("job") : node);
    if (gpu >= 0)
        id += "/gpu" + std::to_string(gpu);
    return id;
}

namespace {

TimeNs attrMs(const AttrMap& attrs, const std::string& key)
{
    auto it = attrs.find(key);
    return it == attrs.end() ? 0 : durationMs(it->second).value_or(0) * NsPerMs;
}

bool confident(TimeSource s)
{
    return s == TimeSource::Absolute || s == TimeSource::YearInferred;
}

void absorb(Symptom& s, const Event& e)
{
    if (s.count == 0) {
        s.attrs = e.attrs;
        s.rank = e.rank;
        s.link = e.link;
        s.sympathetic = e.sympathetic;
        s.timeSource = e.timeSource;
    } else {
        s.sympathetic = s.sympathetic && e.sympathetic;
        if (e.rank >= 0 && e.rank != s.rank) {
            std::string& ranks = s.attrs["ranks"];
            if (ranks.empty() && s.rank >= 0)
                ranks = std::to_string(s.rank);
            ranks += (ranks.empty() ? "" : ",") + std::to_string(e.rank);
        }
    }
    // A line without its own stamp inherits the previous line's time, which is only a lower bound:
    // such times count only while no event of the symptom has a stamp of its own.
    const bool better = confident(e.timeSource) && !confident(s.timeSource);
    const bool comparable = confident(e.timeSource) == confident(s.timeSource);
    if (e.time != NoTime && (better || s.firstSeen == NoTime || (comparable && e.time < s.firstSeen))) {
        s.firstSeen = e.time;
        if (better || s.count == 0)
            s.lastSeen = e.time;
    }
    if (better)
        s.timeSource = e.timeSource;
    if (e.time != NoTime && (comparable || better) && (s.lastSeen == NoTime || e.time > s.lastSeen))
        s.lastSeen = e.time;
    // A folded event stands for its repeats too (a storm's lines, counted but not kept).
    const std::uint64_t count = std::uint64_t{s.count} + 1 + e.folded;
    s.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, UINT32_MAX));
    s.events.push_back(e.id);
    s.evidence.insert(s.evidence.end(), e.observations.begin(), e.observations.end());
}

}  // namespace

namespace {

bool eventBefore(const Event& a, const Event& b)
{
    const TimeNs ta = a.time == NoTime ? INT64_MAX : a.time;
    const TimeNs tb = b.time == NoTime ? INT64_MAX : b.time;
    if (ta != tb)
        return ta < tb;
    if (a.node != b.node)
        return a.node < b.node;
    const auto oa = a.observations.empty() ? 0 : a.observations.front();
    const auto ob = b.observations.empty() ? 0 : b.observations.front();
    if (oa != ob)
        return oa < ob;
    return a.type < b.type;
}

/// Puts events[order[i]] at position i by following the permutation's cycles: one event is held aside per
/// cycle, so no second vector of events is needed. `order` is consumed.
void permuteInPlace(std::vector<Event>& events, std::vector<std::uint32_t>& order)
{
    constexpr std::uint32_t Done = UINT32_MAX;
    for (std::uint32_t start = 0; start < order.size(); ++start) {
        if (order[start] == Done || order[start] == start) {
            order[start] = Done;
            continue;
        }
        Event held = std::move(events[start]);
        std::uint32_t at = start;
        while (order[at] != start) {
            const std::uint32_t from = order[at];
            events[at] = std::move(events[from]);
            order[at] = Done;
            at = from;
        }
        events[at] = std::move(held);
        order[at] = Done;
    }
}

}  // namespace

EventRenumbering sortAndNumberEvents(std::vector<Event>& events)
{
    // Most phases keep the order: check before paying for a sort. Sort an index permutation, not the
    // (large) events themselves, then move each event once.
    if (!std::is_sorted(events.begin(), events.end(), eventBefore)) {
        std::vector<std::uint32_t> order(events.size());
        for (std::uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return eventBefore(events[a], events[b]); });
        permuteInPlace(events, order);
    }
    // A rule that copies an event leaves two with one id; steps recorded under it name the first in order.
    EventRenumbering ids;
    ids.reserve(events.size());
    std::uint64_t id = 1;
    for (auto& e : events) {
        if (e.id != 0)
            ids.emplace(e.id, id);
        e.id = id++;
    }
    return ids;
}

void renumberStepEvents(std::vector<TraceStep>& steps, const EventRenumbering& ids)
{
    for (auto& step : steps) {
        std::size_t kept = 0;
        for (const auto id : step.events)
            if (const auto it = ids.find(id); it != ids.end())
                step.events[kept++] = it->second;
        step.events.resize(kept);
    }
}

std::vector<Event> runEarlyRules(const Catalog& catalog, std::vector<Event> events, ExecutionContext& context,
                                 TraceSink& trace, const std::string& onlyRule)
{
    std::vector<TraceStep> held;
    events = runEarlyRules(catalog, std::move(events), context, held, onlyRule);
    for (auto& step : held)
        trace.record(std::move(step));
    return events;
}

namespace {

/// Runs one early rule over `events` (moved into the rule); its steps go to `steps`. Returns false when the rule
/// threw (a config value of the wrong type): `events` is lost then, and an error step is added.
bool applyEarlyRule(const CodeRuleEntry& entry, const Catalog& catalog, std::vector<Event>& events,
                    ExecutionContext& context, std::vector<TraceStep>& steps)
{
    Trace trace;
    bool ok = true;
    try {
        events = entry.rule->run(std::move(events), context, catalog, trace);
    } catch (const std::exception& e) {
        ok = false;
        TraceStep step;
        step.phase = TracePhase::Early;
        step.rule = entry.id;
        step.action = TraceAction::Error;
        step.fired = false;
        step.summary = std::string("rule failed and was skipped: ") + e.what();
        trace.record(std::move(step));
    }
    for (auto& step : trace.take()) {
        if (step.rule == entry.rule->id())
            step.rule = entry.id;  // one implementation, several catalog entries: the step names its entry
        steps.push_back(std::move(step));
    }
    return ok;
}

/// Rebuilds the input of rule `upTo` after a rule failed: the phase's input again, then every earlier rule
/// that did not fail (deterministic, so their steps, already held, are not recorded twice).
void replayEarlyRules(const std::vector<const CodeRuleEntry*>& rules, std::size_t upTo,
                      const std::set<std::size_t>& failed, const Catalog& catalog, std::vector<Event>& events,
                      ExecutionContext& context)
{
    for (std::size_t k = 0; k < upTo; ++k) {
        std::vector<TraceStep> ignored;
        if (!failed.count(k) && applyEarlyRule(*rules[k], catalog, events, context, ignored))
            sortAndNumberEvents(events);
    }
}

}  // namespace

std::vector<Event> runEarlyRules(const Catalog& catalog, std::vector<Event> events, ExecutionContext& context,
                                 std::vector<TraceStep>& held, const std::string& onlyRule)
{
    std::vector<const CodeRuleEntry*> rules;
    for (const auto& entry : catalog.codeRules())
        if (entry.phase == TracePhase::Early && (onlyRule.empty() || entry.id == onlyRule))
            rules.push_back(&entry);
    std::stable_sort(rules.begin(), rules.end(), [](auto* a, auto* b) { return a->order < b->order; });
    // A rule that throws changes nothing. One copy of the phase's input (not one per rule) makes that possible:
    // after a failure the input of the failed rule is rebuilt from it by replaying the rules before. The copy
    // is packed (engine/event_pack.h): held as live events it was the largest item of the memory peak.
    const PackedEvents input = rules.empty() ? PackedEvents() : PackedEvents(events);
    // No early rule reads the files' runs of observation ids (a run per file: thousands on a large job), so the
    // guard's copy of the context leaves them out; they are put back after the last rule.
    std::vector<FileRun> fileRuns = std::move(context.fileRuns);
    context.fileRuns.clear();
    const ExecutionContext inputContext = context;
    std::set<std::size_t> failed;
    for (std::size_t k = 0; k < rules.size(); ++k) {
        // The rule's steps name events by the ids of the moment: hold every step until the last renumbering.
        if (!applyEarlyRule(*rules[k], catalog, events, context, held)) {
            failed.insert(k);
            events = input.unpack();
            context = inputContext;
            replayEarlyRules(rules, k, failed, catalog, events, context);
        }
        renumberStepEvents(held, sortAndNumberEvents(events));
    }
    context.fileRuns = std::move(fileRuns);
    return events;
}

std::vector<Symptom> buildNodeSymptoms(const Catalog& catalog, const std::vector<Event>& events, TraceSink& trace)
{
    std::map<std::string, Symptom> byId;
    for (const auto& e : events) {
        if (e.symptom.empty())
            continue;
        const SymptomDef* def = catalog.symptom(e.symptom);
        if (!def) {
            TraceStep step;
            step.phase = TracePhase::Symptoms;
            step.rule = e.rule;
            step.action = TraceAction::Unregistered;
            step.fired = false;
            step.summary = "event names symptom '" + e.symptom + "' which is not registered; ignored";
            step.events = {e.id};
            trace.record(std::move(step));
            continue;
        }
        const std::string id = symptomIdFor(def->name, e.node, e.gpu);
        Symptom& s = byId[id];
        if (s.count == 0) {
            s.id = id;
            s.name = def->name;
            s.domain = def->domain;
            s.priority = def->priority;
            s.node = e.node;
            s.gpu = e.gpu;
        }
        absorb(s, e);
    }
    std::vector<Symptom> out;
    for (auto& [id, s] : byId) {
        const SymptomDef* def = catalog.symptom(s.name);
        s.origin = s.firstSeen;
        if (def && !def->originAttr.empty() && s.firstSeen != NoTime)
            s.origin = s.firstSeen - attrMs(s.attrs, def->originAttr);
        std::sort(s.evidence.begin(), s.evidence.end());
        s.evidence.erase(std::unique(s.evidence.begin(), s.evidence.end()), s.evidence.end());
        TraceStep step;
        step.phase = TracePhase::Symptoms;
        step.rule = "BuildNodeSymptoms";
        step.action = TraceAction::Add;
        step.node = s.node;
        step.gpu = s.gpu;
        step.summary =
            s.id + ": " + std::to_string(s.count) + " event(s), first at " + formatTime(s.firstSeen, s.timeSource);
        step.events = s.events;
        step.changes.push_back({SymptomChange::Kind::Added, s.id, SymptomStatus::Active, SymptomStatus::Active,
                                "raised by " + std::to_string(s.count) + " event(s)"});
        trace.record(std::move(step));
        out.push_back(std::move(s));
    }
    return out;
}

namespace {

void scrub(Symptom& s, const std::string& rule, const std::string& reason, const std::string& cause, TraceSink& trace,
           TraceAction action)
{
    TraceStep step;
    step.phase = TracePhase::Scrub;
    step.rule = rule;
    step.action = action;
    step.details["cause"] = cause;
    changeStatus(s, SymptomStatus::Scrubbed, std::move(step), reason, cause, trace);
}

/// Sympathetic follow-ups (Xid 45, 154, ...) whose primary symptom exists on the same node.
void scrubSympathetic(std::vector<Symptom>& nodeSymptoms, TraceSink& trace)
{
    for (auto& s : nodeSymptoms) {
        if (!s.sympathetic || s.status != SymptomStatus::Active)
            continue;
        auto follows = s.attrs.find("follows");
        if (follows == s.attrs.end())
            continue;
        auto primary = std::find_if(nodeSymptoms.begin(), nodeSymptoms.end(),
                                    [&](const Symptom& p) { return p.id == follows->second; });
        if (primary == nodeSymptoms.end() || primary->status == SymptomStatus::Scrubbed)
            continue;
        scrub(s, "ScrubSympatheticEvents", "sympathetic follow-up of " + primary->id, primary->id, trace,
              TraceAction::Sympathetic);
    }
}

/// Symptoms a registered symptom supersedes on the same node.
void scrubSuperseded(const Catalog& catalog, std::vector<Symptom>& nodeSymptoms, TraceSink& trace)
{
    for (const auto& s : nodeSymptoms) {
        const SymptomDef* def = catalog.symptom(s.name);
        if (!def || def->supersedes.empty() || s.status == SymptomStatus::Scrubbed)
            continue;
        for (auto& other : nodeSymptoms) {
            if (&other == &s || other.status != SymptomStatus::Active || !anyGlobMatch(def->supersedes, other.name))
                continue;
            if (s.gpu >= 0 && other.gpu >= 0 && s.gpu != other.gpu)
                continue;
            scrub(other, "ScrubSuperseded", "superseded by " + s.id + " on the same node", s.id, trace,
                  TraceAction::Superseded);
        }
    }
}

}  // namespace

std::vector<Symptom> scrubNodeSymptoms(const Catalog& catalog, std::vector<Symptom> symptoms, TraceSink& trace,
                                       const std::string& onlyRule)
{
    std::stable_sort(symptoms.begin(), symptoms.end(), [](const Symptom& a, const Symptom& b) {
        return std::tie(a.node, a.id) < std::tie(b.node, b.id);
    });
    std::vector<Symptom> out;
    auto begin = symptoms.begin();
    while (begin != symptoms.end()) {
        auto end = std::find_if(begin, symptoms.end(), [&](const Symptom& s) { return s.node != begin->node; });
        std::vector<Symptom> node(std::make_move_iterator(begin), std::make_move_iterator(end));
        if (onlyRule.empty()) {
            scrubSympathetic(node, trace);
            scrubSuperseded(catalog, node, trace);
        }
        for (const auto& rule : catalog.refineRules())
            if (rule.phase == TracePhase::Scrub && (onlyRule.empty() || rule.id == onlyRule))
                applyRefineRule(catalog, rule, node, trace);
        out.insert(out.end(), std::make_move_iterator(node.begin()), std::make_move_iterator(node.end()));
        begin = end;
    }
    return out;
}

std::vector<Symptom> mergeSymptoms(std::vector<Symptom> symptoms, TraceSink& trace)
{
    std::map<std::string, Symptom> merged;
    std::set<std::string> nodes;
    for (auto& s : symptoms) {
        nodes.insert(s.node);
        auto [it, inserted] = merged.emplace(s.id, s);
        if (inserted)
            continue;
        Symptom& m = it->second;
        m.count += s.count;
        m.firstSeen = std::min(m.firstSeen, s.firstSeen);
        m.lastSeen = std::max(m.lastSeen, s.lastSeen);
        m.origin = std::min(m.origin, s.origin);
        m.events.insert(m.events.end(), s.events.begin(), s.events.end());
        m.evidence.insert(m.evidence.end(), s.evidence.begin(), s.evidence.end());
    }
    std::vector<Symptom> out;
    out.reserve(merged.size());
    for (auto& [id, s] : merged)
        out.push_back(std::move(s));
    TraceStep step;
    step.phase = TracePhase::Merge;
    step.rule = "MergeJobSymptoms";
    step.action = TraceAction::Merge;
    step.summary = std::to_string(out.size()) + " symptom(s) from " + std::to_string(nodes.size()) + " node(s)";
    trace.record(std::move(step));
    return out;
}

std::string shownNode(const Symptom& s)
{
    if (!s.node.empty() || s.attrs.count("first_node") == 0)
        return s.node;
    const auto nodes = s.attrs.find("nodes");
    return nodes == s.attrs.end() ? std::string() : nodes->second;
}

AttrMap templateValues(const Symptom& s)
{
    AttrMap v = s.attrs;
    v["node"] = shownNode(s);
    v["name"] = s.name;
    v["id"] = s.id;
    v["domain"] = s.domain;
    v["gpu"] = s.gpu >= 0 ? std::to_string(s.gpu) : std::string();
    v["rank"] = s.rank >= 0 ? std::to_string(s.rank) : std::string();
    if (!s.link.empty())
        v["link"] = s.link;
    v["time"] = formatTime(s.firstSeen, s.timeSource);
    v["count"] = std::to_string(s.count);
    return v;
}

}  // namespace attrib::engine
