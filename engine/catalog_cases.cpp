// SPDX-License-Identifier: GPL-3.0-or-later
// Inline cases: extractor lines with expected captures, and small pipeline inputs (observations or
// symptoms) with expected statuses, root cause and terminal state.
#include "engine/catalog_cases.h"
#include "engine/lazy_regex.h"
#include "engine/number.h"

#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/refine_eval.h"

#include <re2/re2.h>

#include <algorithm>
#include <memory>

using nlohmann::json;

namespace attrib::engine {

namespace {

TimeNs caseTime(const json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return NoTime;
    return CaseEpoch + static_cast<TimeNs>(it->get<double>() * 1e9);
}

TimeSource caseTimeSource(const json& j, TimeNs time)
{
    const std::string s = j.value("time_source", std::string());
    if (s == "boot-relative")
        return TimeSource::BootRelative;
    if (s == "none" || time == NoTime)
        return TimeSource::None;
    if (s == "inherited")
        return TimeSource::Inherited;
    return TimeSource::Absolute;
}

ExecutionContext caseContext(const json& input)
{
    ExecutionContext ctx;
    const json c = input.value("context", json::object());
    ctx.platform = c.value("platform", std::string());
    ctx.workloadId = c.value("workload_id", std::string());
    for (const auto& [node, map] : objectAt(c, "pci_to_gpu").items())
        for (const auto& [pci, gpu] : map.items())
            ctx.pciToGpu[node][pci] = gpu.get<int>();
    for (const auto& [node, kinds] : objectAt(c, "collected").items())
        ctx.collected[node] = kinds.get<std::vector<std::string>>();
    for (const auto& n : c.value("nodes", json::array()))
        ctx.nodes.push_back(n.get<std::string>());
    return ctx;
}

std::vector<Event> extractCaseObservations(const ExtractorSet& set, const json& input)
{
    std::vector<Event> events;
    std::uint64_t id = 1;
    for (const auto& o : input.value("observations", json::array())) {
        Observation obs;
        obs.id = id++;
        obs.kind = sourceKindFromString(o.value("source", std::string("kernel"))).value_or(SourceKind::Unknown);
        obs.node = o.value("node", std::string());
        obs.rank = o.value("rank", -1);
        obs.gpu = o.value("gpu", -1);
        obs.time = caseTime(o, "at");
        obs.timeSource = caseTimeSource(o, obs.time);
        obs.text = o.value("text", std::string());
        std::vector<LineMatch> matches;
        set.match(obs.kind, obs.text, matches);
        for (const auto& m : matches)
            events.push_back(makeEvent(m, obs));
    }
    return events;
}

std::vector<Symptom> caseSymptoms(const Catalog& catalog, const json& input)
{
    std::vector<Symptom> out;
    std::uint64_t evidence = 1;
    for (const auto& j : input.value("symptoms", json::array())) {
        Symptom s;
        s.name = j.value("name", std::string());
        const SymptomDef* def = catalog.symptom(s.name);
        s.domain = def ? def->domain : j.value("domain", std::string("unknown"));
        s.priority = def ? def->priority : 0;
        s.node = j.value("node", std::string());
        s.gpu = j.value("gpu", -1);
        s.rank = j.value("rank", -1);
        s.firstSeen = caseTime(j, "at");
        s.lastSeen = j.contains("until") ? caseTime(j, "until") : s.firstSeen;
        s.timeSource = caseTimeSource(j, s.firstSeen);
        s.count = j.value("count", 1u);
        for (const auto& [k, v] : objectAt(j, "attrs").items())
            s.attrs[k] = v.is_string() ? v.get<std::string>() : v.dump();
        s.origin = s.firstSeen;
        if (def && !def->originAttr.empty() && s.attrs.count(def->originAttr) && s.firstSeen != NoTime)
            s.origin -= durationMs(s.attrs[def->originAttr]).value_or(0) * NsPerMs;
        s.id = symptomIdFor(s.name, s.node, s.gpu);
        s.evidence = {evidence++};
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const Symptom& a, const Symptom& b) { return a.id < b.id; });
    return out;
}

}  // namespace

