// SPDX-License-Identifier: GPL-3.0-or-later
// A local analysis as the Service's input: the context and the observations the analysis kept.
#include "service/core/observation_document.h"

#include "engine/json_util.h"

#include <nlohmann/json.hpp>

namespace attrib::service {

namespace {

using nlohmann::json;

const char* timeSourceName(engine::TimeSource s)
{
    switch (s) {
    case engine::TimeSource::YearInferred: return "year-inferred";
    case engine::TimeSource::BootRelative: return "boot-relative";
    case engine::TimeSource::Inherited: return "inherited";
    default: return "absolute";
    }
}

json contextJson(const engine::ExecutionContext& c)
{
    json j = json::object();
    if (!c.workloadId.empty())
        j["id"] = c.workloadId;
    j["scheduler"] = c.scheduler;
    if (!c.platform.empty())
        j["platform"] = c.platform;
    if (c.start != engine::NoTime)
        j["start"] = engine::formatTime(c.start);
    if (c.end != engine::NoTime)
        j["end"] = engine::formatTime(c.end);
    j["nodes"] = c.nodes;
    return j;
}

json observationJson(const engine::AnalysisResult& r, const engine::Observation& o)
{
    json j = json::object();
    j["source"] = engine::toString(o.kind);
    if (!o.node.empty())
        j["node"] = o.node;
    j["rank"] = o.rank;
    j["gpu"] = o.gpu;
    if (o.time != engine::NoTime) {
        j["time_ns"] = o.time;
        j["time_source"] = timeSourceName(o.timeSource);
    }
    if (o.source.file < r.files.size())
        j["file"] = r.files[o.source.file].path;
    j["line"] = o.source.line;
    if (!o.sample->metric.empty()) {
        j["metric"] = o.sample->metric;
        j["value"] = o.sample->value;
    } else {
        j["text"] = o.text;
    }
    if (!o.sample->labels.empty())
        j["labels"] = o.sample->labels;
    return j;
}

}  // namespace

ObservationDocument exportObservations(const engine::AnalysisResult& result)
{
    ObservationDocument doc;
    doc.hasContext = true;
    doc.ndjson = json{{"context", contextJson(result.context)}}.dump() + "\n";
    for (const auto& o : result.observations) {
        doc.ndjson += observationJson(result, o).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        ++doc.observations;
    }
    return doc;
}

}  // namespace attrib::service
