// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/event_lanes_plottable.h"

#include "views/presentation.h"

#include <cmath>

namespace attrib::views {

namespace {

constexpr int RoleCount = 6;
constexpr double MarkerRadius = 3.6;

int alphaFor(EvidenceRole role)
{
    switch (role) {
    case EvidenceRole::RootCause:
    case EvidenceRole::Active: return 255;
    case EvidenceRole::Interesting: return 150;
    case EvidenceRole::Demoted: return 90;
    case EvidenceRole::Scrubbed: return 60;
    case EvidenceRole::Context: return 190;
    }
    return 255;
}

int barAlphaFor(EvidenceRole role)
{
    switch (role) {
    case EvidenceRole::RootCause:
    case EvidenceRole::Active: return 175;
    case EvidenceRole::Interesting: return 105;
    case EvidenceRole::Demoted: return 60;
    case EvidenceRole::Scrubbed:
    case EvidenceRole::Context: return 40;
    }
    return 100;
}

const QColor RootColor = QColor::fromRgb(0xc62828);

}  // namespace

EventLanesPlottable::EventLanesPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
    const QStringList domains = domainNames();
    for (const QString& d : domains) {
        m_shapes.push_back(domainShape(d));
        for (int role = 0; role < RoleCount; ++role) {
            QColor c = domainColor(d);
            c.setAlpha(alphaFor(static_cast<EvidenceRole>(role)));
            m_colors.push_back(c);
            c.setAlpha(barAlphaFor(static_cast<EvidenceRole>(role)));
            m_barColors.push_back(c);
        }
    }
    m_lines.resize(m_colors.size());
    m_points.resize(m_colors.size());
}

void EventLanesPlottable::setContent(AnalysisPtr analysis, TimelineDataPtr data, const LaneLayout* layout)
{
    m_analysis = std::move(analysis);
    m_data = std::move(data);
    m_layout = layout;
    m_selectedEvent = -1;
    m_selectedSymptom = -1;
}

TimeMapping EventLanesPlottable::mapping() const
{
    const QRect r = mKeyAxis->axisRect()->rect();
    const QCPRange range = mKeyAxis->range();
    return {range.lower, range.upper, static_cast<double>(r.left()), static_cast<double>(std::max(1, r.width()))};
}

EventLanesPlottable::LaneGeometry EventLanesPlottable::laneGeometry(int lane) const
{
    const double a = mValueAxis->coordToPixel(lane);
    const double b = mValueAxis->coordToPixel(lane + 1);
    return {std::min(a, b), std::abs(b - a)};
}

double EventLanesPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1;  // clicks are resolved by TimelinePlot against lanes, not by QCP's selection machinery
}

QCPRange EventLanesPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_data != nullptr;
    return m_data ? QCPRange(m_data->minX, m_data->maxX) : QCPRange();
}

QCPRange EventLanesPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_layout != nullptr;
    return m_layout ? QCPRange(0, std::max(1, m_layout->laneCount())) : QCPRange();
}

void EventLanesPlottable::drawLegendIcon(QCPPainter*, const QRectF&) const { }

void EventLanesPlottable::draw(QCPPainter* painter)
{
    m_stats = {};
    if (!m_data || !m_layout || m_layout->laneCount() == 0)
        return;
    const TimeMapping map = mapping();
    const QCPRange vr = mValueAxis->range();
    const int first = std::max(0, static_cast<int>(std::floor(vr.lower)));
    const int last = std::min(m_layout->laneCount() - 1, static_cast<int>(std::ceil(vr.upper)));
    drawStripes(painter, first, last);
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (int lane = first; lane <= last; ++lane)
        drawBars(painter, lane, map);
    for (auto& v : m_lines)
        v.clear();
    for (auto& v : m_points)
        v.clear();
    m_rootPoints.clear();
    m_uncertain.clear();
    for (int lane = first; lane <= last; ++lane)
        drawMarks(painter, lane, map);
    flushBatches(painter, true);
    flushBatches(painter, false);
    drawUncertain(painter);
    drawRootLine(painter, map);
    drawCauseArrow(painter, map);
    drawSelection(painter, map);
    m_stats.lanesDrawn = static_cast<std::size_t>(std::max(0, last - first + 1));
}

