// SPDX-License-Identifier: GPL-3.0-or-later
// Replay of a recorded trace for the rule debugger: symptom statuses as of any step, the change against
// the previous step, and breakpoints as filters over the immutable steps (nothing is paused live).
#pragma once

#include "engine/progress.h"
#include "engine/verdict.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attrib::engine {

/// How a symptom differs at a step from the step before.
enum class StepChange { None, Added, Demoted, Promoted, Scrubbed, Updated };
const char* toString(StepChange change);

/// One symptom as it stood after a given step.
struct SymptomState {
    std::string id;
    std::string name;
    std::string domain;
    std::string node;
    int gpu = -1;
    TimeNs firstSeen = NoTime;
    TimeSource timeSource = TimeSource::None;
    SymptomStatus status = SymptomStatus::Active;
    std::string rule;                      ///< rule that set the status (the adding rule while untouched)
    std::string reason;                    ///< reason recorded with the change
    std::string causedBy;                  ///< symptom id that explains it (demotion / scrub source), "" when none
    TracePhase phase = TracePhase::Scope;  ///< phase of the step that set the status
    std::size_t setAt = 0;                 ///< index of the step that last changed it
    bool untouched = true;                 ///< no rule changed it since the step that added it
    StepChange change = StepChange::None;  ///< change at the step asked for, against the step before
};

/// A breakpoint is a filter on steps: a rule id, a symptom (name or id), or a node; globs allowed.
struct Breakpoint {
    enum class Kind { Rule, Symptom, Node };
    Kind kind = Kind::Rule;
    std::string pattern;
    bool enabled = true;
};
const char* toString(Breakpoint::Kind kind);
std::optional<Breakpoint::Kind> breakpointKindFromString(const std::string& name);

/// Steps over one analysis' trace. Cheap to query at any step: every symptom keeps its own history.
class TraceReplay {
public:
    static constexpr std::size_t NoStep = static_cast<std::size_t>(-1);

    explicit TraceReplay(AnalysisSnapshot result);

    const AnalysisResult& result() const { return *m_result; }
    const AnalysisSnapshot& snapshot() const { return m_result; }
    std::size_t stepCount() const { return m_result->trace.size(); }
    const TraceStep& step(std::size_t index) const { return m_result->trace.at(index); }

    /// Every symptom added up to and including `index`, sorted by id, with its change at that step. With a
    /// cancel flag (a front end computing it off its thread) it stops early once the flag is set and returns
    /// the symptoms gathered so far, which the caller then drops.
    std::vector<SymptomState> stateAt(std::size_t index, const CancelFlag* cancel = nullptr) const;
    /// Only the symptoms whose status (or presence) differs from the step before.
    std::vector<SymptomState> changesAt(std::size_t index) const;
    /// One symptom as of `index`; nullopt when not yet added.
    std::optional<SymptomState> symptomAt(const std::string& id, std::size_t index) const;

    /// The first step after `from` (or the last before it, backwards) that hits an enabled breakpoint.
    std::optional<std::size_t> nextBreak(std::size_t from, const std::vector<Breakpoint>& breakpoints) const;
    std::optional<std::size_t> previousBreak(std::size_t from, const std::vector<Breakpoint>& breakpoints) const;
    /// Does this step hit the breakpoint (ignores `enabled`)?
    bool hits(std::size_t index, const Breakpoint& breakpoint) const;

    /// The first step of a phase; nullopt when the trace has none.
    std::optional<std::size_t> firstStepOfPhase(TracePhase phase) const;
    /// The step that set the status `id` holds at `asOf` (the last step by default).
    std::optional<std::size_t> statusStep(const std::string& id, std::size_t asOf = NoStep) const;

    /// The analysis as it stood after `index`: only the symptoms added so far, with their statuses then;
    /// the verdict only once the outcome step has run. For views that show "the state at this step".
    AnalysisSnapshot resultAt(std::size_t index) const;

private:
    struct Entry {
        std::size_t step = 0;
        SymptomStatus status = SymptomStatus::Active;
        SymptomChange::Kind kind = SymptomChange::Kind::Added;
        std::string rule;
        std::string reason;
        std::string causedBy;
        TracePhase phase = TracePhase::Scope;
    };
    struct History {
        SymptomState base;  ///< identity fields (name, node, ...)
        std::vector<Entry> entries;
    };

    void index();
    const Entry* entryAt(const History& history, std::size_t index) const;
    SymptomState stateOf(const History& history, std::size_t index) const;
    std::string causeOf(const TraceStep& step, const SymptomChange& change) const;

    AnalysisSnapshot m_result;
    std::vector<std::pair<std::string, History>> m_histories;  ///< sorted by id
    std::vector<std::vector<std::size_t>> m_stepSymptoms;      ///< per step: history indexes it touches
};

/// Splits "name@node/gpuN" into its parts (name, node, gpu); node "" for "@job".
void splitSymptomId(const std::string& id, std::string& name, std::string& node, int& gpu);

}  // namespace attrib::engine