CaseRun runPipelineCase(const Catalog& catalog, const PipelineCase& pc, TracePhase kind, const std::string& ruleId,
                        const PriorityTable* table, TraceSink& trace, const ExtractorSet* extractors)
{
    CaseRun run;
    ExecutionContext ctx = caseContext(pc.input);
    if (pc.input.contains("observations")) {
        auto events = extractCaseObservations(extractors ? *extractors : catalog.extractorSet(), pc.input);
        sortAndNumberEvents(events);
        run.events = runEarlyRules(catalog, std::move(events), ctx, trace);
        auto symptoms = buildNodeSymptoms(catalog, run.events, trace);
        symptoms = scrubNodeSymptoms(catalog, std::move(symptoms), trace, kind == TracePhase::Scrub ? ruleId : "");
        run.symptoms = mergeSymptoms(std::move(symptoms), trace);
    } else {
        run.symptoms = caseSymptoms(catalog, pc.input);
        if (kind == TracePhase::Scrub)
            run.symptoms = scrubNodeSymptoms(catalog, std::move(run.symptoms), trace, ruleId);
    }
    if (kind == TracePhase::Refine)
        run.symptoms = refineSymptoms(catalog, std::move(run.symptoms), trace, ruleId);
    if (kind == TracePhase::Priority || pc.expect.contains("root_cause") || pc.expect.contains("terminal_state")) {
        run.symptoms = prioritizeSymptoms(catalog, ctx, std::move(run.symptoms), trace, table);
        run.verdict = mapOutcome(catalog, ctx, run.symptoms, run.events, trace, table);
    }
    return run;
}

namespace {

std::string checkSymptoms(const json& expected, const std::vector<Symptom>& symptoms)
{
    for (const auto& [id, want] : expected.items()) {
        auto it = std::find_if(symptoms.begin(), symptoms.end(), [&id = id](const Symptom& s) { return s.id == id; });
        const std::string wantStatus = want.is_string() ? want.get<std::string>() : want.value("status", "");
        if (wantStatus == "absent") {
            if (it != symptoms.end())
                return "symptom " + id + " should be absent but is " + toString(it->status);
            continue;
        }
        if (it == symptoms.end()) {
            std::string have;
            for (const auto& s : symptoms)
                have += (have.empty() ? "" : ", ") + s.id;
            return "symptom " + id + " expected " + wantStatus + " but was not raised (have: " + have + ")";
        }
        if (!wantStatus.empty() && wantStatus != toString(it->status))
            return "symptom " + id + " expected " + wantStatus + " but is " + toString(it->status) +
                (it->statusRule.empty() ? "" : " (by " + it->statusRule + ")");
        if (want.is_object()) {
            for (const auto& [k, v] : objectAt(want, "attrs").items()) {
                auto a = it->attrs.find(k);
                const std::string wantValue = v.is_string() ? v.get<std::string>() : v.dump();
                if (a == it->attrs.end() || a->second != wantValue)
                    return "symptom " + id + " attribute " + k + " expected '" + wantValue + "' but is '" +
                        (a == it->attrs.end() ? std::string("<missing>") : a->second) + "'";
            }
            if (want.contains("rule") && want["rule"] != it->statusRule)
                return "symptom " + id + " expected status rule " + want["rule"].dump() + " but is '" + it->statusRule +
                    "'";
        }
    }
    return {};
}

}  // namespace

std::string checkExpectation(const PipelineCase& pc, const CaseRun& run)
{
    const json& e = pc.expect;
    if (e.contains("symptoms")) {
        if (auto failure = checkSymptoms(e["symptoms"], run.symptoms); !failure.empty())
            return failure;
    }
    if (e.contains("terminal_state") && e["terminal_state"] != run.verdict.terminalState)
        return "terminal_state expected " + e["terminal_state"].dump() + " but is " + run.verdict.terminalState;
    if (e.contains("sub_domain") && e["sub_domain"] != run.verdict.subDomain)
        return "sub_domain expected " + e["sub_domain"].dump() + " but is " + run.verdict.subDomain;
    if (e.contains("root_cause")) {
        const std::string got = run.verdict.rootCause ? run.verdict.rootCause->symptomId : "<none>";
        if (e["root_cause"] != got)
            return "root_cause expected " + e["root_cause"].dump() + " but is " + got;
    }
    if (e.contains("candidates") && e["candidates"].get<std::size_t>() != run.verdict.candidates.size())
        return "expected " + e["candidates"].dump() + " candidates but got " +
            std::to_string(run.verdict.candidates.size());
    return {};
}

