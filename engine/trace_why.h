// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger's questions over a recorded trace: why does a symptom have its status, why did a rule
// not fire, and which rules looked at an evidence line. Answers carry step indexes to jump to.
#pragma once

#include "engine/trace_replay.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

class Catalog;

/// "Why this status?": the step that set it and one sentence.
struct WhyStatus {
    std::string symptom;
    SymptomStatus status = SymptomStatus::Active;
    std::optional<std::size_t> step;  ///< nullopt when the symptom never appears in the trace
    std::string sentence;
};
WhyStatus whyStatus(const TraceReplay& replay, const std::string& symptomId, std::size_t asOf = TraceReplay::NoStep);

/// One condition of a rule evaluation with its value at evaluation time.
struct Condition {
    std::string name;
    std::string value;
    std::optional<bool> holds;  ///< nullopt for context values (cause, target) and unchecked conditions
};

/// One recorded evaluation of a rule that did not fire.
struct Evaluation {
    std::size_t step = 0;
    std::string target;  ///< symptom looked at ("" when the rule found no cause at all)
    std::string cause;
    std::vector<Condition> conditions;
    std::string sentence;
};

/// "Why didn't this fire?": every non-firing evaluation of a rule, plus a summary sentence.
struct WhyNot {
    std::string rule;
    std::size_t firedSteps = 0;
    std::vector<Evaluation> evaluations;
    std::string summary;
};
/// `catalog` (optional) lets the answer name extractors and rules that left no step at all.
WhyNot whyNot(const TraceReplay& replay, const std::string& ruleId, const Catalog* catalog = nullptr);

/// The conditions recorded in a step's details, failing ones named by their `*_ok` flags.
std::vector<Condition> conditionsOf(const TraceStep& step);

/// A rule that looked at an evidence line: an extractor (matched or not) or a later step that used it.
struct LineLook {
    std::string rule;
    TracePhase phase = TracePhase::Extract;  ///< Extract for extractors, else the step's phase
    bool matched = false;
    AttrMap captures;
    std::optional<std::size_t> step;
    std::string summary;
};
/// Extractors of the line's source kind (each sees it: through the prefilter, then its own pattern) and their verdict
/// on it.
std::vector<LineLook> extractorsThatLookedAt(const Catalog& catalog, SourceKind kind, std::string_view text);
/// The extractors plus every trace step that used the line's events or symptoms, in trace order.
std::vector<LineLook> rulesThatLookedAt(const TraceReplay& replay, const Catalog& catalog, std::uint64_t observation);

}  // namespace attrib::engine
