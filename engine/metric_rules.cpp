// SPDX-License-Identifier: GPL-3.0-or-later
// Metric-condition evaluation: samples grouped by series, each rule tested once per series.
#include "engine/metric_rules.h"

#include "engine/extractor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attrib::engine {

const char* toString(MetricRule::Condition condition)
{
    switch (condition) {
    case MetricRule::Condition::Increase: return "increase";
    case MetricRule::Condition::Above: return "above";
    case MetricRule::Condition::Below: return "below";
    case MetricRule::Condition::ChangedNonzero: return "changed_nonzero";
    }
    return "increase";
}

namespace {

std::string number(double v)
{
    if (std::isfinite(v) && std::fabs(v) < 9e15 && v == std::floor(v))
        return std::to_string(static_cast<long long>(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string seriesKey(const std::string& metric, const std::string& node, int gpu,
                      const std::map<std::string, std::string>& labels)
{
    std::string key = metric + '\x1f' + node + '\x1f' + std::to_string(gpu);
    for (const auto& [k, v] : labels)
        key += '\x1f' + k + '=' + v;
    return key;
}

using Hit = MetricEvaluator::Hit;

/// Counter growth from `base` over `samples` (resets count from zero); fires past the threshold.
bool evalIncrease(const MetricRule& rule, const MetricSample& base, const std::vector<const MetricSample*>& samples,
                  Hit& hit)
{
    double total = 0;
    double previous = base.value;
    for (const MetricSample* s : samples) {
        const double delta = s->value - previous;
        total += delta >= 0 ? delta : s->value;
        previous = s->value;
        if (!hit.at && total > rule.threshold)
            hit.at = s;
    }
    if (!hit.at)
        return false;
    hit.attrs["from"] = number(base.value);
    hit.attrs["to"] = number(samples.back()->value);
    hit.attrs["increase"] = number(total);
    return true;
}

bool evaluate(const MetricRule& rule, const std::vector<const MetricSample*>& window, const MetricSample* baseline,
              Hit& hit)
{
    using C = MetricRule::Condition;
    if (window.empty())
        return false;
    hit.last = window.back();
    if (rule.condition == C::Above || rule.condition == C::Below) {
        double extreme = window.front()->value;
        for (const MetricSample* s : window) {
            const bool met = rule.condition == C::Above ? s->value > rule.threshold : s->value < rule.threshold;
            extreme = rule.condition == C::Above ? std::max(extreme, s->value) : std::min(extreme, s->value);
            if (met && !hit.at)
                hit.at = s;
        }
        hit.attrs[rule.condition == C::Above ? "max" : "min"] = number(extreme);
        return hit.at != nullptr;
    }
    std::vector<const MetricSample*> rest = window;
    if (!baseline) {
        baseline = rest.front();
        rest.erase(rest.begin());
    }
    hit.baseline = baseline;
    if (rest.empty() && rule.condition == C::Increase)
        return false;
    if (rule.condition == C::Increase)
        return evalIncrease(rule, *baseline, rest, hit);
    const bool firstIsBaseline = baseline == window.front();
    for (const MetricSample* s : firstIsBaseline ? window : rest) {
        if (s->value != 0 && (s == baseline || s->value != baseline->value)) {
            hit.at = s;
            hit.attrs["from"] = number(baseline->value);
            return true;
        }
    }
    return false;
}

}  // namespace

MetricEvaluator::MetricEvaluator(const std::vector<MetricRule>& rules, TimeNs windowStart, TimeNs windowEnd,
                                 std::size_t maxSamples)
    : m_rules(rules)
    , m_start(windowStart)
    , m_end(windowEnd)
    , m_maxSamples(maxSamples)
{
}

const std::vector<std::size_t>& MetricEvaluator::rulesFor(const std::string& metric) const
{
    auto it = m_lookup.find(metric);
    if (it != m_lookup.end())
        return it->second;
    std::vector<std::size_t> matching;
    for (std::size_t i = 0; i < m_rules.size(); ++i)
        if (anyGlobMatch(m_rules[i].metrics, metric))
            matching.push_back(i);
    if (m_lookup.size() > 100000)
        m_lookup.clear();  // a file with endless distinct names must not grow the cache without bound
    return m_lookup.emplace(metric, std::move(matching)).first->second;
}

bool MetricEvaluator::wants(const std::string& metric) const
{
    return !rulesFor(metric).empty();
}

void MetricEvaluator::add(const std::string& metric, const std::string& node, int gpu,
                          const std::map<std::string, std::string>& labels, const MetricSample& sample)
{
    const auto& rules = rulesFor(metric);
    if (rules.empty())
        return;
    if (m_samples >= m_maxSamples) {
        ++m_dropped;
        return;
    }
    Series& series = m_series[seriesKey(metric, node, gpu, labels)];
    if (series.samples.empty()) {
        series.metric = metric;
        series.node = node;
        series.gpu = gpu;
        series.labels = labels;
        series.rules = rules;
    }
    series.samples.push_back(sample);
    ++m_samples;
}

namespace {

Observation sampleObservation(const std::string& metric, const std::string& node, int gpu,
                              const std::map<std::string, std::string>& labels, const MetricSample& s, std::uint64_t id)
{
    Observation o;
    o.id = id;
    o.kind = SourceKind::Metrics;
    o.source = s.source;
    o.node = node;
    o.gpu = gpu;
    o.time = s.time;
    o.timeSource = s.timeSource;
    SampleFields& fields = o.sample.edit();
    fields.metric = metric;
    fields.value = s.value;
    fields.labels = labels;
    std::string rendered;
    for (const auto& [k, v] : labels)
        rendered += (rendered.empty() ? "" : ",") + k + "=\"" + v + "\"";
    o.text = metric + (rendered.empty() ? "" : "{" + rendered + "}") + " " + number(s.value);
    return o;
}

/// Samples of `ordered` a rule looks at (and the baseline before its window).
void selectWindow(const MetricRule& rule, const std::vector<const MetricSample*>& ordered, TimeNs start, TimeNs end,
                  const MetricSample*& baseline, std::vector<const MetricSample*>& window)
{
    constexpr TimeNs Min = std::numeric_limits<TimeNs>::min();
    constexpr TimeNs Max = std::numeric_limits<TimeNs>::max();
    const bool windowed = rule.jobWindow && start != NoTime;
    const TimeNs lo = windowed ? start - rule.before : Min;
    const TimeNs hi = windowed && end != NoTime ? end + rule.after : Max;
    baseline = nullptr;
    window.clear();
    for (const MetricSample* s : ordered) {
        if (windowed && s->time == NoTime)
            continue;
        if (windowed && s->time < lo)
            baseline = s;
        else if (!windowed || s->time <= hi)
            window.push_back(s);
    }
}

}  // namespace

Event MetricEvaluator::eventFor(const MetricRule& rule, const Series& series, const Hit& hit, Result& result,
                                std::uint64_t& nextObservationId) const
{
    Event e;
    e.type = rule.event.empty() ? rule.id : rule.event;
    e.rule = rule.id;
    e.node = series.node;
    e.gpu = series.gpu;
    e.time = hit.at->time;
    e.timeSource = hit.at->time == NoTime ? TimeSource::None : hit.at->timeSource;
    e.attrs = AttrMap(series.labels);
    e.attrs["metric"] = series.metric;
    e.attrs["value"] = number(hit.at->value);
    e.attrs["threshold"] = number(rule.threshold);
    for (const auto& [k, v] : hit.attrs)
        e.attrs[k] = v;
    for (const auto& [k, v] : rule.set)
        e.attrs.emplace(k, v);
    if (auto link = e.attrs.find("link"); link != e.attrs.end())
        e.link = link->second;
    std::vector<const MetricSample*> used;
    for (const MetricSample* s : {hit.baseline, hit.at, hit.last}) {
        if (!s || std::find(used.begin(), used.end(), s) != used.end())
            continue;
        used.push_back(s);
        result.evidence.push_back(
            sampleObservation(series.metric, series.node, series.gpu, series.labels, *s, nextObservationId++));
        e.observations.push_back(result.evidence.back().id);
    }
    if (!rule.symptom.empty()) {
        auto values = e.attrs;
        values["node"] = e.node;
        e.symptom = expandTemplate(rule.symptom, values);
    }
    return e;
}

MetricEvaluator::Result MetricEvaluator::finish(std::uint64_t& nextObservationId) const
{
    Result result;
    if (m_dropped > 0)
        result.notes.push_back(std::to_string(m_dropped) + " metric samples over the cap of " +
                               std::to_string(m_maxSamples) + " were not evaluated");
    for (const auto& [key, series] : m_series) {
        std::vector<const MetricSample*> ordered;
        for (const auto& s : series.samples)
            ordered.push_back(&s);
        // NoTime is the smallest TimeNs: samples without a time keep their order ahead of timed ones.
        std::stable_sort(ordered.begin(), ordered.end(),
                         [](const MetricSample* a, const MetricSample* b) { return a->time < b->time; });
        const MetricSample* baseline = nullptr;
        std::vector<const MetricSample*> window;
        for (const std::size_t r : series.rules) {
            const MetricRule& rule = m_rules[r];
            selectWindow(rule, ordered, m_start, m_end, baseline, window);
            Hit hit;
            if (evaluate(rule, window, baseline, hit))
                result.events.push_back(eventFor(rule, series, hit, result, nextObservationId));
        }
    }
    return result;
}

}  // namespace attrib::engine
