// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's maths without widgets: time <-> pixel mapping, lane layout, tick steps and labels,
// and per-pixel-column aggregation of dense markers. Tested on its own (tests/views/tst_timeline_layout).
#pragma once

#include "engine/model.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace attrib::views {

/// One event on the timeline: x in seconds from the timeline's origin. Sorted by x within a lane.
struct Mark {
    double x = 0;
    std::uint32_t event = 0;  ///< index into AnalysisResult::events
    std::uint8_t domain = 0;  ///< index into domainNames()
    std::uint8_t role = 0;    ///< EvidenceRole
    std::uint8_t time = 0;    ///< engine::TimeSource: inherited and approximate times are drawn differently
};

/// Seconds (double, relative to `origin`) <-> engine time (ns).
struct TimeOrigin {
    engine::TimeNs origin = 0;
    double toSeconds(engine::TimeNs t) const { return static_cast<double>(t - origin) / 1e9; }
    engine::TimeNs toTime(double seconds) const { return origin + static_cast<engine::TimeNs>(seconds * 1e9); }
};

/// A visible time range [start, end] (seconds) drawn over pixels [left, left + width).
struct TimeMapping {
    double start = 0;
    double end = 1;
    double left = 0;
    double width = 1;

    double span() const { return end - start; }
    double pixelsPerSecond() const { return width / span(); }
    double toPixel(double seconds) const { return left + (seconds - start) * pixelsPerSecond(); }
    double toSeconds(double pixel) const { return start + (pixel - left) / pixelsPerSecond(); }
    /// Pixel column (0-based from `left`) of a time; may be outside [0, width). Many columns: use ColumnOf.
    long column(double seconds) const;
    /// Zoom by `factor` (> 1 zooms in) keeping the time under `anchorPixel` in place.
    TimeMapping zoomed(double anchorPixel, double factor) const;
    /// Moves the content by `dx` pixels (positive drags the content to the right).
    TimeMapping panned(double dx) const;
    /// Keeps the span within [minSpan, maxSpan] around the centre.
    TimeMapping clampedSpan(double minSpan, double maxSpan) const;
};

/// TimeMapping::column with the scale worked out once, for asking many times (a dense replot asks about twice per
/// block of marks): the one place that says which column a time falls in.
struct ColumnOf {
    explicit ColumnOf(const TimeMapping& map)
        : start(map.start)
        , pps(map.pixelsPerSecond())
        , high(map.width + 2.0)
    {
    }
    long operator()(double seconds) const
    {
        return static_cast<long>(std::clamp(std::floor((seconds - start) * pps), -2.0, high));
    }
    double start;
    double pps;
    double high;
};

inline long TimeMapping::column(double seconds) const
{
    return ColumnOf(*this)(seconds);
}

/// A lane: a node, or one GPU of an expanded node (gpu -1 is the node's own lane).
struct Lane {
    int node = 0;
    int gpu = -1;
    bool expanded = false;  ///< a node lane whose GPU sub-lanes follow
};

/// Lanes top to bottom: one per node; an expanded node is followed by one sub-lane per GPU.
/// Lane i occupies values [i, i + 1) on the vertical axis.
class LaneLayout {
public:
    void setNodes(std::vector<std::string> names, std::vector<std::vector<int>> gpus);
    void setExpanded(int node, bool expanded);
    void setAllExpanded(bool expanded);
    bool isExpanded(int node) const;
    bool canExpand(int node) const;

    int nodeCount() const { return static_cast<int>(m_names.size()); }
    const std::string& nodeName(int node) const { return m_names[node]; }
    const std::vector<int>& gpus(int node) const { return m_gpus[node]; }
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    const Lane& lane(int index) const { return m_lanes[index]; }
    /// The lane that shows events of (node, gpu): the GPU's sub-lane when expanded, else the node lane.
    int laneOf(int node, int gpu) const;
    /// Lane at a vertical axis value, or -1.
    int laneAt(double value) const;
    QString label(int lane) const;

private:
    void rebuild();

    std::vector<std::string> m_names;
    std::vector<std::vector<int>> m_gpus;
    std::vector<bool> m_expanded;
    std::vector<Lane> m_lanes;
    std::vector<int> m_firstLane;  ///< node -> its lane
};

/// Vertical scrolling in whole-lane units with a fixed lane height in pixels.
struct LaneViewport {
    double laneHeight = 26;
    double visibleLanes(double heightPx) const { return heightPx / laneHeight; }
    /// Clamps the first visible lane so the view never scrolls past the last lane.
    double clampTop(double top, int laneCount, double heightPx) const;
};

/// A readable tick step (1-2-5 below a second, then 1 s .. 1 day steps) for about `targetTicks` ticks.
double niceTimeStep(double span, int targetTicks);
/// Wall-clock label for a tick: `21:34:20`, `21:34:20.250`, `21:34:20.000125` depending on `step`.
QString formatUtcTick(engine::TimeNs origin, double seconds, double step);
/// Label relative to a reference: `+0 s`, `-1.5 s`, `+2 min`, `+1 h 30 min`.
QString formatRelativeTick(double seconds, double step);

/// Marks within [start, end] of the mapping, widened by `marginPx` on both sides (binary search).
std::pair<std::size_t, std::size_t> visibleRange(std::span<const Mark> marks, const TimeMapping& map, double marginPx);

/// One pixel column holding one or more marks.
struct ColumnBin {
    long column = 0;
    std::uint32_t count = 0;
    std::uint32_t strongest = 0;  ///< index (into the span) of the mark with the highest role
};
/// Marks per block of a lane's block summary (see summarizeBlocks).
inline constexpr std::size_t MarkBlock = 16;
/// One block of MarkBlock consecutive marks: where it starts and its strongest mark (the first with the highest
/// role). Compact and sequential, so that a dense lane is aggregated per block, not per mark.
struct MarkBlockSummary {
    double firstX = 0;
    std::uint32_t strongest = 0;  ///< index into the lane's marks
    std::uint8_t role = 0;        ///< that mark's role
};
/// The block summaries of a lane's marks; built once with the timeline data (off the GUI thread).
std::vector<MarkBlockSummary> summarizeBlocks(std::span<const Mark> marks);
/// Aggregates marks per pixel column (for dense lanes), columns in [0, width). With `blocks` (summarizeBlocks of
/// these very marks) a block that lies within one column is added whole, so the cost is O(visible marks /
/// MarkBlock + columns x MarkBlock) instead of O(visible marks); the bins are the same either way.
std::vector<ColumnBin> aggregateColumns(std::span<const Mark> marks, const TimeMapping& map,
                                        std::span<const MarkBlockSummary> blocks = {});
/// Index of the mark nearest to `pixelX` within `tolerancePx` (within a pixel, the higher role wins), or -1.
long nearestMark(std::span<const Mark> marks, const TimeMapping& map, double pixelX, double tolerancePx);

}  // namespace attrib::views
