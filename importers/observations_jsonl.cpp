// SPDX-License-Identifier: GPL-3.0-or-later
// observations.jsonl: pre-normalized observations, one JSON object per line (the Service's input format, see
// docs/observations.md). An optional {"context": {...}} line carries the workload (workload.json fields).
#include "importers/json_spans.h"
#include "importers/records.h"
#include "importers/timestamps.h"

#include "engine/json_util.h"

namespace attrib::importers::detail {

namespace {

TimeSource timeSourceOf(const std::string& s, TimeNs time)
{
    if (time == engine::NoTime)
        return TimeSource::None;
    if (s == "year-inferred")
        return TimeSource::YearInferred;
    if (s == "boot-relative")
        return TimeSource::BootRelative;
    if (s == "inherited")
        return TimeSource::Inherited;
    return TimeSource::Absolute;
}

TimeNs timeOf(const nlohmann::json& j)
{
    const nlohmann::json& ns = jsonMember(j, "time_ns");
    if (ns.is_number_integer()) {  // up to year ~2190; beyond, time arithmetic would overflow
        const TimeNs t = ns.get<TimeNs>();
        return t >= 0 && t < 7'000'000'000'000'000'000LL ? t : engine::NoTime;
    }
    return isoTime(jsonString(j, "time"));
}

void contextRecord(const nlohmann::json& c, Record& r)
{
    r.kind = SourceKind::Accounting;
    const char* keys[][2] = {{"id", "context.job"},
                             {"scheduler", "context.scheduler"},
                             {"start", "context.start"},
                             {"end", "context.end"},
                             {"platform", "context.platform"}};
    for (const auto& [from, to] : keys)
        if (const std::string v = jsonString(c, from); !v.empty())
            r.labels[to] = v;
    std::string nodes;
    for (const auto& n : jsonMember(c, "nodes"))
        if (n.is_string())
            nodes += (nodes.empty() ? "" : ",") + n.get<std::string>();
    if (!nodes.empty())
        r.labels["context.nodes"] = nodes;
}

bool observationRecord(const nlohmann::json& j, Record& r, std::string& problem)
{
    const auto kind = engine::sourceKindFromString(jsonString(j, "source"));
    if (!kind) {
        problem = "unknown source kind '" + jsonString(j, "source") + "'";
        return false;
    }
    r.kind = *kind;
    r.host = jsonString(j, "node");
    r.rank = static_cast<int>(jsonInt(jsonMember(j, "rank"), -1));
    r.gpu = static_cast<int>(jsonInt(jsonMember(j, "gpu"), -1));
    r.time = timeOf(j);
    r.timeSource = timeSourceOf(jsonString(j, "time_source"), r.time);
    for (const auto& [k, v] : jsonMember(j, "labels").items())
        if (v.is_string())
            r.labels[k] = v.get<std::string>();
    if (const std::string file = jsonString(j, "file"); !file.empty())
        r.labels["origin.file"] = file;
    if (const long long line = jsonInt(jsonMember(j, "line"), -1); line >= 0)
        r.labels["origin.line"] = std::to_string(line);
    if (j.contains("metric")) {
        const nlohmann::json& value = jsonMember(j, "value");
        if (!value.is_number()) {
            problem = "metric without a numeric value";
            return false;
        }
        r.isMetric = true;
        r.metric = jsonString(j, "metric");
        r.value = value.get<double>();
        return !r.metric.empty();
    }
    r.text = jsonString(j, "text");
    return true;
}

}  // namespace

ReaderStats readObservationsJsonl(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        if (clean.find_first_not_of(" \t") == std::string_view::npos)
            return true;
        const nlohmann::json j = nlohmann::json::parse(clean, nullptr, false);
        Record r = lineRecord(raw);
        std::string problem = "not a JSON object";
        bool ok = false;
        if (!j.is_discarded() && j.is_object()) {
            try {
                if (j.contains("context")) {
                    contextRecord(jsonMember(j, "context"), r);
                    ok = true;
                } else {
                    ok = observationRecord(j, r, problem);
                }
            } catch (const std::exception& e) {
                problem = e.what();
                ok = false;
            }
        }
        if (!ok) {
            ++stats.skipped;
            stats.note(raw.number, problem);
            return true;
        }
        stats.stamped += r.time != engine::NoTime ? 1 : 0;
        return sink(r);
    });
    return stats;
}

}  // namespace attrib::importers::detail