void EventLanesPlottable::drawStripes(QCPPainter* painter, int first, int last) const
{
    const QRect area = mKeyAxis->axisRect()->rect();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    for (int lane = first; lane <= last; ++lane) {
        const Lane& l = m_layout->lane(lane);
        const LaneGeometry g = laneGeometry(lane);
        QColor fill = l.node % 2 ? QColor::fromRgb(0xf3f5f8) : QColor(Qt::white);
        if (l.expanded)
            fill = QColor::fromRgb(0xe8ecf1);
        else if (l.gpu >= 0)
            fill = QColor::fromRgb(0xfafbfc);
        painter->fillRect(QRectF(area.left(), g.top, area.width(), g.height), fill);
        if (l.gpu < 0) {
            painter->setPen(QPen(QColor::fromRgb(0xd5dae0), 1));
            painter->drawLine(QPointF(area.left(), g.top), QPointF(area.right(), g.top));
            painter->setPen(Qt::NoPen);
        }
    }
}

QRectF EventLanesPlottable::barRect(const SymptomBar& bar, const TimeMapping& map, const LaneGeometry& g) const
{
    const double lo = map.left - 20;
    const double hi = map.left + map.width + 20;
    const double x0 = std::clamp(map.toPixel(bar.start), lo, hi);
    const double x1 = std::clamp(std::max(map.toPixel(bar.end), map.toPixel(bar.start) + 5), lo, hi);
    const QRectF band = g.barBand();
    return {x0, band.top(), x1 - x0, band.height()};
}

void EventLanesPlottable::drawBars(QCPPainter* painter, int lane, const TimeMapping& map) const
{
    const Lane& l = m_layout->lane(lane);
    const LaneGeometry g = laneGeometry(lane);
    const double margin = 5 / map.pixelsPerSecond();
    for (const SymptomBar& bar : m_data->nodes[l.node].bars) {
        if (!TimelineData::barOnLane(bar, l) || bar.end < map.start - margin || bar.start > map.end)
            continue;
        const QRectF rect = barRect(bar, map, g);
        if (rect.width() <= 0)
            continue;
        const auto role = static_cast<EvidenceRole>(bar.role);
        painter->setBrush(m_barColors[bar.domain * RoleCount + bar.role]);
        painter->setPen(role == EvidenceRole::RootCause ? QPen(RootColor, 1.6) : QPen(Qt::NoPen));
        painter->drawRoundedRect(rect, 2, 2);
    }
}

void EventLanesPlottable::drawMarks(QCPPainter*, int lane, const TimeMapping& map)
{
    const auto [marks, blocks] = m_data->laneMarks(*m_layout, lane);
    const auto [first, last] = visibleRange(marks, map, MarkerRadius + 1);
    const std::size_t n = last - first;
    m_stats.marksVisited += n;
    const LaneGeometry g = laneGeometry(lane);
    if (static_cast<double>(n) * 6 > map.width) {
        ++m_stats.denseLanes;
        drawDense(marks, blocks, map, g.markerY(), g.height);
    } else {
        drawSparse(marks, first, last, map, g.markerY());
    }
}

void EventLanesPlottable::drawDense(std::span<const Mark> marks, std::span<const MarkBlockSummary> blocks,
                                    const TimeMapping& map, double y, double laneHeight)
{
    for (const ColumnBin& bin : aggregateColumns(marks, map, blocks)) {
        const Mark& m = marks[bin.strongest];
        const double x = map.left + static_cast<double>(bin.column) + 0.5;
        const double h = std::clamp(5 + 2.5 * std::log2(static_cast<double>(bin.count)), 5.0, laneHeight * 0.5);
        m_lines[m.domain * RoleCount + m.role].append(QLineF(x, y - h / 2, x, y + h / 2));
        if (m.role == static_cast<std::uint8_t>(EvidenceRole::RootCause))
            m_rootPoints.append(QPointF(x, y));
        ++m_stats.columnsDrawn;
    }
}

void EventLanesPlottable::drawSparse(std::span<const Mark> marks, std::size_t first, std::size_t last,
                                     const TimeMapping& map, double y)
{
    for (std::size_t i = first; i < last; ++i) {
        const Mark& m = marks[i];
        const QPointF p(map.toPixel(m.x), y);
        const std::size_t key = static_cast<std::size_t>(m.domain) * RoleCount + m.role;
        if (static_cast<engine::TimeSource>(m.time) == engine::TimeSource::Absolute ||
            static_cast<engine::TimeSource>(m.time) == engine::TimeSource::None)
            m_points[key].append(p);
        else
            m_uncertain.push_back({p, key, m.time});
        if (m.role == static_cast<std::uint8_t>(EvidenceRole::RootCause))
            m_rootPoints.append(p);
        ++m_stats.markersDrawn;
    }
}

