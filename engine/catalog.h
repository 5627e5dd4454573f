// SPDX-License-Identifier: GPL-3.0-or-later
// The rule catalog: symptom registry, extractor rules, C++ rules, refinement rules, priority tables.
// Loaded from a rules folder at run time; every rule carries inline cases that are evaluated at load.
#pragma once

#include "engine/model.h"
#include "engine/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attrib::engine {

class LazyRegex;

/// Where a rule or a problem lives: file (relative to the rules folder) and 1-based line.
struct Location {
    std::string file;
    int line = 0;
    std::string str() const { return file + ":" + std::to_string(line); }
};

/// A problem found while loading the catalog or running its inline cases.
struct Diagnostic {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    Location where;
    std::string rule;
    std::string message;
    std::string str() const;
};

/// A registered symptom (BRIEF §5).
/// One way to read a finding that cannot tell its causes apart by itself: what the failure is under that reading.
struct Reading {
    std::string terminalState;
    std::string subDomain;
    std::string summary;  ///< template, like the symptom's
};

struct SymptomDef {
    std::string name;
    std::string domain;  ///< sub_domain vocabulary
    int priority = 0;    ///< higher = more likely the root cause
    std::string description;
    std::string terminalState;            ///< what a root cause of this kind means for the job
    std::string summary;                  ///< template, e.g. "Xid {xid} on GPU {gpu}"
    std::string action;                   ///< recommended action template
    std::string target;                   ///< action target template
    std::vector<std::string> supersedes;  ///< symptom names it makes redundant on the same node
    std::string originAttr;               ///< attribute holding a timeout in ms: origin = first_seen - value
    /// For a symptom whose terminal state is `ambiguous` (a finding that reads the same for a fault and for a
    /// design or a monitor's mistake): the readings it cannot tell apart, and the evidence that would (a template).
    std::vector<Reading> readings;
    std::string separatedBy;
    Location where;
};

/// One inline case of an extractor rule.
struct ExtractorCase {
    std::string line;
    std::string context;  ///< the earlier line of the file, for a rule with a context ("" = none came before)
    std::string after;    ///< the later line of the file, for a rule with an `after` ("" = none follows)
    bool shouldMatch = true;
    std::map<std::string, std::string> fields;  ///< expected captures (and node/gpu/rank)
    std::vector<std::string> absent;            ///< fields given as null: neither captured nor set
    Location where;
};

/// A numeric condition on one capture (`"require": {"temp": ">= 90"}`): the line matches only when the capture reads
/// as a number (engine/number.h) and the comparison holds, so a rule can read tool output whose failure is a value
/// (a temperature, a fan speed, a counter) rather than a word. The bound may be another capture of the same line
/// (`{"reading": ">= upper_critical"}`: a sensor row past its own threshold column), which must read as a number too.
struct NumberCondition {
    enum class Op : std::uint8_t { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
    std::string capture;
    Op op = Op::GreaterEqual;
    double value = 0;
    std::string boundCapture;  ///< when set, the bound is this capture's value, not `value`
    bool holds(double x, double bound) const;
};

/// An earlier line of the same file that an extractor's line needs (`"context": {"pattern": P, "within": N}`): the
/// rule's line matches only when a line matching P came at most N lines before it. For records that tools print over
/// two or more lines (a table header and its row, a `Last State:` block and its `Reason:`, a device header and its
/// port state). The context line's named captures fill the fields the rule's own line lacks. With `"required": false`
/// the line matches without it too, and the context only names what it can (the device a port block belongs to).
struct ExtractorContext {
    std::string pattern;
    std::shared_ptr<const LazyRegex> re;
    std::uint32_t within = 1;
    bool required = true;
};

/// A later line of the same file that decides an extractor's line (`"after": {"pattern": P, "within": N, "absent":
/// B}`): for records whose meaning comes after the line that names them (a failure whose target is printed on the next
/// line, a waiting line that a later success cancels). With `absent` false the rule's line matches only when a line
/// matching P follows at most N lines later, and that line's named captures fill the fields the rule's own line
/// lacks; with `absent` true it matches only when no such line follows within N lines (or before the end of the
/// file). With `"same": [C...]` a later line decides only a held line that names the same thing: for each capture C
/// both lines captured, the values must be equal (`nfs: server A OK` does not cancel a stall of server B); a line that
/// lacks C cannot tell and is decided as without `same`. The match is held until the file decides it
/// (engine/extractor.h, ContextMemory).
struct ExtractorAfter {
    std::string pattern;
    std::shared_ptr<const LazyRegex> re;
    std::uint32_t within = 1;
    bool absent = false;
    std::vector<std::string> same;  ///< captures both lines must agree on, when both have them
};

/// A data rule: one RE2 pattern over lines of some source kinds, emitting one event.
struct ExtractorRule {
    std::string id;
    std::string description;
    std::vector<SourceKind> sources;
    std::string pattern;
    std::shared_ptr<const LazyRegex> re;     ///< null when the pattern was left out
    std::string event;                       ///< event type
    std::string symptom;                     ///< symptom template ("" = context event)
    std::map<std::string, std::string> set;  ///< attributes added to the event (`{capture}` expanded)
    bool sympathetic = false;
    bool jobWide = false;                  ///< the event concerns the whole job, not the node whose file holds the line
    std::string timeFrom;                  ///< capture holding an ISO time that replaces the line's time
    std::vector<NumberCondition> require;  ///< numeric conditions on captures, all must hold
    std::optional<ExtractorContext> context;  ///< an earlier line the rule's line needs
    std::optional<ExtractorAfter> after;      ///< a later line that decides the rule's line
    /// Lines the pattern matches that are not the rule's (RE2 has no negative lookahead); null when none.
    std::shared_ptr<const LazyRegex> exclude;
    /// Captured words translated before `require`, `set` and the symptom: capture -> (word -> value), `*` the
    /// default. A word with no entry and no default means the line is not the rule's.
    std::map<std::string, std::map<std::string, std::string>> map;
    std::vector<ExtractorCase> cases;
    Location where;
};

/// An observation, event list or symptom list that an inline case starts from (BRIEF §5).
struct PipelineCase {
    std::string name;
    nlohmann::json input;   ///< {"context":..., "observations":[...], "symptoms":[...]}
    nlohmann::json expect;  ///< {"symptoms": {id: status|absent}, "root_cause": id, "terminal_state": ...}
    Location where;
};

class Catalog;

/// A rule written in C++ (early phase). It reports every inner step through the trace sink.
class CodeRule {
public:
    virtual ~CodeRule() = default;
    virtual std::string id() const = 0;
    virtual std::string description() const = 0;
    /// Transforms the extracted events; may learn context (GPU maps) and emit new events.
    virtual std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog& catalog,
                                   TraceSink& trace) const = 0;
};

