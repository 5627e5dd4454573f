// SPDX-License-Identifier: GPL-3.0-or-later
// Clock-skew estimation. Anchor: PyTorch watchdog timeouts for one (SeqNum, OpType, Timeout). Every rank that
// reached the collective times out Timeout(ms) after it started, within ~100 ms of the others, so the median
// per node, compared with the median over nodes, measures that node's clock offset.
#include "engine/clock_skew.h"

#include "engine/json_util.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace attrib::engine {

namespace {

constexpr TimeNs AnchorJitter = 100 * NsPerMs;

TimeNs median(std::vector<TimeNs> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string attr(const Event& e, const char* key)
{
    auto it = e.attrs.find(key);
    return it == e.attrs.end() ? std::string() : it->second;
}

using NodeTimes = std::map<std::string, std::vector<TimeNs>>;

/// anchor key -> node -> each rank's earliest timeout time.
std::map<std::string, NodeTimes> collectAnchors(const std::vector<Event>& events)
{
    std::map<std::string, std::map<std::pair<std::string, int>, TimeNs>> perRank;
    for (const auto& e : events) {
        if (e.type != "watchdog_timeout" || e.node.empty() || e.time == NoTime ||
            (e.timeSource != TimeSource::Absolute && e.timeSource != TimeSource::YearInferred))
            continue;
        const std::string key = "watchdog SeqNum " + attr(e, "seq") + " " + attr(e, "op");
        auto [it, inserted] = perRank[key].emplace(std::make_pair(e.node, e.rank), e.time);
        if (!inserted)
            it->second = std::min(it->second, e.time);
    }
    std::map<std::string, NodeTimes> anchors;
    for (const auto& [key, ranks] : perRank)
        for (const auto& [nodeRank, time] : ranks)
            anchors[key][nodeRank.first].push_back(time);
    return anchors;
}

}  // namespace

std::vector<ClockOffset> estimateClockOffsets(const std::vector<Event>& events, TraceSink& trace)
{
    std::map<std::string, std::vector<std::pair<TimeNs, std::string>>> measured;  // node -> (offset, anchor)
    for (const auto& [key, nodes] : collectAnchors(events)) {
        if (nodes.size() < 2)
            continue;
        std::vector<TimeNs> nodeMedians;
        for (const auto& [node, times] : nodes)
            nodeMedians.push_back(median(times));
        const TimeNs reference = median(nodeMedians);
        for (const auto& [node, times] : nodes)
            measured[node].emplace_back(reference - median(times), key);
    }
    std::vector<ClockOffset> out;
    for (const auto& [node, values] : measured) {
        ClockOffset o;
        o.node = node;
        std::vector<TimeNs> offsets;
        for (const auto& [offset, anchor] : values)
            offsets.push_back(offset);
        o.offset = median(offsets);
        o.uncertainty = AnchorJitter;
        for (TimeNs v : offsets)
            o.uncertainty = std::max<TimeNs>(o.uncertainty, std::llabs(v - o.offset) + AnchorJitter);
        o.anchor =
            values.front().second + (values.size() > 1 ? " (+" + std::to_string(values.size() - 1) + " more)" : "");
        o.applied = std::llabs(o.offset) >= ClockApplyThreshold;
        TraceStep step;
        step.phase = "clock";
        step.rule = "EstimateClockSkew";
        step.action = o.applied ? "apply-offset" : "measure-offset";
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