void EventLanesPlottable::flushBatches(QCPPainter* painter, bool dense)
{
    painter->setRenderHint(QPainter::Antialiasing, !dense);
    // Weaker roles first so active and root-cause markers end up on top.
    for (int role = 0; role < RoleCount; ++role) {
        for (std::size_t key = static_cast<std::size_t>(role); key < m_colors.size(); key += RoleCount) {
            const QColor& c = m_colors[key];
            if (dense && !m_lines[key].isEmpty()) {
                painter->setPen(QPen(c, 1.0));
                painter->drawLines(m_lines[key]);
            } else if (!dense && !m_points[key].isEmpty()) {
                painter->setPen(c.alpha() == 255 ? QPen(c.darker(140), 0.8) : QPen(Qt::NoPen));
                painter->setBrush(c);
                const MarkerShape shape = m_shapes[key / RoleCount];
                for (const QPointF& p : m_points[key])
                    drawMarker(painter, p, MarkerRadius, shape);
            }
        }
    }
    if (!dense && !m_rootPoints.isEmpty()) {
        painter->setPen(QPen(RootColor, 2));
        painter->setBrush(Qt::NoBrush);
        for (const QPointF& p : m_rootPoints)
            painter->drawEllipse(p, 6.5, 6.5);
    }
}

void EventLanesPlottable::drawRootLine(QCPPainter* painter, const TimeMapping& map) const
{
    if (!m_data->hasRoot() || m_data->rootX < map.start || m_data->rootX > map.end)
        return;
    const QRect area = mKeyAxis->axisRect()->rect();
    const double x = map.toPixel(m_data->rootX);
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(QPen(RootColor, 1.2, Qt::DashLine));
    painter->drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    QFont f = painter->font();
    f.setBold(true);
    painter->setFont(f);
    const QString text = QStringLiteral("root cause");
    const double w = QFontMetrics(f).horizontalAdvance(text) + 6;
    // Right of the line unless that would cut the label at the plot's right edge.
    const double left = x + 4 + w <= area.right() ? x + 4 : x - 4 - w;
    const QRectF box(std::max(left, static_cast<double>(area.left())), area.top() + 2, w, QFontMetrics(f).height());
    painter->fillRect(box, QColor(255, 255, 255, 220));
    painter->setPen(RootColor);
    painter->drawText(box, Qt::AlignCenter, text);
}

void EventLanesPlottable::drawSelection(QCPPainter* painter, const TimeMapping& map) const
{
    const engine::AnalysisResult& r = m_analysis->r();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(QColor::fromRgb(0x212121), 2));
    if (m_selectedSymptom >= 0 && m_selectedSymptom < static_cast<int>(m_data->symptomNode.size())) {
        const int node = m_data->symptomNode[m_selectedSymptom];
        const int lane = m_layout->laneOf(node, r.symptoms[m_selectedSymptom].gpu);
        for (const SymptomBar& bar : node >= 0 ? m_data->nodes[node].bars : std::vector<SymptomBar>{}) {
            if (bar.symptom == m_selectedSymptom && lane >= 0)
                painter->drawRoundedRect(barRect(bar, map, laneGeometry(lane)).adjusted(-1.5, -1.5, 1.5, 1.5), 3, 3);
        }
    }
    if (m_selectedEvent >= 0 && m_selectedEvent < static_cast<int>(m_data->eventNode.size())) {
        const int node = m_data->eventNode[m_selectedEvent];
        const engine::Event& e = r.events[m_selectedEvent];
        const int lane = m_layout->laneOf(node, e.gpu);
        if (node >= 0 && lane >= 0)
            painter->drawEllipse(QPointF(map.toPixel(m_data->origin.toSeconds(e.time)), laneGeometry(lane).markerY()),
                                 7.5, 7.5);
    }
}