std::string checkExtractorCase(const ExtractorRule& rule, const ExtractorCase& ec, const Catalog& catalog)
{
    // A rule with a context matches only after its context line (the case's `context`, or none: no match).
    AttrMap captures;
    AttrMap context;
    const bool contextOk = !rule.context || matchContext(rule, ec.context, context) || !rule.context->required;
    // A rule with an `after` is decided by the case's later line (none given: nothing follows the line), when it names
    // the same thing (`after.same`).
    const bool own = contextOk && matchRule(rule, ec.line, captures);
    AttrMap later;
    const bool followed =
        rule.after && !ec.after.empty() && matchAfter(rule, ec.after, later) && sameThing(rule, captures, later);
    if (!followed)
        later.clear();
    const bool afterOk = !rule.after || followed != rule.after->absent;
    const bool matched = own && afterOk;
    if (matched != ec.shouldMatch) {
        if (!ec.shouldMatch)
            return "line must not match but does: " + ec.line;
        if (!contextOk)
            return "context line does not match the rule's context: '" + ec.context + "'";
        return !afterOk
            ? (followed ? "after line cancels the rule: '" : "after line does not match the rule's after: '") +
                ec.after + "'"
            : "line does not match: " + ec.line;
    }
    for (const auto& [key, value] : context)
        captures.emplace(key, value);
    for (const auto& [key, value] : later)
        captures.emplace(key, value);
    for (const auto& [k, want] : ec.fields) {
        std::string got;
        if (k == "symptom") {
            got = expandTemplate(rule.symptom, captures);
        } else if (auto it = captures.find(k); it != captures.end()) {
            got = it->second;
        } else if (auto s = rule.set.find(k); s != rule.set.end()) {
            got = setValue(s->second, captures);
        } else {
            return "field '" + k + "' expected '" + want + "' but was not captured";
        }
        if (got != want)
            return "field '" + k + "' expected '" + want + "' but got '" + got + "'";
    }
    for (const auto& k : ec.absent) {
        if (auto it = captures.find(k); it != captures.end() && !it->second.empty())
            return "field '" + k + "' expected absent but was captured as '" + it->second + "'";
        if (rule.set.count(k))
            return "field '" + k + "' expected absent but the rule sets it";
    }
    // A symptom named from the line's words must name a registered one (a typo, or a capture the line lacks,
    // would raise nothing).
    if (matched && rule.symptom.find('{') != std::string::npos) {
        const std::string symptom = expandTemplate(rule.symptom, captures);
        if (!catalog.symptom(symptom))
            return "symptom template '" + rule.symptom + "' gives unregistered symptom '" + symptom + "'";
    }
    return {};
}

namespace {

template <typename Rule, typename RunCase>
void evaluateRules(std::vector<Rule>& rules, CaseOutcome& outcome, CaseRuleKind kind, RunCase runCase)
{
    std::vector<Rule> kept;
    for (auto& rule : rules) {
        bool ok = true;
        for (const auto& pc : rule.cases) {
            std::string failure;
            try {
                failure = runCase(rule, pc);
            } catch (const std::exception& e) {  // e.g. a C++ rule reading a config value of the wrong type
                failure = std::string("the rule failed: ") + e.what();
            }
            outcome.results.push_back({rule.id, pc.name, failure.empty(), failure, pc.where});
            if (!failure.empty()) {
                ok = false;
                outcome.diagnostics.push_back({Diagnostic::Severity::Error, pc.where, rule.id,
                                               "inline case '" + pc.name + "' failed: " + failure + "; rule left out"});
            }
        }
        if (ok)
            kept.push_back(rule);  // copied: the catalog may still read `rules` while cases run
        else
            outcome.dropped[static_cast<std::size_t>(kind)].push_back(rule.id);
    }
    rules = std::move(kept);
}

/// Erases the rules whose id is listed (the rules an earlier run of the cases left out).
template <typename Rule> void dropListed(std::vector<Rule>& rules, const std::vector<std::string>& ids)
{
    if (ids.empty())
        return;
    rules.erase(std::remove_if(rules.begin(), rules.end(),
                               [&](const Rule& r) { return std::find(ids.begin(), ids.end(), r.id) != ids.end(); }),
                rules.end());
}

}  // namespace

bool checkSymptomRegistered(const Catalog& catalog, const std::string& symptom, const std::string& rule,
                            const Location& where, std::vector<Diagnostic>& diagnostics)
{
    if (symptom.empty() || symptom.find('{') != std::string::npos || catalog.symptom(symptom))
        return true;
    diagnostics.push_back(
        {Diagnostic::Severity::Error, where, rule, "emits unregistered symptom '" + symptom + "'; rule left out"});
    return false;
}

