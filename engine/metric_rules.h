// SPDX-License-Identifier: GPL-3.0-or-later
// Metric-condition rules (catalog kind "metrics"): conditions over metric samples (DCGM / Prometheus counters
// and gauges) that turn into events, and through their symptoms into the normal pipeline.
//
// A series is one metric name on one node and GPU with one label set. Per rule and series, the samples in the
// window [job start - before, job end + after] (all samples when the job window is unknown or the rule says
// "window": "all") are ordered by time and tested:
//   increase        the counter grew by more than `threshold` (counter resets count from zero) since the last
//                   sample before the window (or the first one in it)
//   above / below   a sample is above / below `threshold`
//   changed_nonzero a sample differs from the baseline and is not zero (DCGM_FI_DEV_XID_ERRORS: last Xid value)
// The first sample that meets the condition gives the event's time; the baseline, that sample and the last one
// are its evidence. One event per rule and series at most.
#pragma once

#include "engine/catalog.h"
#include "engine/json_util.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attrib::engine {

/// Where a sample came from and what it said (the series identity is held once per series).
struct MetricSample {
    SourceRef source;
    TimeNs time = NoTime;
    TimeSource timeSource = TimeSource::None;
    double value = 0;
};

/// Collects samples of the metrics the rules name, then evaluates every rule.
class MetricEvaluator {
public:
    /// `windowStart`/`windowEnd` = the job window (NoTime when unknown).
    MetricEvaluator(const std::vector<MetricRule>& rules, TimeNs windowStart, TimeNs windowEnd,
                    std::size_t maxSamples = 4'000'000);

    /// Sets the job window (it may become known only after the samples were collected).
    void setWindow(TimeNs windowStart, TimeNs windowEnd)
    {
        m_start = windowStart;
        m_end = windowEnd;
    }
    /// True when some rule looks at this metric name (cheap; check before building labels).
    bool wants(const std::string& metric) const;
    void add(const std::string& metric, const std::string& node, int gpu,
             const std::map<std::string, std::string>& labels, const MetricSample& sample);

    /// What one rule found on one series: the samples that matter and the condition's attributes.
    struct Hit {
        const MetricSample* baseline = nullptr;
        const MetricSample* at = nullptr;
        const MetricSample* last = nullptr;
        std::map<std::string, std::string> attrs;
    };

    struct Result {
        std::vector<Event> events;          ///< observation ids refer to `evidence`
        std::vector<Observation> evidence;  ///< the samples the events rest on (kind metrics)
        std::vector<std::string> notes;     ///< dropped samples and the like
    };
    /// Evaluates every rule; evidence observations get ids from `nextObservationId` on.
    Result finish(std::uint64_t& nextObservationId) const;

private:
    struct Series {
        std::string metric;
        std::string node;
        int gpu = -1;
        std::map<std::string, std::string> labels;
        std::vector<MetricSample> samples;
        std::vector<std::size_t> rules;  ///< indices of the rules that look at this metric
    };

    const std::vector<MetricRule>& m_rules;
    TimeNs m_start;
    TimeNs m_end;
    std::size_t m_maxSamples;
    std::size_t m_samples = 0;
    std::size_t m_dropped = 0;
    std::map<std::string, Series> m_series;                            ///< by series key
    mutable std::map<std::string, std::vector<std::size_t>> m_lookup;  ///< metric name -> matching rules

    const std::vector<std::size_t>& rulesFor(const std::string& metric) const;
    /// The event of one rule's hit on one series; adds its evidence samples to `result`.
    Event eventFor(const MetricRule& rule, const Series& series, const Hit& hit, Result& result,
                   std::uint64_t& nextObservationId) const;
};

/// Parses the rules of a `kind: metrics` file; problems go to `diagnostics` with file and line.
/// `lineAt` gives the line where the value at a JSON pointer ("/rules/0/cases/1") starts.
void parseMetricRules(const nlohmann::json& doc, const std::string& file,
                      const std::function<int(const std::string& pointer)>& lineAt, std::vector<MetricRule>& out,
                      std::vector<Diagnostic>& diagnostics);

/// Evaluates the inline cases of every metric rule; failing rules (or rules naming unregistered symptoms)
/// are left out.
void evaluateMetricCases(const Catalog& catalog, std::vector<MetricRule>& rules, std::vector<CaseResult>& results,
                         std::vector<Diagnostic>& diagnostics);

}  // namespace attrib::engine
