// SPDX-License-Identifier: GPL-3.0-or-later
// Keyboard and programmatic navigation of the timeline: fit the failure, zoom to the selection, pan and zoom
// (arrows, +/-, WASD like trace viewers), scroll lanes (Page Up/Down).
#include "views/timeline/timeline_plot.h"

#include <QKeyEvent>

namespace attrib::views {

void TimelinePlot::fitFailure()
{
    if (!m_data) {
        resetView();
        return;
    }
    const auto [lo, hi] = m_data->failureView();
    xAxis->setRange(lo, hi);
    if (m_data->rootNode >= 0)
        ensureLaneVisible(m_layout.laneOf(m_data->rootNode, m_data->rootGpu));
    replot(rpQueuedReplot);
}

bool TimelinePlot::zoomToSelection()
{
    if (!m_data || !m_analysis)
        return false;
    const auto& r = m_analysis->r();
    double lo = NAN;
    double hi = NAN;
    if (m_current.symptom >= 0 && m_current.symptom < static_cast<int>(r.symptoms.size())) {
        const auto& s = r.symptoms[static_cast<std::size_t>(m_current.symptom)];
        if (s.firstSeen != engine::NoTime) {
            lo = m_data->origin.toSeconds(s.firstSeen);
            hi = m_data->origin.toSeconds(s.lastSeen == engine::NoTime ? s.firstSeen : s.lastSeen);
        }
    }
    if (std::isnan(lo) && m_current.event >= 0 && m_current.event < static_cast<int>(r.events.size()) &&
        r.events[static_cast<std::size_t>(m_current.event)].time != engine::NoTime) {
        lo = hi = m_data->origin.toSeconds(r.events[static_cast<std::size_t>(m_current.event)].time);
    }
    if (std::isnan(lo))
        return false;
    const double span = std::max(hi - lo, 1.0);
    const double mid = (lo + hi) / 2;
    xAxis->setRange(mid - span * 0.65, mid + span * 0.65);
    showSelection(m_current);
    return true;
}

void TimelinePlot::panTime(double fraction)
{
    const QCPRange r = xAxis->range();
    xAxis->setRange(r.lower + r.size() * fraction, r.upper + r.size() * fraction);
    replot(rpQueuedReplot);
}

void TimelinePlot::zoomTime(double factor)
{
    const QCPRange r = xAxis->range();
    const double half = r.size() / factor / 2;
    xAxis->setRange(r.center() - half, r.center() + half);
    replot(rpQueuedReplot);
}

void TimelinePlot::keyPressEvent(QKeyEvent* event)
{
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
        QCustomPlot::keyPressEvent(event);
        return;
    }
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_A: panTime(-0.2); break;
    case Qt::Key_Right:
    case Qt::Key_D: panTime(0.2); break;
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomTime(1.5); break;
    case Qt::Key_S:
    case Qt::Key_Minus: zoomTime(1 / 1.5); break;
    case Qt::Key_Up: setFirstLane(firstLane() - 1), replot(rpQueuedReplot); break;
    case Qt::Key_Down: setFirstLane(firstLane() + 1), replot(rpQueuedReplot); break;
    case Qt::Key_PageUp: setFirstLane(firstLane() - std::floor(visibleLanes())), replot(rpQueuedReplot); break;
    case Qt::Key_PageDown: setFirstLane(firstLane() + std::floor(visibleLanes())), replot(rpQueuedReplot); break;
    default: QCustomPlot::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace attrib::views