/// C++ rules known to this build, by implementation name.
using CodeRuleFactory = std::function<std::unique_ptr<CodeRule>(const nlohmann::json& config)>;
struct CodeRuleRegistry {
    std::map<std::string, CodeRuleFactory> factories;
};

/// A C++ rule as configured in the catalog (config + inline cases from its JSON file).
struct CodeRuleEntry {
    std::string id;
    TracePhase phase = TracePhase::Early;
    int order = 0;
    std::shared_ptr<const CodeRule> rule;
    std::vector<PipelineCase> cases;
    Location where;
};

/// Declarative correlation: when a cause symptom is active, demote (or scrub) matching symptoms.
struct RefineRule {
    enum class Scope { SameGpu, SameNode, AnyNode };
    std::string id;
    std::string description;
    TracePhase phase = TracePhase::Refine;  ///< Scrub (per node, scrubs) or Refine (job-wide, demotes)
    int order = 0;
    std::vector<std::string> causes;  ///< symptom name globs
    std::vector<std::string> causeDomains;
    std::vector<std::string> exceptCauses;  ///< globs that never act as a cause
    std::vector<std::string> targets;       ///< symptom name globs
    std::vector<std::string> targetDomains;
    std::vector<std::string> exceptTargets;  ///< globs never touched
    Scope scope = Scope::AnyNode;
    std::vector<std::string> sameAttrs;  ///< attributes cause and target must both hold, with one value
    TimeNs before = 0;                   ///< target origin may precede the cause by this much
    TimeNs after = 0;                    ///< and follow it by this much
    bool targetFirstSeen = false;        ///< window on the target's first_seen (report time) instead of its origin
    std::string reason;                  ///< template over cause.* and target.*
    std::vector<PipelineCase> cases;
    Location where;
};
const char* toString(RefineRule::Scope scope);

/// A platform priority table: symptom globs -> priority overrides, used by the PriorityRootCause step.
struct PriorityTable {
    std::string id;
    std::string description;
    std::vector<std::string> platforms;                  ///< "default" matches any platform without its own table
    std::vector<std::pair<std::string, int>> overrides;  ///< first matching glob wins
    TimeNs tieWindow = 5 * NsPerSec;                     ///< candidates closer than this on different nodes are a tie
    std::vector<PipelineCase> cases;
    Location where;
};

