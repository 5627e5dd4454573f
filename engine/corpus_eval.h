// SPDX-License-Identifier: GPL-3.0-or-later
// Scoring labeled cases for `attrib eval`: the sample expected.json format and the real-log corpus format
// (tests/real/README.md), per-case scores, summaries (per domain, confusion), and floors.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

/// Terminal states grouped by the next action they call for; a verdict fits a truth of the same family.
enum class TerminalFamily { Infrastructure, Application, Timeout, Stopped, Completed, Ambiguous, Unknown };
TerminalFamily terminalFamily(std::string_view terminalState);

/// The truth of one labeled case, read from either expected.json format.
struct CaseTruth {
    std::string terminalState;  ///< "" when not given
    std::string subDomain;      ///< "" when not given
    std::vector<std::string> acceptable;
    std::optional<std::string> culpritNode;
    bool cascade = false;
    bool heldout = false;
    /// The case passes through a change made with its logs in view (gap closing): its held-out membership stands,
    /// but it no longer measures rules written without its logs; `heldout_unseen` counts it as the miss it was.
    bool seenByRules = false;
    bool corpusFormat = false;  ///< has any of the corpus keys (acceptable_sub_domains, culprit_node, heldout, cascade)
};

/// Reads the truth; throws std::runtime_error naming the key when a field has the wrong type.
CaseTruth readCaseTruth(const nlohmann::json& expected);

/// What `attrib eval` measured on a case besides its verdict.
struct CaseFacts {
    int skippedTextFiles = 0;  ///< readable text files (metadata excepted) the analysis reported skipped
};

struct CaseScore {
    std::string name;
    CaseTruth truth;
    std::string gotTerminal = "-";
    std::string gotSubDomain = "-";
    std::string gotNode = "-";
    bool error = false;  ///< no verdict (analysis error or unreadable expected.json)
    bool terminalOk = false;
    bool subDomainOk = false;
    bool nodeScored = false;
    bool nodeOk = false;
    bool noSymptom = false;
    bool hardFailure = false;  ///< truth application/configuration, verdict hardware_failure
    int skippedTextFiles = 0;
    std::vector<std::string> failures;  ///< one line each; empty when the case passes
    bool passed() const { return failures.empty(); }
};

/// Scores one case. `verdict` is the verdict JSON, or null with `error` saying why there is none.
CaseScore scoreCase(const std::string& name, const nlohmann::json& expected, const nlohmann::ordered_json* verdict,
                    const std::string& error, const CaseFacts& facts);
/// A case whose expected.json could not be read.
CaseScore errorCase(const std::string& name, const std::string& error);

struct DomainRow {
    int cases = 0;
    int subDomainOk = 0;
    int nodeScored = 0;
    int nodeOk = 0;
};

struct EvalSummary {
    int cases = 0;
    int errors = 0;
    int passed = 0;
    int terminalOk = 0;
    int subDomainOk = 0;
    int nodeScored = 0;
    int nodeOk = 0;
    int noSymptom = 0;
    int skippedTextFiles = 0;
    int hardFailures = 0;
    std::map<std::string, DomainRow> perDomain;                   ///< by truth sub-domain
    std::map<std::string, std::map<std::string, int>> confusion;  ///< truth sub-domain -> predicted -> count
};

/// Only: the held-out cases; Unseen: the same cases, with no credit for a case marked seen_by_rules (it failed before
/// a change made with its logs in view); Exclude: the rest.
enum class HeldoutFilter { All, Only, Unseen, Exclude };
/// Parses all|only|unseen|exclude; nullopt otherwise.
std::optional<HeldoutFilter> parseHeldoutFilter(std::string_view text);
bool selectedBy(const CaseScore& score, HeldoutFilter filter);

EvalSummary summarize(const std::vector<CaseScore>& scores, HeldoutFilter filter = HeldoutFilter::All);

/// Percentage, or nullopt when nothing was scored (shown as n/a, null in JSON).
std::optional<double> percent(int part, int whole);

/// The figures a floor can name (see tests/real/README.md), plus per_domain and confusion.
nlohmann::ordered_json summaryJson(const EvalSummary& summary);
nlohmann::ordered_json caseJson(const CaseScore& score);

/// Checks figures {"all": summaryJson, "heldout": summaryJson} against a floor
/// {"all": {"sub_domain_pct_min": 30, "hard_failures_max": 0, ...}, "heldout": {...}}.
/// Returns one line per figure below (or above) its bound; throws std::runtime_error on an unknown scope or
/// figure or a bound that is not a number.
std::vector<std::string> checkFloor(const nlohmann::ordered_json& figures, const nlohmann::json& floor);

}  // namespace attrib::engine
