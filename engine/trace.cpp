// SPDX-License-Identifier: GPL-3.0-or-later
// The in-memory trace sink.
#include "engine/trace.h"

#include "engine/enum_names.h"

namespace attrib::engine {

namespace {

constexpr EnumName<SymptomChange::Kind> kChangeKinds[] = {
    {SymptomChange::Kind::Added, "added"},       {SymptomChange::Kind::Demoted, "demoted"},
    {SymptomChange::Kind::Promoted, "promoted"}, {SymptomChange::Kind::Scrubbed, "scrubbed"},
    {SymptomChange::Kind::Updated, "updated"},
};

constexpr EnumName<TracePhase> kPhases[] = {
    {TracePhase::Scope, "scope"},     {TracePhase::Clock, "clock"},       {TracePhase::Extract, "extract"},
    {TracePhase::Early, "early"},     {TracePhase::Symptoms, "symptoms"}, {TracePhase::Scrub, "scrub"},
    {TracePhase::Merge, "merge"},     {TracePhase::Refine, "refine"},     {TracePhase::Priority, "priority"},
    {TracePhase::Outcome, "outcome"}, {TracePhase::Unknown, "unknown"},
};

constexpr EnumName<TraceAction> kActions[] = {
    {TraceAction::Scope, "scope"},
    {TraceAction::Match, "match"},
    {TraceAction::ApplyOffset, "apply-offset"},
    {TraceAction::MeasureOffset, "measure-offset"},
    {TraceAction::Error, "error"},
    {TraceAction::Unregistered, "unregistered"},
    {TraceAction::Add, "add"},
    {TraceAction::Sympathetic, "sympathetic"},
    {TraceAction::Superseded, "superseded"},
    {TraceAction::Merge, "merge"},
    {TraceAction::Evaluate, "evaluate"},
    {TraceAction::Scrub, "scrub"},
    {TraceAction::Demote, "demote"},
    {TraceAction::Select, "select"},
    {TraceAction::Map, "map"},
    {TraceAction::Burst, "burst"},
    {TraceAction::Decode, "decode"},
    {TraceAction::MapGpu, "map-gpu"},
    {TraceAction::InheritPci, "inherit-pci"},
    {TraceAction::ClassifyAppFault, "classify-app-fault"},
    {TraceAction::NamedCause, "named-cause"},
    {TraceAction::Learn, "learn"},
    {TraceAction::Resolve, "resolve"},
    {TraceAction::Conflict, "conflict"},
    {TraceAction::Breadth, "breadth"},
    {TraceAction::Effect, "effect"},
    {TraceAction::Raise, "raise"},
    {TraceAction::Specific, "specific"},
    {TraceAction::OutOfScope, "out_of_scope"},
    {TraceAction::JudgeLinks, "judge-links"},
    {TraceAction::Mismatch, "mismatch"},
    {TraceAction::Culprit, "culprit"},
    {TraceAction::NoCulprit, "no_culprit"},
    {TraceAction::LookBack, "look_back"},
    {TraceAction::Group, "group"},
    {TraceAction::HangInsideSave, "hang-inside-save"},
    {TraceAction::CheckpointOutlasts, "checkpoint-outlasts"},
    {TraceAction::SoleNode, "sole-node"},
    {TraceAction::BatchHost, "batch-host"},
    {TraceAction::KnownReleaseIssue, "known-release-issue"},
    {TraceAction::DuplicateRanks, "duplicate-ranks"},
    {TraceAction::NodesDiffer, "nodes-differ"},
    {TraceAction::Unknown, "unknown"},
};

}  // namespace

const char* toString(SymptomChange::Kind kind)
{
    return nameIn(kChangeKinds, kind);
}

std::optional<SymptomChange::Kind> changeKindFrom(std::string_view name)
{
    return valueIn(kChangeKinds, name);
}

const char* toString(TracePhase phase)
{
    return nameIn(kPhases, phase);
}

std::optional<TracePhase> tracePhaseFrom(std::string_view name)
{
    return valueIn(kPhases, name);
}

const char* toString(TraceAction action)
{
    return nameIn(kActions, action);
}

std::optional<TraceAction> traceActionFrom(std::string_view name)
{
    return valueIn(kActions, name);
}

void Trace::record(TraceStep step)
{
    step.index = static_cast<std::uint32_t>(m_steps.size());
    m_steps.push_back(std::move(step));
}

}  // namespace attrib::engine
