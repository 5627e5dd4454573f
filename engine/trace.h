// SPDX-License-Identifier: GPL-3.0-or-later
// The trace: an ordered record of every rule step, replayed by the debugger.
#pragma once

#include "engine/model.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

/// The pipeline phase a step belongs to (also the phase a rule runs in).
enum class TracePhase : std::uint8_t {
    Scope,
    Clock,
    Extract,
    Early,
    Symptoms,
    Scrub,
    Merge,
    Refine,
    Priority,
    Outcome,
    Unknown,  ///< a name read back from a store that this version does not know
};
const char* toString(TracePhase phase);
std::optional<TracePhase> tracePhaseFrom(std::string_view name);

/// What kind of step: the engine's own steps, then the C++ rules' steps.
enum class TraceAction : std::uint8_t {
    // engine
    Scope,
    Match,
    ApplyOffset,
    MeasureOffset,
    Error,
    Unregistered,
    Add,
    Sympathetic,
    Superseded,
    Merge,
    Evaluate,
    Scrub,
    Demote,
    Select,
    Map,
    // C++ rules
    Burst,
    Decode,
    MapGpu,
    InheritPci,
    ClassifyAppFault,
    NamedCause,
    Learn,
    Resolve,
    Conflict,
    Breadth,
    Effect,  ///< Effect, Raise, Specific: in name order (PythonExceptionOrigin records them in this order)
    Raise,
    Specific,
    OutOfScope,
    JudgeLinks,
    Mismatch,
    Culprit,
    NoCulprit,
    LookBack,
    Group,
    HangInsideSave,
    CheckpointOutlasts,
    SoleNode,
    BatchHost,
    KnownReleaseIssue,
    DuplicateRanks,
    NodesDiffer,
    Unknown,  ///< a name read back from a store that this version does not know
};
const char* toString(TraceAction action);
std::optional<TraceAction> traceActionFrom(std::string_view name);

/// How one step changed a symptom.
struct SymptomChange {
    enum class Kind { Added, Demoted, Promoted, Scrubbed, Updated };
    Kind kind = Kind::Added;
    std::string symptom;  ///< symptom id
    SymptomStatus from = SymptomStatus::Active;
    SymptomStatus to = SymptomStatus::Active;
    std::string reason;
};
const char* toString(SymptomChange::Kind kind);
std::optional<SymptomChange::Kind> changeKindFrom(std::string_view name);

/// One rule step: what it looked at, what it bound, what it changed.
struct TraceStep {
    std::uint32_t index = 0;
    TracePhase phase = TracePhase::Scope;
    std::string rule;  ///< rule id ("" for engine-internal steps)
    TraceAction action = TraceAction::Match;
    bool fired = true;  ///< false for recorded non-firing evaluations (why-not)
    std::string summary;
    std::string node;
    int gpu = -1;
    std::string link;
    TimeNs windowStart = NoTime;
    TimeNs windowEnd = NoTime;
    std::map<std::string, std::string> details;  ///< captures and condition values
    std::vector<std::uint64_t> events;           ///< events involved
    std::vector<SymptomChange> changes;
};

/// Receives steps as they happen. Rules (data or C++) report through this one API.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void record(TraceStep step) = 0;
};

/// The default sink: keeps every step in order and numbers them.
class Trace final : public TraceSink {
public:
    void record(TraceStep step) override;
    const std::vector<TraceStep>& steps() const { return m_steps; }
    std::vector<TraceStep> take() { return std::move(m_steps); }

private:
    std::vector<TraceStep> m_steps;
};

/// The sink of an analysis whose trace nobody reads (`attrib analyze` without --trace or --store): each step is
/// dropped as it is made. A large job's trace (a step per node and rule, with its condition values) would
/// otherwise be held to the end, some 8 MB of a 1,024-node analysis' peak; the verdict does not depend on it.
class DroppedTrace final : public TraceSink {
public:
    void record(TraceStep) override { }
};

}  // namespace attrib::engine
