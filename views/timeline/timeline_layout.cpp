// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/timeline_layout.h"

#include "engine/safe_text.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace attrib::views {

TimeMapping TimeMapping::zoomed(double anchorPixel, double factor) const
{
    const double anchor = toSeconds(anchorPixel);
    const double newSpan = span() / factor;
    TimeMapping m = *this;
    m.start = anchor - (anchorPixel - left) / width * newSpan;
    m.end = m.start + newSpan;
    return m;
}

TimeMapping TimeMapping::panned(double dx) const
{
    const double shift = dx / pixelsPerSecond();
    TimeMapping m = *this;
    m.start -= shift;
    m.end -= shift;
    return m;
}

TimeMapping TimeMapping::clampedSpan(double minSpan, double maxSpan) const
{
    const double s = std::clamp(span(), minSpan, maxSpan);
    if (s == span())
        return *this;
    const double centre = (start + end) / 2;
    TimeMapping m = *this;
    m.start = centre - s / 2;
    m.end = centre + s / 2;
    return m;
}

void LaneLayout::setNodes(std::vector<std::string> names, std::vector<std::vector<int>> gpus)
{
    m_names = std::move(names);
    m_gpus = std::move(gpus);
    m_gpus.resize(m_names.size());
    m_expanded.assign(m_names.size(), false);
    rebuild();
}

void LaneLayout::setExpanded(int node, bool expanded)
{
    if (node < 0 || node >= nodeCount() || m_expanded[node] == (expanded && canExpand(node)))
        return;
    m_expanded[node] = expanded && canExpand(node);
    rebuild();
}

void LaneLayout::setAllExpanded(bool expanded)
{
    for (int n = 0; n < nodeCount(); ++n)
        m_expanded[n] = expanded && canExpand(n);
    rebuild();
}

bool LaneLayout::isExpanded(int node) const
{
    return node >= 0 && node < nodeCount() && m_expanded[node];
}

bool LaneLayout::canExpand(int node) const
{
    return node >= 0 && node < nodeCount() && !m_gpus[node].empty();
}

int LaneLayout::laneOf(int node, int gpu) const
{
    if (node < 0 || node >= nodeCount())
        return -1;
    const int first = m_firstLane[node];
    if (!m_expanded[node] || gpu < 0)
        return first;
    const auto& list = m_gpus[node];
    auto it = std::lower_bound(list.begin(), list.end(), gpu);
    return it != list.end() && *it == gpu ? first + 1 + static_cast<int>(it - list.begin()) : first;
}

int LaneLayout::laneAt(double value) const
{
    if (!(value >= 0) || value >= laneCount())
        return -1;
    return static_cast<int>(value);
}

QString LaneLayout::label(int index) const
{
    const Lane& l = m_lanes[index];
    if (l.gpu >= 0)
        return QStringLiteral("GPU %1").arg(l.gpu);
    // Node names come from the bundle: controls shown as escapes (they would also make the SVG export invalid XML).
    QString name = QString::fromStdString(engine::terminalSafe(m_names[l.node]));
    if (canExpand(l.node))
        name += l.expanded ? QStringLiteral(" \u25BE") : QStringLiteral(" \u25B8");
    return name;
}

void LaneLayout::rebuild()
{
    m_lanes.clear();
    m_firstLane.assign(m_names.size(), 0);
    for (int n = 0; n < nodeCount(); ++n) {
        m_firstLane[n] = laneCount();
        m_lanes.push_back({n, -1, static_cast<bool>(m_expanded[n])});
        if (m_expanded[n]) {
            for (int gpu : m_gpus[n])
                m_lanes.push_back({n, gpu, false});
        }
    }
}

double LaneViewport::clampTop(double top, int laneCount, double heightPx) const
{
    const double maxTop = std::max(0.0, laneCount - visibleLanes(heightPx));
    return std::clamp(top, 0.0, maxTop);
}

double niceTimeStep(double span, int targetTicks)
{
    const double raw = span / std::max(1, targetTicks);
    if (!(raw > 0))
        return 1;
    if (raw < 1) {
        const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        for (double m : {1.0, 2.0, 5.0, 10.0}) {
            if (m * magnitude >= raw * (1 - 1e-9))
                return std::max(1e-9, m * magnitude);
        }
    }
    static constexpr double Steps[] = {1,   2,   5,    10,   15,   30,    60,    120,   300,
                                       600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    for (double s : Steps) {
        if (s >= raw * (1 - 1e-9))
            return s;
    }
    const double days = raw / 86400;
    const double magnitude = std::pow(10.0, std::floor(std::log10(days)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= days)
            return m * magnitude * 86400;
    }
    return raw;
}

namespace {

int decimalsFor(double step)
{
    if (step >= 1)
        return 0;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 9);
}

}  // namespace

QString formatUtcTick(engine::TimeNs origin, double seconds, double step)
{
    const engine::TimeNs t = origin + std::llround(seconds * 1e9);
    const engine::TimeNs secs = t >= 0 ? t / engine::NsPerSec : (t - engine::NsPerSec + 1) / engine::NsPerSec;
    const engine::TimeNs frac = t - secs * engine::NsPerSec;
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC);
    QString label = dt.toString(step >= 86400 ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm:ss"));
    const int decimals = decimalsFor(step);
    if (decimals > 0) {
        const QString digits = QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0'));
        label += QLatin1Char('.') + digits.left(decimals);
    }
    return label;
}

