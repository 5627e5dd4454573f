// SPDX-License-Identifier: GPL-3.0-or-later
// Loading metric rules (kind "metrics") and running their inline cases: samples in, events and symptoms out.
#include "engine/catalog_cases.h"
#include "engine/metric_rules.h"
#include "engine/pipeline.h"

#include <algorithm>

using nlohmann::json;

namespace attrib::engine {

namespace {

std::string text(const json& obj, const char* key, const std::string& fallback = {})
{
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : fallback;
}

double numberAt(const json& obj, const char* key, double fallback)
{
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<double>() : fallback;
}

/// Seconds to nanoseconds, clamped to +-100 years so that hostile rule files cannot overflow.
TimeNs seconds(double s)
{
    constexpr double limit = 100.0 * 365 * 86400;
    if (!(s > -limit))
        s = -limit;
    if (s > limit)
        s = limit;
    return static_cast<TimeNs>(s * 1e9);
}

std::optional<MetricRule::Condition> conditionFrom(const std::string& s)
{
    if (s == "increase")
        return MetricRule::Condition::Increase;
    if (s == "above")
        return MetricRule::Condition::Above;
    if (s == "below")
        return MetricRule::Condition::Below;
    if (s == "changed_nonzero")
        return MetricRule::Condition::ChangedNonzero;
    return std::nullopt;
}

using LineAt = std::function<int(const std::string&)>;

bool parseRule(const json& r, const std::string& file, const LineAt& lineAt, const std::string& pointer,
               MetricRule& rule, std::vector<Diagnostic>& diagnostics)
{
    rule.id = text(r, "id");
    rule.where = {file, lineAt(r.contains("id") ? pointer + "/id" : pointer)};
    auto fail = [&](const std::string& message) {
        diagnostics.push_back({Diagnostic::Severity::Error, rule.where, rule.id, message});
        return false;
    };
    rule.description = text(r, "description");
    const json metrics = r.contains("metric") ? r["metric"] : json::array();
    if (metrics.is_string())
        rule.metrics.push_back(metrics.get<std::string>());
    for (const auto& m : metrics.is_array() ? metrics : json::array())
        if (m.is_string())
            rule.metrics.push_back(m.get<std::string>());
    const auto condition = conditionFrom(text(r, "condition"));
    if (rule.id.empty() || rule.metrics.empty() || !condition)
        return fail("a metric rule needs id, metric and condition (increase, above, below, changed_nonzero)");
    rule.condition = *condition;
    rule.threshold = numberAt(r, "threshold", 0);
    const std::string window = text(r, "window", "job");
    if (window != "job" && window != "all")
        return fail("window must be 'job' or 'all'");
    rule.jobWindow = window == "job";
    const json slack = r.contains("slack") && r["slack"].is_object() ? r["slack"] : json::object();
    rule.before = seconds(numberAt(slack, "before_s", 0));
    rule.after = seconds(numberAt(slack, "after_s", 0));
    rule.event = text(r, "event", rule.id);
    rule.symptom = text(r, "symptom");
    for (const auto& [k, v] : objectAt(r, "set").items())
        rule.set[k] = v.is_string() ? v.get<std::string>() : v.dump();
    const json cases = r.value("cases", json::array());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& c = cases[i];
        PipelineCase pc;
        pc.name = text(c, "name", "case " + std::to_string(rule.cases.size() + 1));
        pc.input = c;
        pc.expect = c.value("expect", json::object());
        const std::string at = pointer + "/cases/" + std::to_string(i);
        pc.where = {file, lineAt(c.contains("name") ? at + "/name" : at)};
        rule.cases.push_back(std::move(pc));
    }
    if (rule.cases.empty())
        return fail("rule has no inline cases");
    return true;
}

TimeNs caseAt(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? CaseEpoch + seconds(it->get<double>()) : NoTime;
}

/// Runs one case: the rule alone over the case's samples, then symptoms built, scrubbed and merged.
CaseRun runMetricCase(const Catalog& catalog, const MetricRule& rule, const PipelineCase& pc)
{
    const json context = pc.input.value("context", json::object());
    const std::vector<MetricRule> only{rule};
    MetricEvaluator evaluator(only, caseAt(context, "start"), caseAt(context, "end"));
    std::uint64_t offset = 0;
    for (const auto& s : pc.input.value("samples", json::array())) {
        MetricSample sample;
        sample.source = {0, 1, ++offset, offset * 100};
        sample.time = caseAt(s, "at");
        sample.timeSource = sample.time == NoTime ? TimeSource::None : TimeSource::Absolute;
        sample.value = numberAt(s, "value", 0);
        std::map<std::string, std::string> labels;
        for (const auto& [k, v] : objectAt(s, "labels").items())
            labels[k] = v.is_string() ? v.get<std::string>() : v.dump();
        const double gpu = numberAt(s, "gpu", -1);
        evaluator.add(text(s, "metric"), text(s, "node"), gpu >= 0 && gpu < 1e6 ? static_cast<int>(gpu) : -1, labels,
                      sample);
    }
    std::uint64_t nextId = 1;
    CaseRun run;
    run.events = evaluator.finish(nextId).events;
    sortAndNumberEvents(run.events);
    Trace scratch;
    auto symptoms = buildNodeSymptoms(catalog, run.events, scratch);
    symptoms = scrubNodeSymptoms(catalog, std::move(symptoms), scratch);
    run.symptoms = mergeSymptoms(std::move(symptoms), scratch);
    return run;
}

std::string checkEvents(const PipelineCase& pc, const CaseRun& run)
{
    const json& e = pc.expect;
    if (e.contains("events") && e["events"].is_number_unsigned() && e["events"].get<std::size_t>() != run.events.size())
        return "expected " + e["events"].dump() + " event(s) but got " + std::to_string(run.events.size());
    for (const auto& [k, v] : objectAt(e, "event_attrs").items()) {
        if (run.events.empty())
            return "expected event attribute " + k + " but no event was emitted";
        const auto& attrs = run.events.front().attrs;
        const std::string want = v.is_string() ? v.get<std::string>() : v.dump();
        auto it = attrs.find(k);
        if (it == attrs.end() || it->second != want)
            return "event attribute " + k + " expected '" + want + "' but is '" +
                (it == attrs.end() ? std::string("<missing>") : it->second) + "'";
    }
    return checkExpectation(pc, run);
}

}  // namespace