std::shared_ptr<const ExtractorSet> evaluateCatalogCases(const Catalog& catalog, std::vector<ExtractorRule>& extractors,
                                                         std::vector<CodeRuleEntry>& codeRules,
                                                         std::vector<RefineRule>& refineRules,
                                                         std::vector<PriorityTable>& tables, CaseOutcome& outcome)
{
    // Extractors: each case line, plus the symptom they name must be registered.
    std::vector<ExtractorRule> kept;
    for (auto& rule : extractors) {
        bool ok = checkSymptomRegistered(catalog, rule.symptom, rule.id, rule.where, outcome.diagnostics);
        // The cases run on a copy of the pattern, dropped afterwards: the DFA states and reverse program they
        // build would otherwise stay in the catalog for the life of the process (most of its memory).
        const auto compiled = rule.re;
        rule.re = freshCopy(compiled);
        const auto contextCompiled = rule.context ? rule.context->re : nullptr;  // the context pattern likewise
        if (rule.context)
            rule.context->re = freshCopy(contextCompiled);
        const auto afterCompiled = rule.after ? rule.after->re : nullptr;
        if (rule.after)
            rule.after->re = freshCopy(afterCompiled);
        const auto excludeCompiled = rule.exclude;
        rule.exclude = freshCopy(excludeCompiled);
        for (std::size_t i = 0; i < rule.cases.size(); ++i) {
            const auto& ec = rule.cases[i];
            const std::string failure = checkExtractorCase(rule, ec, catalog);
            outcome.results.push_back({rule.id, "case " + std::to_string(i + 1), failure.empty(), failure, ec.where});
            if (!failure.empty()) {
                ok = false;
                outcome.diagnostics.push_back({Diagnostic::Severity::Error, ec.where, rule.id,
                                               "inline case failed: " + failure + "; rule left out"});
            }
        }
        rule.re = compiled;
        if (rule.context)
            rule.context->re = contextCompiled;
        if (rule.after)
            rule.after->re = afterCompiled;
        rule.exclude = excludeCompiled;
        if (ok)
            kept.push_back(std::move(rule));
        else
            outcome.dropped[static_cast<std::size_t>(CaseRuleKind::Extractor)].push_back(rule.id);
    }
    extractors = std::move(kept);

    auto compiled = std::make_shared<const ExtractorSet>(extractors);  // once for every pipeline case and analysis
    const ExtractorSet& set = *compiled;
    Trace scratch;
    evaluateRules(codeRules, outcome, CaseRuleKind::Code, [&](const CodeRuleEntry& rule, const PipelineCase& pc) {
        return checkExpectation(pc, runPipelineCase(catalog, pc, TracePhase::Early, rule.id, nullptr, scratch, &set));
    });
    evaluateRules(refineRules, outcome, CaseRuleKind::Refine, [&](const RefineRule& rule, const PipelineCase& pc) {
        return checkExpectation(pc, runPipelineCase(catalog, pc, rule.phase, rule.id, nullptr, scratch, &set));
    });
    evaluateRules(tables, outcome, CaseRuleKind::Priority, [&](const PriorityTable& table, const PipelineCase& pc) {
        return checkExpectation(pc,
                                runPipelineCase(catalog, pc, TracePhase::Priority, table.id, &table, scratch, &set));
    });
    return compiled;
}

std::shared_ptr<const ExtractorSet> applyCaseOutcome(const CaseOutcome& outcome, std::vector<ExtractorRule>& extractors,
                                                     std::vector<CodeRuleEntry>& codeRules,
                                                     std::vector<RefineRule>& refineRules,
                                                     std::vector<PriorityTable>& tables)
{
    const auto& dropped = outcome.dropped;
    dropListed(extractors, dropped[static_cast<std::size_t>(CaseRuleKind::Extractor)]);
    dropListed(codeRules, dropped[static_cast<std::size_t>(CaseRuleKind::Code)]);
    dropListed(refineRules, dropped[static_cast<std::size_t>(CaseRuleKind::Refine)]);
    dropListed(tables, dropped[static_cast<std::size_t>(CaseRuleKind::Priority)]);
    return std::make_shared<const ExtractorSet>(extractors);
}

}  // namespace attrib::engine