QString formatRelativeTick(double seconds, double step)
{
    const double tolerance = step * 1e-6;
    if (std::abs(seconds) <= tolerance)
        return QStringLiteral("0 s");
    const QString sign = seconds < 0 ? QStringLiteral("\u2212") : QStringLiteral("+");
    const double a = std::abs(seconds);
    if (step < 60)
        return sign + QString::number(a, 'f', decimalsFor(step)) + QStringLiteral(" s");
    const long long total = std::llround(a);
    QStringList parts;
    if (total / 3600 > 0)
        parts << QStringLiteral("%1 h").arg(total / 3600);
    if (total % 3600 / 60 > 0)
        parts << QStringLiteral("%1 min").arg(total % 3600 / 60);
    if (total % 60 > 0)
        parts << QStringLiteral("%1 s").arg(total % 60);
    return sign + parts.join(QLatin1Char(' '));
}

std::pair<std::size_t, std::size_t> visibleRange(std::span<const Mark> marks, const TimeMapping& map, double marginPx)
{
    const double margin = marginPx / map.pixelsPerSecond();
    const double lo = map.start - margin;
    const double hi = map.end + margin;
    auto first = std::lower_bound(marks.begin(), marks.end(), lo, [](const Mark& m, double v) { return m.x < v; });
    auto last = std::upper_bound(first, marks.end(), hi, [](double v, const Mark& m) { return v < m.x; });
    return {static_cast<std::size_t>(first - marks.begin()), static_cast<std::size_t>(last - marks.begin())};
}

std::vector<MarkBlockSummary> summarizeBlocks(std::span<const Mark> marks)
{
    std::vector<MarkBlockSummary> blocks((marks.size() + MarkBlock - 1) / MarkBlock);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        std::size_t best = b * MarkBlock;
        const std::size_t end = std::min(marks.size(), best + MarkBlock);
        for (std::size_t i = best + 1; i < end; ++i)
            if (marks[i].role > marks[best].role)
                best = i;
        blocks[b] = {marks[b * MarkBlock].x, static_cast<std::uint32_t>(best), marks[best].role};
    }
    return blocks;
}

namespace {

/// Column bins built left to right; within a column the first mark with the highest role is the strongest.
class ColumnAggregator {
public:
    ColumnAggregator(std::span<const Mark> marks, const TimeMapping& map)
        : m_marks(marks)
        , m_column(map)
        , m_width(static_cast<long>(std::ceil(map.width)))
    {
    }
    long column(double seconds) const { return m_column(seconds); }
    void addMark(std::size_t i) { add(m_column(m_marks[i].x), 1, i, m_marks[i].role); }
    void addBlock(long column, const MarkBlockSummary& block)
    {
        add(column, static_cast<std::uint32_t>(MarkBlock), block.strongest, block.role);
    }
    std::vector<ColumnBin> take() { return std::move(m_bins); }

private:
    void add(long column, std::uint32_t count, std::size_t strongest, std::uint8_t role)
    {
        if (column < 0 || column >= m_width)
            return;
        if (m_bins.empty() || m_bins.back().column != column) {
            m_bins.push_back({column, count, static_cast<std::uint32_t>(strongest)});
            m_role = role;
            return;
        }
        m_bins.back().count += count;
        if (role > m_role) {
            m_bins.back().strongest = static_cast<std::uint32_t>(strongest);
            m_role = role;
        }
    }

    std::span<const Mark> m_marks;
    ColumnOf m_column;
    long m_width;
    std::vector<ColumnBin> m_bins;
    std::uint8_t m_role = 0;  ///< role of the last bin's strongest mark
};

}  // namespace

std::vector<ColumnBin> aggregateColumns(std::span<const Mark> marks, const TimeMapping& map,
                                        std::span<const MarkBlockSummary> blocks)
{
    ColumnAggregator columns(marks, map);
    const auto [first, last] = visibleRange(marks, map, 0);
    std::size_t i = first;
    if (blocks.size() * MarkBlock >= marks.size() && !marks.empty()) {
        for (; i < last && i % MarkBlock != 0; ++i)
            columns.addMark(i);
        long nextStart = 0;  // the column where the next block starts, once known
        bool nextKnown = false;
        for (; i + MarkBlock <= last; i += MarkBlock) {
            // A block lies within one column when it and the next block start in the same one.
            const std::size_t k = i / MarkBlock;
            const long column = nextKnown ? nextStart : columns.column(blocks[k].firstX);
            nextKnown = k + 1 < blocks.size();
            nextStart = columns.column(nextKnown ? blocks[k + 1].firstX : marks[i + MarkBlock - 1].x);
            if (column == nextStart) {
                columns.addBlock(column, blocks[k]);
                continue;
            }
            for (std::size_t j = i; j < i + MarkBlock; ++j)
                columns.addMark(j);
        }
    }
    for (; i < last; ++i)
        columns.addMark(i);
    return columns.take();
}

long nearestMark(std::span<const Mark> marks, const TimeMapping& map, double pixelX, double tolerancePx)
{
    const double pps = map.pixelsPerSecond();
    const double x = map.toSeconds(pixelX);
    const double tol = tolerancePx / pps;
    auto first = std::lower_bound(marks.begin(), marks.end(), x - tol, [](const Mark& m, double v) { return m.x < v; });
    long best = -1;
    double bestPx = 0;
    for (auto it = first; it != marks.end() && it->x <= x + tol; ++it) {
        const double px = std::abs(it->x - x) * pps;
        // Within a pixel of each other, the mark that matters more (root cause, active) wins.
        const bool closer = px < bestPx - 1;
        const bool tie = std::abs(px - bestPx) <= 1;
        if (best < 0 || closer || (tie && it->role > marks[best].role) ||
            (tie && it->role == marks[best].role && px < bestPx)) {
            best = static_cast<long>(it - marks.begin());
            bestPx = px;
        }
    }
    return best;
}

}  // namespace attrib::views
