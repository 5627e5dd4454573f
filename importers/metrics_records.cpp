// SPDX-License-Identifier: GPL-3.0-or-later
// Metric samples: Prometheus / DCGM exporter exposition text and metric CSV (long: time,node,gpu,metric,value;
// wide: time,node,gpu,<metric>,<metric>,...; nvidia-smi --query-gpu=timestamp,index,... -l N output).
// A `# 2026-04-22T21:34:20Z` (or `# scrape 2026-...`) comment gives the time of the samples below it that have
// no timestamp of their own, so concatenated scrapes keep their times.
#include "importers/metric_parse.h"

#include "engine/number.h"
#include "importers/records.h"
#include "importers/sniff_structured.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <cctype>

namespace attrib::importers::detail {

namespace {

const char* const HostLabels[] = {"Hostname", "hostname", "host", "node", "nodename", "kubernetes_node", "instance"};

std::string hostFromLabels(const std::map<std::string, std::string>& labels)
{
    for (const char* key : HostLabels) {
        auto it = labels.find(key);
        if (it == labels.end() || it->second.empty())
            continue;
        std::string host = it->second;
        if (const auto colon = host.rfind(':'); colon != std::string::npos && host.find(']') == std::string::npos)
            host.resize(colon);  // instance="node-02:9400"
        return host;
    }
    return {};
}

int gpuFromText(const std::string& s)
{
    return engine::parseIntegerIn<int>(s, 0, 9999).value_or(-1);
}

Record metricRecord(const RawLine& raw, std::string name, double value, TimeNs time,
                    std::map<std::string, std::string> labels)
{
    Record r = lineRecord(raw);
    r.kind = SourceKind::Metrics;
    r.isMetric = true;
    r.metric = std::move(name);
    r.value = value;
    r.time = time;
    r.timeSource = time == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
    r.host = hostFromLabels(labels);
    if (auto gpu = labels.find("gpu"); gpu != labels.end())
        r.gpu = gpuFromText(gpu->second);
    r.labels = std::move(labels);
    return r;
}

/// `# 2026-04-22T21:34:20Z`, `# scrape 2026-...`, `# time: 2026-...`: NoTime when the comment is not a stamp.
TimeNs commentTime(std::string_view line)
{
    std::string_view s = line.substr(1);
    const std::size_t digit = s.find_first_of("0123456789");
    if (digit == std::string_view::npos || digit > 16)
        return engine::NoTime;
    const auto stamp = parseIso8601(s.substr(digit));
    return stamp ? stamp->time : engine::NoTime;
}

}  // namespace

ReaderStats readPrometheus(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    TimeNs scrape = engine::NoTime;
    PromSample sample;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        if (clean.empty())
            return true;
        if (clean[0] == '#') {
            if (const TimeNs t = commentTime(clean); t != engine::NoTime)
                scrape = t;
            return true;
        }
        if (!parsePrometheusLine(clean, sample)) {
            ++stats.skipped;
            stats.note(raw.number, "not an exposition sample");
            return true;
        }
        const TimeNs time = sample.time != engine::NoTime ? sample.time : scrape;
        Record r = metricRecord(raw, std::move(sample.name), sample.value, time, std::move(sample.labels));
        stats.stamped += time != engine::NoTime ? 1 : 0;
        return sink(r);
    });
    return stats;
}

namespace {

struct CsvLayout {
    int time = -1, host = -1, gpu = -1, metric = -1, value = -1;
    std::vector<std::string> names;  ///< column names as written (units removed)
    std::vector<bool> label;         ///< wide form: identity columns that are labels, not metrics
};

bool isLabelColumn(const std::string& key)
{
    static const char* const names[] = {"device",    "port", "uuid",  "name",     "pci.bus_id",
                                        "serial",    "job",  "jobid", "pod",      "namespace",
                                        "container", "link", "hca",   "interface"};
    for (const char* n : names)
        if (key == n)
            return true;
    return false;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

CsvLayout layoutOf(const std::vector<std::string>& header)
{
    CsvLayout l;
    for (std::size_t i = 0; i < header.size(); ++i) {
        std::string name = header[i];
        if (const auto unit = name.find(" ["); unit != std::string::npos)
            name.resize(unit);  // nvidia-smi: `power.draw [W]`
        const std::string key = lower(name);
        const int col = static_cast<int>(i);
        if (l.time < 0 &&
            (key == "timestamp" || key == "time" || key == "ts" || key == "date" || key == "datetime" ||
             key == "@timestamp"))
            l.time = col;
        else if (l.host < 0 &&
                 (key == "host" || key == "hostname" || key == "node" || key == "instance" || key == "nodename"))
            l.host = col;
        else if (l.gpu < 0 && (key == "gpu" || key == "index" || key == "gpu_index"))
            l.gpu = col;
        else if (key == "metric" || key == "field")
            l.metric = col;
        else if (key == "value")
            l.value = col;
        l.names.push_back(name);
        l.label.push_back(isLabelColumn(key));
    }
    return l;
}

}  // namespace

ReaderStats readMetricCsv(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    CsvLayout layout;
    bool haveHeader = false;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        if (clean.find_first_not_of(" \t,") == std::string_view::npos)
            return true;
        const auto cells = splitCsv(clean);
        if (!haveHeader) {
            layout = layoutOf(cells);
            haveHeader = true;
            return true;
        }
        auto at = [&](int i) {
            return i >= 0 && static_cast<std::size_t>(i) < cells.size() ? cells[i] : std::string();
        };
        const TimeNs time = parseTimeCell(at(layout.time));
        std::map<std::string, std::string> base;
        if (layout.host >= 0)
            base["host"] = at(layout.host);
        if (layout.gpu >= 0)
            base["gpu"] = at(layout.gpu);
        const bool longForm = layout.metric >= 0 && layout.value >= 0;
        for (std::size_t i = 0; i < cells.size() && i < layout.names.size(); ++i) {
            const int col = static_cast<int>(i);
            const bool identity = col == layout.time || col == layout.host || col == layout.gpu ||
                col == layout.metric || col == layout.value;
            if (!identity && (longForm || layout.label[i]))
                base[layout.names[i]] = cells[i];
        }
        bool any = false;
        for (std::size_t i = 0; i < cells.size() && i < layout.names.size(); ++i) {
            const int col = static_cast<int>(i);
            if (col == layout.time || col == layout.host || col == layout.gpu || col == layout.metric)
                continue;
            if ((longForm && col != layout.value) || (!longForm && layout.label[i]))
                continue;
            double value = 0;
            if (!parseNumberCell(cells[i], value))
                continue;
            const std::string name = longForm ? at(layout.metric) : layout.names[i];
            Record r = metricRecord(raw, name, value, time, base);
            any = true;
            stats.stamped += time != engine::NoTime ? 1 : 0;
            if (!sink(r))
                return false;
        }
        if (!any) {
            ++stats.skipped;
            stats.note(raw.number, "CSV row without a numeric value");
        }
        return true;
    });
    return stats;
}

}  // namespace attrib::importers::detail
