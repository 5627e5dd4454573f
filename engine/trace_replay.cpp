// SPDX-License-Identifier: GPL-3.0-or-later
// Trace replay: per-symptom status histories built once from the recorded changes, queried per step.
#include "engine/trace_replay.h"
#include "engine/number.h"

#include "engine/catalog.h"

#include <algorithm>
#include <map>

namespace attrib::engine {

const char* toString(StepChange change)
{
    switch (change) {
    case StepChange::None: return "";
    case StepChange::Added: return "added";
    case StepChange::Demoted: return "demoted";
    case StepChange::Promoted: return "promoted";
    case StepChange::Scrubbed: return "scrubbed";
    case StepChange::Updated: return "updated";
    }
    return "";
}

const char* toString(Breakpoint::Kind kind)
{
    switch (kind) {
    case Breakpoint::Kind::Rule: return "rule";
    case Breakpoint::Kind::Symptom: return "symptom";
    case Breakpoint::Kind::Node: return "node";
    }
    return "rule";
}

std::optional<Breakpoint::Kind> breakpointKindFromString(const std::string& name)
{
    if (name == "rule")
        return Breakpoint::Kind::Rule;
    if (name == "symptom")
        return Breakpoint::Kind::Symptom;
    if (name == "node")
        return Breakpoint::Kind::Node;
    return std::nullopt;
}

void splitSymptomId(const std::string& id, std::string& name, std::string& node, int& gpu)
{
    const auto at = id.find('@');
    name = id.substr(0, at);
    node.clear();
    gpu = -1;
    if (at == std::string::npos)
        return;
    std::string rest = id.substr(at + 1);
    const auto slash = rest.rfind("/gpu");
    if (slash != std::string::npos) {
        if (const auto index = parseIntegerIn<int>(std::string_view(rest).substr(slash + 4), 0, INT32_MAX)) {
            gpu = *index;
            rest = rest.substr(0, slash);
        }
    }
    node = rest == "job" ? std::string() : rest;
}

TraceReplay::TraceReplay(AnalysisSnapshot result)
    : m_result(std::move(result))
{
    index();
}

std::string TraceReplay::causeOf(const TraceStep& step, const SymptomChange& change) const
{
    if (auto it = step.details.find("cause"); it != step.details.end())
        return it->second;
    if (change.kind != SymptomChange::Kind::Demoted && change.kind != SymptomChange::Kind::Scrubbed)
        return {};
    // Priority demotions name their leader only in the final symptom: use it when this step set that status.
    const Symptom* final = m_result->symptom(change.symptom);
    return final && final->statusRule == step.rule && final->status == change.to ? final->causedBy : std::string();
}

void TraceReplay::index()
{
    std::map<std::string, History> byId;
    const auto& trace = m_result->trace;
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const TraceStep& step = trace[i];
        for (const auto& change : step.changes) {
            History& h = byId[change.symptom];
            if (h.base.id.empty()) {
                h.base.id = change.symptom;
                if (const Symptom* s = m_result->symptom(change.symptom)) {
                    h.base.name = s->name;
                    h.base.domain = s->domain;
                    h.base.node = s->node;
                    h.base.gpu = s->gpu;
                    h.base.firstSeen = s->firstSeen;
                    h.base.timeSource = s->timeSource;
                } else {
                    splitSymptomId(change.symptom, h.base.name, h.base.node, h.base.gpu);
                }
            }
            h.entries.push_back(
                {i, change.to, change.kind, step.rule, change.reason, causeOf(step, change), step.phase});
        }
    }
    m_stepSymptoms.assign(trace.size(), {});
    for (auto& [id, history] : byId) {
        const std::size_t slot = m_histories.size();
        for (const auto& e : history.entries) {
            auto& touched = m_stepSymptoms[e.step];
            if (touched.empty() || touched.back() != slot)
                touched.push_back(slot);
        }
        m_histories.emplace_back(id, std::move(history));
    }
}

const TraceReplay::Entry* TraceReplay::entryAt(const History& history, std::size_t index) const
{
    if (index == NoStep)
        return nullptr;
    auto it = std::upper_bound(history.entries.begin(), history.entries.end(), index,
                               [](std::size_t v, const Entry& e) { return v < e.step; });
    return it == history.entries.begin() ? nullptr : &*std::prev(it);
}

SymptomState TraceReplay::stateOf(const History& history, std::size_t index) const
{
    const Entry* e = entryAt(history, index);
    SymptomState s = history.base;
    s.status = e->status;
    s.rule = e->rule;
    s.reason = e->reason;
    s.causedBy = e->causedBy;
    s.phase = e->phase;
    s.setAt = e->step;
    s.untouched = e == &history.entries.front();
    if (e->step != index)
        return s;
    const Entry* before = index == 0 ? nullptr : entryAt(history, index - 1);
    if (!before)
        s.change = StepChange::Added;
    else if (before->status == e->status)
        s.change = StepChange::Updated;
    else if (e->status == SymptomStatus::Demoted)
        s.change = StepChange::Demoted;
    else if (e->status == SymptomStatus::Scrubbed)
        s.change = StepChange::Scrubbed;
    else
        s.change = StepChange::Promoted;
    return s;
}

