// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline phases of BRIEF §4 after extraction, each a plain function over its inputs that
// returns new values and reports its steps to a trace sink.
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "engine/verdict.h"

#include <unordered_map>

namespace attrib::engine {

/// Phase 4: early event rules (C++ rules such as HandleXidBurstEvents), in catalog order.
std::vector<Event> runEarlyRules(const Catalog& catalog, std::vector<Event> events, ExecutionContext& context,
                                 TraceSink& trace, const std::string& onlyRule = {});

/// Phase 5a: one symptom per (name, node, GPU) from the events that raise symptoms.
std::vector<Symptom> buildNodeSymptoms(const Catalog& catalog, const std::vector<Event>& events, TraceSink& trace);

/// Phase 5b: per-node scrub: sympathetic follow-ups, superseded symptoms, scrub-phase rules.
std::vector<Symptom> scrubNodeSymptoms(const Catalog& catalog, std::vector<Symptom> symptoms, TraceSink& trace,
                                       const std::string& onlyRule = {});

/// Phase 6: the job-wide set, sorted by id (same-id symptoms from several sources combined).
std::vector<Symptom> mergeSymptoms(std::vector<Symptom> symptoms, TraceSink& trace);

/// Phase 7: refinement (demotion) rules over the job-wide set.
std::vector<Symptom> refineSymptoms(const Catalog& catalog, std::vector<Symptom> symptoms, TraceSink& trace,
                                    const std::string& onlyRule = {});

/// Phase 8: the platform priority table narrows the active set.
std::vector<Symptom> prioritizeSymptoms(const Catalog& catalog, const ExecutionContext& context,
                                        std::vector<Symptom> symptoms, TraceSink& trace,
                                        const PriorityTable* table = nullptr);

/// Phase 9: terminal state, sub-domain, root cause, action, or ambiguous with candidates.
Verdict mapOutcome(const Catalog& catalog, const ExecutionContext& context, const std::vector<Symptom>& symptoms,
                   const std::vector<Event>& events, TraceSink& trace, const PriorityTable* table = nullptr);

/// Phases 4-9 in order.
struct Correlation {
    ExecutionContext context;
    std::vector<Event> events;
    std::vector<Symptom> symptoms;
    std::vector<ClockOffset> clockOffsets;
    Verdict verdict;
};
/// `progress` (optional) hears each phase as it starts: ClockSkew..Outcome, done 1..EnginePhaseCount.
Correlation correlate(const Catalog& catalog, ExecutionContext context, std::vector<Event> events, TraceSink& trace,
                      ProgressSink* progress = nullptr);

/// Old event id -> new event id, produced whenever the pipeline renumbers events.
using EventRenumbering = std::unordered_map<std::uint64_t, std::uint64_t>;

/// Orders events by time (unknown last), node, then first observation; renumbers ids from 1. Returns the
/// renumbering (old id -> new id) for events that had an id, to be applied to the steps recorded so far.
EventRenumbering sortAndNumberEvents(std::vector<Event>& events);

/// Rewrites the event references of `steps` by `ids`; references to events that no longer exist are dropped.
void renumberStepEvents(std::vector<TraceStep>& steps, const EventRenumbering& ids);

/// runEarlyRules for a caller that holds steps recorded before it (still naming the current event ids): the
/// early rules' steps are appended to `held`, and every renumbering is applied to all of them.
std::vector<Event> runEarlyRules(const Catalog& catalog, std::vector<Event> events, ExecutionContext& context,
                                 std::vector<TraceStep>& held, const std::string& onlyRule = {});

/// The one way a symptom's status changes: sets status, rule, reason and cause, marks its evidence interesting,
/// and records `step` (phase, rule, action and details filled in by the caller) with the change.
void changeStatus(Symptom& symptom, SymptomStatus to, TraceStep step, const std::string& reason,
                  const std::string& cause, TraceSink& trace);

/// The stable id of a symptom: "name@node" or "name@node/gpuN" ("name@job" when no node).
std::string symptomIdFor(const std::string& name, const std::string& node, int gpu);

/// Effective priority of a symptom under a table (table override, else registry priority).
int effectivePriority(const Catalog& catalog, const PriorityTable* table, const Symptom& symptom);

/// An event's attribute, or "" when it has none of that name.
inline std::string eventAttr(const Event& e, const std::string& key)
{
    const auto it = e.attrs.find(key);
    return it == e.attrs.end() ? std::string() : it->second;
}

/// Values for templates: node, gpu, rank, link, time, name, plus the symptom's attributes.
/// The node a symptom is shown on: its own, or for one several nodes reported at once (JobWideBreadth, which keeps
/// them in `nodes` and the first in `first_node`) the list of those nodes; empty when no node is known.
std::string shownNode(const Symptom& symptom);
AttrMap templateValues(const Symptom& symptom);

}  // namespace attrib::engine
