// SPDX-License-Identifier: GPL-3.0-or-later
// The correlation driver: scope, extraction steps, early rules, symptoms, refinement, priority and outcome, run in
// order over one bundle's events, each phase recording its trace steps.
#include "engine/clock_skew.h"
#include "engine/extractor.h"
#include "engine/line_order.h"
#include "engine/pipeline.h"

#include <map>
#include <set>

namespace attrib::engine {

namespace {

void recordScope(const ExecutionContext& context, TraceSink& trace)
{
    TraceStep step;
    step.phase = TracePhase::Scope;
    step.rule = "ResolveExecutionContext";
    step.action = TraceAction::Scope;
    step.windowStart = context.start;
    step.windowEnd = context.end;
    step.details["workload"] = context.workloadId.empty() ? "unknown" : context.workloadId;
    step.details["scheduler"] = context.scheduler;
    step.details["platform"] = context.platform.empty() ? "unknown" : context.platform;
    step.details["source"] = context.source.empty() ? "none" : context.source;
    step.details["nodes"] = std::to_string(context.nodes.size());
    step.summary = "workload " + step.details["workload"] + " (" + context.scheduler + ", " + step.details["nodes"] +
        " nodes, platform " + step.details["platform"] + ") from " + step.details["source"];
    trace.record(std::move(step));
}

/// One step per extractor rule that matched: how many lines, on which nodes.
void recordExtraction(const std::vector<Event>& events, TraceSink& trace)
{
    std::map<std::string, std::vector<const Event*>> byRule;
    for (const auto& e : events)
        byRule[e.rule].push_back(&e);
    for (const auto& [rule, list] : byRule) {
        std::set<std::string> nodes;
        std::uint64_t lines = 0;  // folded repeats included
        TraceStep step;
        step.phase = TracePhase::Extract;
        step.rule = rule;
        step.action = TraceAction::Match;
        for (const Event* e : list) {
            nodes.insert(e->node.empty() ? std::string("job") : e->node.str());
            lines += 1 + e->folded;
            if (step.events.size() < 200)
                step.events.push_back(e->id);
        }
        std::string nodeList;
        for (const auto& n : nodes)
            nodeList += (nodeList.empty() ? "" : ", ") + n;
        step.details["lines"] = std::to_string(lines);
        step.details["nodes"] = nodeList;
        step.details["event"] = list.front()->type;
        step.summary = rule + " matched " + std::to_string(lines) + " line(s) on " + nodeList;
        trace.record(std::move(step));
    }
}

}  // namespace

Correlation correlate(const Catalog& catalog, ExecutionContext context, std::vector<Event> events, TraceSink& trace,
                      ProgressSink* progress)
{
    std::uint64_t phase = 0;
    const auto starting = [&](ProgressStage stage) {
        if (progress)
            progress->progress(stage, ++phase, EnginePhaseCount);
    };
    recordScope(context, trace);
    sortAndNumberEvents(events);  // the first numbering: no step names an event yet
    Correlation c;
    // Extraction, clock and early steps name events by the ids of the moment; they are held and renumbered
    // with the events until the early rules are done, so that every step names the final events.
    Trace early;
    recordExtraction(events, early);
    starting(ProgressStage::ClockSkew);
    c.clockOffsets = estimateClockOffsets(events, clockAnchors(catalog.data("clock_anchors")), early);
    applyClockOffsets(events, c.clockOffsets);
    for (const auto& o : c.clockOffsets)
        if (o.applied)
            context.clockUncertainty[o.node] = o.uncertainty;
    std::vector<TraceStep> held = early.take();
    renumberStepEvents(held, sortAndNumberEvents(events));
    starting(ProgressStage::EarlyRules);
    c.events = runEarlyRules(catalog, std::move(events), context, held);
    for (auto& step : held)
        trace.record(std::move(step));
    starting(ProgressStage::Symptoms);
    auto symptoms = buildNodeSymptoms(catalog, c.events, trace);
    placeFirstLines(symptoms, context.fileRuns);
    symptoms = scrubNodeSymptoms(catalog, std::move(symptoms), trace);
    starting(ProgressStage::Refine);
    symptoms = mergeSymptoms(std::move(symptoms), trace);
    placeFirstLines(symptoms, context.fileRuns);
    symptoms = refineSymptoms(catalog, std::move(symptoms), trace);
    starting(ProgressStage::Priority);
    symptoms = prioritizeSymptoms(catalog, context, std::move(symptoms), trace);
    starting(ProgressStage::Outcome);
    c.verdict = mapOutcome(catalog, context, symptoms, c.events, trace);
    c.symptoms = std::move(symptoms);
    c.context = std::move(context);
    return c;
}

}  // namespace attrib::engine