std::vector<SymptomState> TraceReplay::stateAt(std::size_t index, const CancelFlag* cancel) const
{
    constexpr std::size_t PollEvery = 1024;  // symptoms between two looks at the cancel flag
    std::vector<SymptomState> out;
    for (std::size_t i = 0; i < m_histories.size(); ++i) {
        if (cancel && i % PollEvery == 0 && cancel->load(std::memory_order_relaxed))
            break;
        const History& history = m_histories[i].second;
        if (entryAt(history, index))
            out.push_back(stateOf(history, index));
    }
    return out;
}

std::vector<SymptomState> TraceReplay::changesAt(std::size_t index) const
{
    std::vector<SymptomState> out;
    if (index >= m_stepSymptoms.size())
        return out;
    for (std::size_t slot : m_stepSymptoms[index]) {
        SymptomState s = stateOf(m_histories[slot].second, index);
        if (s.change != StepChange::None)
            out.push_back(std::move(s));
    }
    return out;
}

std::optional<SymptomState> TraceReplay::symptomAt(const std::string& id, std::size_t index) const
{
    auto it = std::lower_bound(m_histories.begin(), m_histories.end(), id,
                               [](const auto& h, const std::string& v) { return h.first < v; });
    if (it == m_histories.end() || it->first != id || !entryAt(it->second, index))
        return std::nullopt;
    return stateOf(it->second, index);
}

bool TraceReplay::hits(std::size_t index, const Breakpoint& bp) const
{
    const TraceStep& step = m_result->trace.at(index);
    const auto symptomMatches = [&](const std::string& id) {
        std::string name, node;
        int gpu = -1;
        splitSymptomId(id, name, node, gpu);
        if (bp.kind == Breakpoint::Kind::Node)
            return !node.empty() && globMatch(bp.pattern, node);
        return globMatch(bp.pattern, id) || globMatch(bp.pattern, name);
    };
    switch (bp.kind) {
    case Breakpoint::Kind::Rule: return globMatch(bp.pattern, step.rule);
    case Breakpoint::Kind::Node:
        if (!step.node.empty() && globMatch(bp.pattern, step.node))
            return true;
        break;
    case Breakpoint::Kind::Symptom: break;
    }
    for (const auto& change : step.changes)
        if (symptomMatches(change.symptom))
            return true;
    // Non-firing evaluations touch no symptom but name the ones they looked at.
    for (const char* key : {"target", "cause"})
        if (auto it = step.details.find(key);
            it != step.details.end() && bp.kind == Breakpoint::Kind::Symptom && symptomMatches(it->second))
            return true;
    return false;
}

std::optional<std::size_t> TraceReplay::nextBreak(std::size_t from, const std::vector<Breakpoint>& bps) const
{
    const std::size_t start = from == NoStep ? 0 : from + 1;
    for (std::size_t i = start; i < stepCount(); ++i)
        for (const auto& bp : bps)
            if (bp.enabled && hits(i, bp))
                return i;
    return std::nullopt;
}

std::optional<std::size_t> TraceReplay::previousBreak(std::size_t from, const std::vector<Breakpoint>& bps) const
{
    std::size_t i = from == NoStep ? 0 : std::min(from, stepCount());
    while (i-- > 0)
        for (const auto& bp : bps)
            if (bp.enabled && hits(i, bp))
                return i;
    return std::nullopt;
}

std::optional<std::size_t> TraceReplay::firstStepOfPhase(TracePhase phase) const
{
    const auto& trace = m_result->trace;
    for (std::size_t i = 0; i < trace.size(); ++i)
        if (trace[i].phase == phase)
            return i;
    return std::nullopt;
}

std::optional<std::size_t> TraceReplay::statusStep(const std::string& id, std::size_t asOf) const
{
    const auto s = symptomAt(id, asOf == NoStep ? (stepCount() == 0 ? NoStep : stepCount() - 1) : asOf);
    if (!s)
        return std::nullopt;
    return s->setAt;
}

AnalysisSnapshot TraceReplay::resultAt(std::size_t index) const
{
    auto copy = std::make_shared<AnalysisResult>(*m_result);
    std::vector<Symptom> kept;
    for (auto& s : copy->symptoms) {
        const auto state = symptomAt(s.id, index);
        if (!state)
            continue;
        s.status = state->status;
        const bool untouched = state->untouched;
        s.statusRule = untouched ? std::string() : state->rule;
        s.statusReason = untouched ? std::string() : state->reason;
        s.causedBy = state->causedBy;
        s.interesting = state->status != SymptomStatus::Active;
        kept.push_back(std::move(s));
    }
    copy->symptoms = std::move(kept);
    const auto outcome = firstStepOfPhase(TracePhase::Outcome);
    if (!outcome || index == NoStep || index < *outcome) {
        copy->verdict = Verdict{};
        copy->verdict.explanation = "State after step " + std::to_string(index == NoStep ? 0 : index + 1) + " of " +
            std::to_string(stepCount()) + ": the outcome has not been mapped yet.";
    }
    return copy;
}

}  // namespace attrib::engine
