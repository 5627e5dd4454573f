// SPDX-License-Identifier: GPL-3.0-or-later
// How a verdict changed between two analyses of the same bundle (an edited catalog, a rule change
// across the corpus): terminal state, sub-domain, root cause, and each symptom whose status changed.
#pragma once

#include "engine/verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace attrib::engine {

/// One symptom whose presence, status or deciding rule differs.
struct SymptomDiff {
    std::string id;
    std::optional<SymptomStatus> before;  ///< nullopt: not raised before
    std::optional<SymptomStatus> after;   ///< nullopt: no longer raised
    std::string ruleBefore;
    std::string ruleAfter;
    /// "demoted -> active", "added (active)", "removed (was demoted)", "demoted by A -> demoted by B".
    std::string describe() const;
};

struct VerdictDiff {
    std::string terminalBefore, terminalAfter;
    std::string subDomainBefore, subDomainAfter;
    std::string rootCauseBefore, rootCauseAfter;  ///< symptom id, "" when none
    std::vector<SymptomDiff> symptoms;            ///< sorted by id

    bool terminalChanged() const { return terminalBefore != terminalAfter; }
    bool subDomainChanged() const { return subDomainBefore != subDomainAfter; }
    bool rootCauseChanged() const { return rootCauseBefore != rootCauseAfter; }
    /// True when nothing a reader of the verdict would notice changed.
    bool empty() const;
    /// "hardware_failure/nvlink (root x@n) -> user_error/configuration (root y@job)", or "unchanged: ...".
    std::string headline() const;
    /// The headline, then one line per changed symptom.
    std::vector<std::string> lines() const;
};

/// `statusRuleChanges`: also report symptoms whose status stayed but whose deciding rule changed.
VerdictDiff diffVerdicts(const AnalysisResult& before, const AnalysisResult& after, bool statusRuleChanges = true);

/// "terminal/sub_domain" of a result, as used in tables.
std::string verdictLabel(const AnalysisResult& result);

}  // namespace attrib::engine
