// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluation of the catalog's inline cases (BRIEF §5): a failing case leaves its rule out.
#pragma once

#include "engine/case_cache.h"
#include "engine/catalog.h"
#include "engine/extractor.h"
#include "engine/pipeline.h"

namespace attrib::engine {

/// What one pipeline case produced, for checking and for tests.
struct CaseRun {
    std::vector<Event> events;
    std::vector<Symptom> symptoms;
    Verdict verdict;
};

/// Base time of case inputs: `"at": 1.5` means 1.5 s after this instant.
inline constexpr TimeNs CaseEpoch = 1767225600LL * NsPerSec;  // 2026-01-01T00:00:00Z

/// Runs the pipeline on a case's input. `kind` is the rule's phase: Early, Refine, Scrub or Priority. `extractors`: the
/// catalog's extractors compiled once for all cases (nullptr: compiled for this case; compiling ~200 patterns
/// per kind is what loading the catalog would otherwise spend most of its time on).
CaseRun runPipelineCase(const Catalog& catalog, const PipelineCase& pc, TracePhase kind, const std::string& ruleId,
                        const PriorityTable* table, TraceSink& trace, const ExtractorSet* extractors = nullptr);

/// Checks an expectation block; returns "" when it holds, else the first failed expectation.
std::string checkExpectation(const PipelineCase& pc, const CaseRun& run);

/// Runs one extractor case; returns "" when it passes. A symptom template must expand to a registered symptom.
std::string checkExtractorCase(const ExtractorRule& rule, const ExtractorCase& ec, const Catalog& catalog);

/// False (with an error diagnostic) when a rule names a literal symptom the registry does not know.
bool checkSymptomRegistered(const Catalog& catalog, const std::string& symptom, const std::string& rule,
                            const Location& where, std::vector<Diagnostic>& diagnostics);

/// Evaluates all cases in dependency order, records what they decided in `outcome` and erases the rules whose
/// cases fail. Returns the kept extractors compiled (the catalog's extractor set).
std::shared_ptr<const ExtractorSet> evaluateCatalogCases(const Catalog& catalog, std::vector<ExtractorRule>& extractors,
                                                         std::vector<CodeRuleEntry>& codeRules,
                                                         std::vector<RefineRule>& refineRules,
                                                         std::vector<PriorityTable>& tables, CaseOutcome& outcome);

/// Erases the rules an earlier evaluation of the same catalog left out (a kept outcome, engine/case_cache.h), without
/// running the cases. Returns the kept extractors compiled.
std::shared_ptr<const ExtractorSet> applyCaseOutcome(const CaseOutcome& outcome, std::vector<ExtractorRule>& extractors,
                                                     std::vector<CodeRuleEntry>& codeRules,
                                                     std::vector<RefineRule>& refineRules,
                                                     std::vector<PriorityTable>& tables);

}  // namespace attrib::engine