void parseMetricRules(const json& doc, const std::string& file, const LineAt& lineAt, std::vector<MetricRule>& out,
                      std::vector<Diagnostic>& diagnostics)
{
    const json rules = doc.value("rules", json::array());
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const json& r = rules[i];
        MetricRule rule;
        rule.where = {file, lineAt("/rules/" + std::to_string(i))};
        try {
            if (parseRule(r, file, lineAt, "/rules/" + std::to_string(i), rule, diagnostics))
                out.push_back(std::move(rule));
        } catch (const json::exception& e) {
            diagnostics.push_back(
                {Diagnostic::Severity::Error, rule.where, rule.id, std::string("invalid metric rule: ") + e.what()});
        }
    }
}

void evaluateMetricCases(const Catalog& catalog, std::vector<MetricRule>& rules, std::vector<CaseResult>& results,
                         std::vector<Diagnostic>& diagnostics)
{
    std::vector<MetricRule> kept;
    for (auto& rule : rules) {
        bool ok = checkSymptomRegistered(catalog, rule.symptom, rule.id, rule.where, diagnostics);
        for (const auto& pc : rule.cases) {
            std::string failure;
            try {
                failure = checkEvents(pc, runMetricCase(catalog, rule, pc));
            } catch (const std::exception& e) {
                failure = std::string("case could not run: ") + e.what();
            }
            results.push_back({rule.id, pc.name, failure.empty(), failure, pc.where});
            if (!failure.empty()) {
                ok = false;
                diagnostics.push_back({Diagnostic::Severity::Error, pc.where, rule.id,
                                       "inline case '" + pc.name + "' failed: " + failure + "; rule left out"});
            }
        }
        if (ok)
            kept.push_back(std::move(rule));
    }
    rules = std::move(kept);
}

}  // namespace attrib::engine