void EventLanesPlottable::drawUncertain(QCPPainter* painter) const
{
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (const Uncertain& u : m_uncertain) {
        const QColor c = m_colors[u.key];
        const MarkerShape shape = m_shapes[u.key / RoleCount];
        if (static_cast<engine::TimeSource>(u.time) == engine::TimeSource::Inherited) {
            // A lower bound: open marker and a bracket pointing later ("at or after this time").
            painter->setPen(QPen(c.alpha() == 255 ? c.darker(120) : c, 1.4));
            painter->setBrush(Qt::white);
            drawMarker(painter, u.at, MarkerRadius, shape);
            const QPointF a(u.at.x() + MarkerRadius + 1, u.at.y());
            painter->drawLine(a, a + QPointF(7, 0));
            painter->drawLine(a + QPointF(7, -3), a + QPointF(7, 3));
        } else {
            painter->setPen(QPen(c.darker(140), 0.8));
            painter->setBrush(c);
            drawMarker(painter, u.at, MarkerRadius, shape);
            painter->setPen(QPen(c.darker(140), 1, Qt::DotLine));
            painter->setBrush(Qt::NoBrush);
            painter->drawEllipse(u.at, MarkerRadius + 3, MarkerRadius + 3);
        }
    }
}

QRectF EventLanesPlottable::symptomRect(int symptom, const TimeMapping& map) const
{
    if (symptom < 0 || symptom >= static_cast<int>(m_data->symptomNode.size()))
        return {};
    const int node = m_data->symptomNode[static_cast<std::size_t>(symptom)];
    if (node < 0)
        return {};
    const int lane = m_layout->laneOf(node, m_analysis->r().symptoms[static_cast<std::size_t>(symptom)].gpu);
    if (lane < 0)
        return {};
    for (const SymptomBar& bar : m_data->nodes[static_cast<std::size_t>(node)].bars) {
        if (bar.symptom == symptom)
            return barRect(bar, map, laneGeometry(lane));
    }
    return {};
}

void EventLanesPlottable::drawCauseArrow(QCPPainter* painter, const TimeMapping& map) const
{
    const auto& r = m_analysis->r();
    if (m_selectedSymptom < 0 || m_selectedSymptom >= static_cast<int>(r.symptoms.size()))
        return;
    const engine::Symptom& effect = r.symptoms[static_cast<std::size_t>(m_selectedSymptom)];
    if (effect.causedBy.empty())
        return;
    const QRectF to = symptomRect(m_selectedSymptom, map);
    const QRectF from = symptomRect(m_analysis->symptomIndex(effect.causedBy), map);
    if (to.isEmpty() || from.isEmpty())
        return;
    const QPointF a(from.left() + std::min(from.width(), 8.0) / 2, from.center().y());
    const QPointF b(to.left() + std::min(to.width(), 8.0) / 2, to.center().y());
    const QLineF line(a, b);
    if (line.length() < 4)
        return;
    const QColor ink = QColor::fromRgb(0x212121);
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(ink, 1.6));
    painter->drawLine(line);
    QLineF head(b, a);
    head.setLength(9);
    QLineF left = head;
    left.setAngle(head.angle() + 25);
    QLineF right = head;
    right.setAngle(head.angle() - 25);
    painter->setBrush(ink);
    const QPointF tip[] = {b, left.p2(), right.p2()};
    painter->drawPolygon(tip, 3);
    const QFont f = painter->font();
    const QString text = QStringLiteral("explains");
    const QPointF mid = line.center();
    const double w = QFontMetrics(f).horizontalAdvance(text) + 6;
    const QRectF box(mid.x() + 4, mid.y() - QFontMetrics(f).height() / 2.0, w, QFontMetrics(f).height());
    painter->fillRect(box, QColor(255, 255, 255, 220));
    painter->setPen(ink);
    painter->drawText(box, Qt::AlignCenter, text);
}

int EventLanesPlottable::barAt(int lane, const QPointF& pixel) const
{
    if (!m_data || !m_layout || lane < 0 || lane >= m_layout->laneCount())
        return -1;
    const Lane& l = m_layout->lane(lane);
    const LaneGeometry g = laneGeometry(lane);
    const TimeMapping map = mapping();
    const auto& bars = m_data->nodes[l.node].bars;
    for (auto it = bars.rbegin(); it != bars.rend(); ++it) {
        if (TimelineData::barOnLane(*it, l) && barRect(*it, map, g).adjusted(-2, -2, 2, 2).contains(pixel))
            return it->symptom;
    }
    return -1;
}

}  // namespace attrib::views
