// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline-ready arrays built once per analysis (off the GUI thread): per node, its events as marks
// sorted by time (all, node-level, per GPU) and its symptoms as bars.
#pragma once

#include "views/analysis_data.h"
#include "views/timeline/timeline_layout.h"

#include <cmath>
#include <memory>
#include <span>
#include <unordered_map>

namespace attrib::views {

/// A symptom's time span on its node's lane.
struct SymptomBar {
    double start = 0;
    double end = 0;
    int symptom = 0;
    int gpu = -1;
    std::uint8_t domain = 0;
    std::uint8_t role = 0;
};

/// Everything drawn for one node.
struct NodeTrack {
    std::string name;
    std::vector<Mark> all;
    std::vector<Mark> nodeLevel;              ///< events that name no GPU
    std::vector<int> gpus;                    ///< sorted
    std::vector<std::vector<Mark>> gpuMarks;  ///< parallel to gpus
    /// summarizeBlocks of all, nodeLevel and each gpuMarks (dense columns without visiting every mark).
    std::vector<MarkBlockSummary> allBlocks;
    std::vector<MarkBlockSummary> nodeLevelBlocks;
    std::vector<std::vector<MarkBlockSummary>> gpuBlocks;
    std::vector<SymptomBar> bars;  ///< drawing order: weaker roles first
    bool clockCorrected = false;   ///< the engine shifted this node's times (see clockText)
    QString clockText;             ///< "clock +1.20 s ±0.05 s" when an offset was estimated
};

struct TimelineData {
    static constexpr double MinFailureSpan = 0.01;  ///< seconds: a failure at one instant still opens zoomed in
    TimeOrigin origin;
    double minX = 0;
    double maxX = 1;
    double rootX = NAN;  ///< root cause time, NaN without one
    int rootNode = -1;
    int rootGpu = -1;
    /// The failure window: first to last time of an active or demoted symptom (the whole range without any).
    double failStart = 0;
    double failEnd = 1;
    bool hasTimes = false;        ///< false: no event or symptom has a time (nothing to draw, no 1970 axis)
    bool hasInherited = false;    ///< some event's time is inherited from an earlier line (a lower bound)
    bool hasApproximate = false;  ///< some event's time is year-inferred or boot-relative
    bool sinceBoot = false;  ///< every timed event is boot-relative (no boot time known): the axis counts from boot
    std::size_t eventsBeforeFailure = 0;  ///< context outside the opening view, for the info line
    std::vector<NodeTrack> nodes;
    std::vector<std::uint8_t> domainsPresent;  ///< indices into domainNames(), for the legend
    std::size_t eventCount = 0;
    std::size_t untimedEvents = 0;          ///< events without a time are not drawn
    std::vector<std::int32_t> eventNode;    ///< event -> node track (-1: not drawn)
    std::vector<std::int32_t> symptomNode;  ///< symptom -> node track (-1: not drawn)

    static std::shared_ptr<const TimelineData> build(const AnalysisData& analysis);

    bool hasRoot() const { return !std::isnan(rootX); }
    /// The time range the timeline opens on: the failure window with margins (at least MinFailureSpan wide).
    std::pair<double, double> failureView() const;
    /// Marks drawn on a lane of `layout` (built from this data's nodes), with their block summaries.
    struct LaneMarks {
        std::span<const Mark> marks;
        std::span<const MarkBlockSummary> blocks;
    };
    LaneMarks laneMarks(const LaneLayout& layout, int lane) const;
    std::span<const Mark> marks(const LaneLayout& layout, int lane) const { return laneMarks(layout, lane).marks; }
    /// Whether a bar of `node` belongs on `lane`.
    static bool barOnLane(const SymptomBar& bar, const Lane& lane);
    /// Names and GPU lists for LaneLayout::setNodes.
    std::pair<std::vector<std::string>, std::vector<std::vector<int>>> laneNodes() const;
};

using TimelineDataPtr = std::shared_ptr<const TimelineData>;

/// "node-2" < "node-10": digit runs compare by value.
bool naturalLess(const std::string& a, const std::string& b);

}  // namespace attrib::views
