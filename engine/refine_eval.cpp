// SPDX-License-Identifier: GPL-3.0-or-later
// Phase 7: declarative demotion rules ("when A is active on the same node / any node within a causal
// window, demote B"). Demoted evidence stays and is marked interesting.
#include "engine/refine_eval.h"

#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/line_order.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <tuple>

namespace attrib::engine {

namespace {

bool matchesCause(const RefineRule& rule, const Symptom& s)
{
    if (anyGlobMatch(rule.exceptCauses, s.name))
        return false;
    return anyGlobMatch(rule.causes, s.name) || anyGlobMatch(rule.causeDomains, s.domain);
}

bool matchesTarget(const RefineRule& rule, const Symptom& s)
{
    if (anyGlobMatch(rule.exceptTargets, s.name))
        return false;
    return anyGlobMatch(rule.targets, s.name) || anyGlobMatch(rule.targetDomains, s.domain);
}

std::string seconds(TimeNs ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3fs", static_cast<double>(ns) / 1e9);
    return buf;
}

struct Check {
    bool scopeOk = true;
    bool attrsOk = true;
    bool windowOk = true;
    bool windowChecked = true;
    std::map<std::string, std::string> values;
};

/// Two untimed symptoms whose first lines are in one file: that file's line order is their time order, but not
/// their gap. A target written after its cause (or on its line) is in order. One written before it happened first:
/// that excludes it only from a rule whose window admits no target before its cause (before_s 0); a window with
/// room before the cause (a NIC watchdog fires seconds after the stall the NFS lines already report, a backtrace's
/// frames follow the signal line) may still hold it, so it counts as co-occurring, as across files.
void lineOrderCheck(const RefineRule& rule, const Symptom& cause, const Symptom& target, Check& c)
{
    c.windowChecked = false;
    const bool targetFirst = target.firstObservation < cause.firstObservation;
    c.windowOk = !targetFirst || rule.before > 0;
    c.values["order"] = lineOrderDetail(cause);
    c.values["target_line"] = targetFirst                   ? "before the cause's"
        : target.firstObservation == cause.firstObservation ? "the cause's"
                                                            : "after the cause's";
    if (!targetFirst)
        c.values["window"] = "in order: no usable time, and the target's line does not come before the cause's in " +
            cause.firstFile + " (the gap is unknown)";
    else if (c.windowOk)
        c.values["window"] = "not checked: no usable time; the target's line comes before the cause's in " +
            cause.firstFile + ", but the window admits targets up to " + seconds(rule.before).substr(1) +
            " before their cause and the gap is unknown, so they count as co-occurring";
    else
        c.values["window"] = "not met: no usable time, and the target's line comes before the cause's in " +
            cause.firstFile + ", while the window admits no target before its cause";
    c.values["window_ok"] = c.windowOk ? "true" : "false";
}

Check evaluate(const RefineRule& rule, const Symptom& cause, const Symptom& target)
{
    Check c;
    c.values["cause"] = cause.id;
    c.values["target"] = target.id;
    c.values["scope"] = toString(rule.scope);
    switch (rule.scope) {
    case RefineRule::Scope::SameGpu: c.scopeOk = cause.node == target.node && cause.gpu == target.gpu; break;
    case RefineRule::Scope::SameNode: c.scopeOk = cause.node == target.node; break;
    case RefineRule::Scope::AnyNode: c.scopeOk = true; break;
    }
    c.values["scope_ok"] = c.scopeOk ? "true" : "false";
    // The same fact reported twice (a monitor relaying an Xid the kernel logged): the attributes that name it agree.
    for (const std::string& key : rule.sameAttrs) {
        const auto a = cause.attrs.find(key);
        const auto b = target.attrs.find(key);
        const std::string causeValue = a == cause.attrs.end() ? std::string() : a->second;
        const std::string targetValue = b == target.attrs.end() ? std::string() : b->second;
        if (causeValue.empty() || causeValue != targetValue) {
            c.attrsOk = false;
            c.values["same_attrs"] = key + " differs: '" + causeValue + "' vs '" + targetValue + "'";
            break;
        }
    }
    if (!rule.sameAttrs.empty() && c.attrsOk)
        c.values["same_attrs"] = "equal";
    if (lineOrdered(cause, target)) {
        lineOrderCheck(rule, cause, target, c);
        return c;
    }
    if (!usableTime(cause) || !usableTime(target)) {
        // Decisions without time (docs/verdict.md, "Untimed evidence"): symptoms of one bundle whose order cannot
        // be checked (no stamp, or seconds since an unknown boot) count as co-occurring, so the rule decides on
        // its scope alone, and the step says the window was not checked.
        c.windowChecked = false;
        c.windowOk = true;
        c.values["window"] = std::string("not checked: the ") + (usableTime(cause) ? "target's" : "cause's") +
            " time is unknown or boot-relative; untimed symptoms of one bundle count as co-occurring";
        c.values["target_origin_minus_cause"] = "unknown";
        return c;
    }
    const TimeNs delta = (rule.targetFirstSeen ? target.firstSeen : target.origin) - cause.firstSeen;
    // An inherited time (a line without its own stamp) is only a lower bound of the true time: such a target
    // can be excluded for being too late, never for being too early.
    // Rules that look at the report time (target_time: first_seen) take the time as written.
    const bool lowerBound = target.timeSource == TimeSource::Inherited && !rule.targetFirstSeen;
    c.windowOk = (lowerBound || delta >= -rule.before) && delta <= rule.after;
    if (lowerBound)
        c.values["target_time"] = "lower bound (inherited from the previous stamped line)";
    c.values["target_origin_minus_cause"] = seconds(delta);
    c.values["window"] = "[" + seconds(-rule.before) + ", " + seconds(rule.after) + "]";
    c.values["window_ok"] = c.windowOk ? "true" : "false";
    return c;
}

AttrMap reasonValues(const Symptom& cause, const Symptom& target)
{
    AttrMap v;
    for (const auto& [k, val] : templateValues(cause))
        v["cause." + k] = val;
    for (const auto& [k, val] : templateValues(target))
        v["target." + k] = val;
    return v;
}

/// The step of one (cause, target) evaluation: bound node/GPU, causal window, condition values.
TraceStep evaluationStep(const RefineRule& rule, const Symptom& cause, const Symptom& target, const Check& c)
{
    TraceStep step;
    step.phase = rule.phase;
    step.rule = rule.id;
    step.node = target.node;
    step.gpu = target.gpu;
    step.windowStart = cause.firstSeen == NoTime ? NoTime : cause.firstSeen - rule.before;
    step.windowEnd = cause.firstSeen == NoTime ? NoTime : cause.firstSeen + rule.after;
    step.details = c.values;
    return step;
}

void recordNotFired(const RefineRule& rule, const Symptom& cause, const Symptom& target, const Check& c,
                    TraceSink& trace)
{
    TraceStep step = evaluationStep(rule, cause, target, c);
    step.action = TraceAction::Evaluate;
    step.fired = false;
    step.summary = target.id + " not " + (rule.phase == TracePhase::Scrub ? "scrubbed" : "demoted") + " by " +
        cause.id + ": " +
        (!c.scopeOk       ? "outside scope " + std::string(toString(rule.scope))
             : !c.attrsOk ? "attribute " + c.values.at("same_attrs")
             : c.values.count("order")
             ? "its line comes before the cause's in " + target.firstFile
             : "origin " + c.values.at("target_origin_minus_cause") + " outside window " + c.values.at("window"));
    trace.record(std::move(step));
}

void apply(const RefineRule& rule, const Symptom& cause, Symptom& target, const Check& c, TraceSink& trace)
{
    const bool scrubbing = rule.phase == TracePhase::Scrub;
    const std::string reason = expandProse(rule.reason, reasonValues(cause, target));
    TraceStep step = evaluationStep(rule, cause, target, c);
    step.action = scrubbing ? TraceAction::Scrub : TraceAction::Demote;
    step.summary = target.id + (scrubbing ? " scrubbed" : " demoted") + " by " + cause.id + ": " + reason;
    changeStatus(target, scrubbing ? SymptomStatus::Scrubbed : SymptomStatus::Demoted, std::move(step), reason,
                 cause.id, trace);
}

}  // namespace

void applyRefineRule(const Catalog&, const RefineRule& rule, std::vector<Symptom>& symptoms, TraceSink& trace)
{
    std::vector<std::size_t> causes;
    for (std::size_t i = 0; i < symptoms.size(); ++i)
        if (matchesCause(rule, symptoms[i]))
            causes.push_back(i);
    // The strongest explanation claims its targets first (registry priority), older causes before newer ones.
    std::stable_sort(causes.begin(), causes.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = symptoms[a];
        const auto& y = symptoms[b];
        const TimeNs tx = x.firstSeen == NoTime ? INT64_MAX : x.firstSeen;
        const TimeNs ty = y.firstSeen == NoTime ? INT64_MAX : y.firstSeen;
        return std::make_tuple(-x.priority, tx, x.id) < std::make_tuple(-y.priority, ty, y.id);
    });
    bool anyActiveCause = false;
    for (std::size_t ci : causes) {
        const Symptom& cause = symptoms[ci];
        if (cause.status != SymptomStatus::Active)
            continue;
        anyActiveCause = true;
        for (auto& target : symptoms) {
            if (&target == &cause || target.status != SymptomStatus::Active || !matchesTarget(rule, target))
                continue;
            const Check c = evaluate(rule, cause, target);
            if (c.scopeOk && c.attrsOk && c.windowOk)
                apply(rule, cause, target, c, trace);
            else
                recordNotFired(rule, cause, target, c, trace);
        }
    }
    if (!anyActiveCause) {
        TraceStep step;
        step.phase = rule.phase;
        step.rule = rule.id;
        step.action = TraceAction::Evaluate;
        step.fired = false;
        step.summary = "no active cause symptom matches " + rule.id;
        step.details["causes_matched"] = std::to_string(causes.size());
        trace.record(std::move(step));
    }
}

std::vector<Symptom> refineSymptoms(const Catalog& catalog, std::vector<Symptom> symptoms, TraceSink& trace,
                                    const std::string& onlyRule)
{
    std::vector<const RefineRule*> rules;
    for (const auto& rule : catalog.refineRules())
        if (rule.phase == TracePhase::Refine && (onlyRule.empty() || rule.id == onlyRule))
            rules.push_back(&rule);
    std::stable_sort(rules.begin(), rules.end(), [](auto* a, auto* b) { return a->order < b->order; });
    for (const auto* rule : rules)
        applyRefineRule(catalog, *rule, symptoms, trace);
    return symptoms;
}

}  // namespace attrib::engine