/// A metric-condition rule (kind "metrics", see engine/metric_rules.h): a condition over metric samples of one
/// series (metric name + node + GPU + labels) in the job window, emitting one event per series that meets it.
struct MetricRule {
    enum class Condition { Increase, Above, Below, ChangedNonzero };
    std::string id;
    std::string description;
    std::vector<std::string> metrics;  ///< metric name globs
    Condition condition = Condition::Increase;
    double threshold = 0;
    bool jobWindow = true;  ///< "window": "job" (default; all samples when the job window is unknown) or "all"
    TimeNs before = 0;      ///< slack before the job start
    TimeNs after = 0;       ///< slack after the job end
    std::string event;      ///< event type
    std::string symptom;    ///< symptom template ("" = context event)
    std::map<std::string, std::string> set;  ///< constant attributes
    std::vector<PipelineCase> cases;
    Location where;
};
const char* toString(MetricRule::Condition condition);

/// Result of evaluating inline cases.
struct CaseResult {
    std::string rule;
    std::string name;
    bool passed = false;
    std::string failure;
    Location where;
};

class ExtractorSet;

/// Whether a loaded catalog keeps every inline case's result (the rule bench, `rules test`, the Service's catalog
/// reply) or only their counts (an analysis: ~9,000 results are a few MB of its memory peak).
enum class CaseDetail { Keep, CountsOnly };

/// Compiled size allowed for all the extractors' patterns together: this many RE2 instructions per extractor on
/// average, and never less than MinSetProgram. The catalog's own average is ~166 (485,000 instructions at 2,921
/// extractors, 2026-12-05), so the cap grows with the catalog and only an outsized rule set reaches it.
inline constexpr long SetProgramPerExtractor = 300;
inline constexpr long MinSetProgram = 500000;

/// The loaded catalog. Immutable after load; share it between analyses.
class Catalog {
public:
    Catalog() = default;
    Catalog(const Catalog&) = delete;  // the compiled extractor set points into this catalog's rules
    Catalog& operator=(const Catalog&) = delete;

    /// Loads every rule file under `dir`, evaluates all inline cases and leaves out rules that fail. With a
    /// `caseCacheDir` (engine/case_cache.h), what the cases decided is kept there and reused by the next load of
    /// the same files by the same program, which then runs no case; callers pass one only with the built-in
    /// C++ rules, since the outcome does not identify a registry.
    static std::shared_ptr<const Catalog> load(const std::string& dir, const CodeRuleRegistry& code,
                                               const std::string& caseCacheDir = {},
                                               CaseDetail detail = CaseDetail::Keep);

    const std::string& directory() const { return m_dir; }
    const std::string& version() const { return m_version; }
    const std::string& hash() const { return m_hash; }
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    /// Every inline case's result; empty when loaded with CaseDetail::CountsOnly.
    const std::vector<CaseResult>& caseResults() const { return m_caseResults; }
    std::size_t casesPassed() const { return m_casesPassed; }
    std::size_t casesFailed() const { return m_casesFailed; }

    const SymptomDef* symptom(const std::string& name) const;
    const std::map<std::string, SymptomDef>& symptoms() const { return m_symptoms; }
    const std::vector<ExtractorRule>& extractors() const { return m_extractors; }
    /// The usable extractors compiled into per-kind sets, once per catalog (inline cases and every analysis).
    const ExtractorSet& extractorSet() const { return *m_extractorSet; }
    const std::vector<CodeRuleEntry>& codeRules() const { return m_codeRules; }
    const std::vector<RefineRule>& refineRules() const { return m_refineRules; }
    const std::vector<PriorityTable>& priorityTables() const { return m_priorityTables; }
    const std::vector<MetricRule>& metricRules() const { return m_metricRules; }
    /// The table for a platform (falls back to the "default" table).
    const PriorityTable* priorityTable(const std::string& platform) const;
    /// A data file of the catalog (e.g. xid symptom map), parsed; null when absent.
    const nlohmann::json* data(const std::string& name) const;

    // Loading internals, used by catalog_loader.cpp and case evaluation.
    struct Loader;
    friend struct Loader;

private:
    std::string m_dir;
    std::string m_version;
    std::string m_hash;
    std::map<std::string, SymptomDef> m_symptoms;
    std::vector<ExtractorRule> m_extractors;
    std::shared_ptr<const ExtractorSet> m_extractorSet;  ///< never null once loaded
    std::vector<CodeRuleEntry> m_codeRules;
    std::vector<RefineRule> m_refineRules;
    std::vector<PriorityTable> m_priorityTables;
    std::vector<MetricRule> m_metricRules;
    std::map<std::string, nlohmann::json> m_data;
    std::vector<Diagnostic> m_diagnostics;
    std::vector<CaseResult> m_caseResults;
    std::size_t m_casesPassed = 0;
    std::size_t m_casesFailed = 0;
};

using CatalogPtr = std::shared_ptr<const Catalog>;

/// `*` and `?` wildcard match (no character classes).
bool globMatch(std::string_view pattern, std::string_view text);
bool anyGlobMatch(const std::vector<std::string>& patterns, std::string_view text);

}  // namespace attrib::engine
