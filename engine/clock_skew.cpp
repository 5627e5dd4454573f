// SPDX-License-Identifier: GPL-3.0-or-later
// Clock-skew estimation from anchor events named by the catalog (rules/data/clock_anchors.json): events that
// happen at one instant on every node (within the anchor's jitter), so the median per node, compared with the
// median over nodes, measures that node's clock offset.
#include "engine/clock_skew.h"

#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace attrib::engine {

namespace {

TimeNs median(std::vector<TimeNs> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

using NodeTimes = std::map<std::string, std::vector<TimeNs>>;

struct AnchorTimes {
    NodeTimes nodes;
    TimeNs jitter = 0;
};

/// anchor label -> node -> each rank's earliest time.
std::map<std::string, AnchorTimes> collectAnchors(const std::vector<Event>& events,
                                                  const std::vector<ClockAnchor>& anchors)
{
    std::map<std::string, std::map<std::pair<std::string, int>, TimeNs>> perRank;
    std::map<std::string, TimeNs> jitter;
    for (const auto& e : events) {
        if (e.node.empty() || e.time == NoTime ||
            (e.timeSource != TimeSource::Absolute && e.timeSource != TimeSource::YearInferred))
            continue;
        for (const auto& anchor : anchors) {
            if (e.type != anchor.event)
                continue;
            AttrMap values;
            for (const auto& k : anchor.key)
                values[k] = eventAttr(e, k.c_str());
            const std::string key = expandTemplate(anchor.label, values);
            jitter[key] = anchor.jitter;
            auto [it, inserted] = perRank[key].emplace(std::make_pair(e.node, e.rank), e.time);
            if (!inserted)
                it->second = std::min(it->second, e.time);
        }
    }
    std::map<std::string, AnchorTimes> out;
    for (const auto& [key, ranks] : perRank) {
        out[key].jitter = jitter[key];
        for (const auto& [nodeRank, time] : ranks)
            out[key].nodes[nodeRank.first].push_back(time);
    }
    return out;
}

}  // namespace

std::vector<ClockAnchor> clockAnchors(const nlohmann::json* data)
{
    std::vector<ClockAnchor> out;
    if (!data)
        return out;
    for (const auto& a : data->value("anchors", nlohmann::json::array())) {
        if (!a.is_object() || !a.value("event", nlohmann::json()).is_string())
            continue;
        ClockAnchor anchor;
        anchor.event = a["event"].get<std::string>();
        anchor.key = stringsAt(a, "key");
        anchor.label = a.value("label", anchor.event);
        const double jitterMs = a.value("jitter_ms", 100.0);
        anchor.jitter = static_cast<TimeNs>(std::clamp(jitterMs, 0.0, 3600e3) * static_cast<double>(NsPerMs));
        out.push_back(std::move(anchor));
    }
    return out;
}

std::vector<ClockOffset> estimateClockOffsets(const std::vector<Event>& events, const std::vector<ClockAnchor>& anchors,
                                              TraceSink& trace)
{
    std::map<std::string, std::vector<std::pair<TimeNs, std::string>>> measured;  // node -> (offset, anchor)
    std::map<std::string, TimeNs> nodeJitter;
    for (const auto& [key, anchor] : collectAnchors(events, anchors)) {
        const NodeTimes& nodes = anchor.nodes;
        if (nodes.size() < 2)
            continue;
        std::vector<TimeNs> nodeMedians;
        for (const auto& [node, times] : nodes)
            nodeMedians.push_back(median(times));
        const TimeNs reference = median(nodeMedians);
        for (const auto& [node, nodeTimes] : nodes) {
            measured[node].emplace_back(reference - median(nodeTimes), key);
            nodeJitter[node] = std::max(nodeJitter[node], anchor.jitter);
        }
    }
    std::vector<ClockOffset> out;
    for (const auto& [node, values] : measured) {
        ClockOffset o;
        o.node = node;
        std::vector<TimeNs> offsets;
        for (const auto& [offset, anchor] : values)
            offsets.push_back(offset);
        o.offset = median(offsets);
        const TimeNs jitter = nodeJitter[node];
        o.uncertainty = jitter;
        for (TimeNs v : offsets)
            o.uncertainty = std::max<TimeNs>(o.uncertainty, std::llabs(v - o.offset) + jitter);
        o.anchor =
            values.front().second + (values.size() > 1 ? " (+" + std::to_string(values.size() - 1) + " more)" : "");
        o.applied = std::llabs(o.offset) >= ClockApplyThreshold;
        TraceStep step;
        step.phase = TracePhase::Clock;
        step.rule = "EstimateClockSkew";
        step.action = o.applied ? TraceAction::ApplyOffset : TraceAction::MeasureOffset;
        step.fired = o.applied;
        step.node = node;
        char buf[96];
        std::snprintf(buf, sizeof buf, "%+.3f s +/- %.3f s", static_cast<double>(o.offset) / 1e9,
                      static_cast<double>(o.uncertainty) / 1e9);
        step.summary = node + " clock offset " + buf + (o.applied ? " applied" : " (within jitter, not applied)") +
            " from " + o.anchor;
        step.details["offset"] = buf;
        step.details["anchor"] = o.anchor;
        trace.record(std::move(step));
        out.push_back(std::move(o));
    }
    return out;
}

void applyClockOffsets(std::vector<Event>& events, const std::vector<ClockOffset>& offsets)
{
    std::map<std::string, TimeNs> shift;
    for (const auto& o : offsets)
        if (o.applied)
            shift[o.node] = o.offset;
    if (shift.empty())
        return;
    for (auto& e : events) {
        auto it = shift.find(e.node);
        if (it != shift.end() && e.time != NoTime && e.timeSource != TimeSource::BootRelative)
            e.time += it->second;
    }
}

}  // namespace attrib::engine
