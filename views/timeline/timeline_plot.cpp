// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/timeline_plot.h"

#include "views/describe.h"
#include "views/presentation.h"
#include "views/timeline/swatch_legend_item.h"

#include <QToolTip>

#include <cmath>
#include <map>

namespace attrib::views {

namespace {

constexpr double MinSpan = 1e-6;  // one microsecond across the whole plot

}  // namespace

TimelinePlot::TimelinePlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_ticker(new TimeTicker)
    , m_laneTicker(new QCPAxisTickerText)
{
    setupAxes();
    m_lanes = new EventLanesPlottable(xAxis, yAxis);
    m_legend = new QCPLegend;
    plotLayout()->addElement(1, 0, m_legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    m_legend->setLayer(QStringLiteral("legend"));
    m_legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_legend->setBorderPen(Qt::NoPen);
    m_legend->setIconSize(14, 12);
    m_legend->setRowSpacing(0);
    m_legend->setColumnSpacing(14);
    setMinimumSize(320, 200);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelinePlot::clampTimeRange);
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &TimelinePlot::clampLaneRange);
    connect(this, &QCustomPlot::afterLayout, this, &TimelinePlot::fitLanes);
}

TimelinePlot::~TimelinePlot()
{
    if (!m_legend->layout())  // out of the layout, the plot does not own it
        delete m_legend;
}

void TimelinePlot::setLegendMode(LegendMode mode)
{
    m_legendMode = mode;
    if (updateLegendPlacement())
        replot(rpQueuedReplot);
}

bool TimelinePlot::updateLegendPlacement()
{
    const bool want =
        m_legendMode == LegendMode::Shown || (m_legendMode == LegendMode::Auto && height() >= AutoLegendHeight);
    if (want == legendShown())
        return false;
    if (want) {
        plotLayout()->addElement(1, 0, m_legend);
        plotLayout()->setRowStretchFactor(1, 0.001);
    } else {
        plotLayout()->take(m_legend);
        plotLayout()->simplify();
    }
    m_legend->setVisible(want);
    Q_EMIT legendShownChanged(want);
    return true;
}

void TimelinePlot::fitLanes()
{
    if (updateLegendPlacement() || updateLegendWrap()) {
        replot(rpQueuedReplot);
        return;
    }
    // Few lanes grow to fill the plot; many keep a readable minimum height and scroll.
    const double height = std::max(1, axisRect()->height());
    const int lanes = m_layout.laneCount();
    const double laneHeight = lanes > 0 ? std::clamp(height / lanes, 26.0, 56.0) : 26.0;
    if (std::abs(laneHeight - m_viewport.laneHeight) < 0.01 && std::abs(yAxis->range().size() - visibleLanes()) < 1e-6)
        return;
    m_viewport.laneHeight = laneHeight;
    setFirstLane(firstLane());
    replot(rpQueuedReplot);  // tick labels of this frame were laid out for the old range
}

void TimelinePlot::setupAxes()
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeZoomFactor(0.8, 1.0);
    xAxis->setTicker(m_ticker);
    m_ticker->setTickCount(8);
    xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1, Qt::DotLine));
    xAxis->grid()->setLayer(QStringLiteral("main"));
    xAxis2->setVisible(false);
    yAxis->setTicker(m_laneTicker);
    yAxis->setRangeReversed(true);
    yAxis->grid()->setVisible(false);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 0);
    yAxis->setBasePen(QPen(QColor::fromRgb(0xb0b7bf)));
    xAxis->setBasePen(QPen(QColor::fromRgb(0xb0b7bf)));
    yAxis->setTickLabelPadding(8);
}

void TimelinePlot::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    m_data.reset();
    m_layout.setNodes({}, {});
    m_lanes->setContent(m_analysis, nullptr, &m_layout);
    rebuildLanes();
    rebuildLegend();
    replot(rpQueuedReplot);
}

void TimelinePlot::setTimelineData(TimelineDataPtr timeline)
{
    m_data = std::move(timeline);
    auto [names, gpus] = m_data ? m_data->laneNodes() : decltype(m_data->laneNodes()){};
    m_layout.setNodes(std::move(names), std::move(gpus));
    m_lanes->setContent(m_analysis, m_data, &m_layout);
    if (m_data) {
        m_ticker->setOrigin(m_data->origin.origin);
        m_ticker->setReference(m_data->hasRoot() ? m_data->rootX : 0);
        m_ticker->setBootZero(m_data->origin.toSeconds(0));
        m_ticker->setMode(relativeTime() && m_data->hasRoot() ? TimeTicker::Mode::Relative : absoluteMode());
        if (m_data->rootGpu >= 0)
            m_layout.setExpanded(m_data->rootNode, true);  // the root cause's GPU lane is shown from the start
    }
    rebuildLanes();
    rebuildLegend();
    updateTimeAxisLabel();
    resetView();
    fitFailure();  // open on the failure; context before it is one key (0) away
}

void TimelinePlot::rebuildLanes()
{
    QMap<double, QString> labels;
    for (int lane = 0; lane < m_layout.laneCount(); ++lane) {
        const Lane& l = m_layout.lane(lane);
        const QString& clock =
            m_data && l.gpu < 0 ? m_data->nodes[static_cast<std::size_t>(l.node)].clockText : QString();
        labels.insert(lane + 0.5,
                      clock.isEmpty() ? m_layout.label(lane) : m_layout.label(lane) + QLatin1Char('\n') + clock);
    }
    m_laneTicker->setTicks(labels);
    clampLaneRange(yAxis->range());
    Q_EMIT lanesChanged();
}

void TimelinePlot::rebuildLegend()
{
    m_legend->clearItems();
    if (!m_data)
        return;
    const QStringList domains = domainNames();
    for (std::uint8_t d : m_data->domainsPresent)
        m_legend->addItem(new SwatchLegendItem(m_legend, domainColor(domains.value(d)), domains.value(d),
                                               SwatchLegendItem::Shape::Dot, domainShape(domains.value(d))));
    m_legend->addItem(new SwatchLegendItem(m_legend, QColor::fromRgb(0x9e9e9e), QStringLiteral("symptom span"),
                                           SwatchLegendItem::Shape::Bar));
    QColor dim = QColor::fromRgb(0x9e9e9e);
    dim.setAlpha(90);
    m_legend->addItem(new SwatchLegendItem(m_legend, dim, QStringLiteral("demoted / scrubbed (dimmed)")));
    m_legend->addItem(new SwatchLegendItem(m_legend, QColor::fromRgb(0xc62828), QStringLiteral("root cause"),
                                           SwatchLegendItem::Shape::Ring));
    const QColor grey = QColor::fromRgb(0x616161);
    if (m_data->hasInherited)
        m_legend->addItem(new SwatchLegendItem(m_legend, grey, QStringLiteral("inherited time (at or after)"),
                                               SwatchLegendItem::Shape::Open));
    if (m_data->hasApproximate)
        m_legend->addItem(new SwatchLegendItem(m_legend, grey, QStringLiteral("year-inferred / boot-relative time"),
                                               SwatchLegendItem::Shape::Approximate));
    updateLegendWrap();
}

bool TimelinePlot::updateLegendWrap()
{
    // foColumnsFirst: `wrap` items per row, each column as wide as its widest item. Take the most columns that fit.
    std::vector<int> widths;
    for (int i = 0; i < m_legend->elementCount(); ++i) {  // the grid may hold empty cells
        if (QCPAbstractLegendItem* item = m_legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    }
    const int available = width() - m_legend->margins().left() - m_legend->margins().right() - 8;
    int perRow = 1;
    for (int n = static_cast<int>(widths.size()); n > 1; --n) {
        std::vector<int> columns(static_cast<std::size_t>(n), 0);
        for (std::size_t i = 0; i < widths.size(); ++i)
            columns[i % n] = std::max(columns[i % n], widths[i]);
        int total = m_legend->columnSpacing() * (n - 1);
        for (int w : columns)
            total += w;
        if (total <= available) {
            perRow = n;
            break;
        }
    }
    if (perRow == m_legend->wrap())
        return false;
    m_legend->setWrap(perRow);
    m_legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // setWrap alone does not move placed items
    return true;
}

TimeTicker::Mode TimelinePlot::absoluteMode() const
{
    return m_data && m_data->sinceBoot ? TimeTicker::Mode::SinceBoot : TimeTicker::Mode::Utc;
}

QString TimelinePlot::timeText(double x, bool withDate) const
{
    const engine::TimeNs t = m_data->origin.toTime(x);
    if (m_data->sinceBoot)
        return whenText(t, engine::TimeSource::BootRelative);
    return formatUtc(t, withDate) + QStringLiteral(" UTC");
}

void TimelinePlot::updateTimeAxisLabel()
{
    if (!m_data) {
        xAxis->setLabel(QString());
        return;
    }
    if (relativeTime())
        xAxis->setLabel(QStringLiteral("time relative to the root cause (") + timeText(m_data->rootX) +
                        QStringLiteral(")"));
    else if (m_data->sinceBoot)
        xAxis->setLabel(QStringLiteral("time since boot (boot time unknown)"));
    else
        xAxis->setLabel(QStringLiteral("UTC, ") + formatUtc(m_data->origin.toTime(m_data->failStart)).left(10));
    const bool corrected =
        std::any_of(m_data->nodes.begin(), m_data->nodes.end(), [](const NodeTrack& n) { return n.clockCorrected; });
    if (corrected)
        xAxis->setLabel(xAxis->label() + QStringLiteral(" \u00b7 clock-corrected on the lanes that say so"));
}

void TimelinePlot::resetView()
{
    if (m_data) {
        const double span = m_data->maxX - m_data->minX;
        const double pad = std::max(span * 0.03, 0.5);
        xAxis->setRange(m_data->minX - pad, m_data->maxX + pad);
    } else {
        xAxis->setRange(0, 60);
    }
    setFirstLane(0);
    replot(rpQueuedReplot);
}

void TimelinePlot::setRelativeTime(bool relative)
{
    m_ticker->setMode(relative && m_data && m_data->hasRoot() ? TimeTicker::Mode::Relative : absoluteMode());
    updateTimeAxisLabel();
    replot(rpQueuedReplot);
}

void TimelinePlot::setAllExpanded(bool expanded)
{
    m_layout.setAllExpanded(expanded);
    rebuildLanes();
    replot(rpQueuedReplot);
}

void TimelinePlot::toggleNode(int node)
{
    m_layout.setExpanded(node, !m_layout.isExpanded(node));
    rebuildLanes();
    replot(rpQueuedReplot);
}

double TimelinePlot::visibleLanes() const
{
    return m_viewport.visibleLanes(std::max(1, axisRect()->height()));
}

void TimelinePlot::setFirstLane(double top)
{
    yAxis->setRange(top, top + visibleLanes());
}

void TimelinePlot::clampTimeRange(const QCPRange& range)
{
    if (m_clamping)
        return;
    const double full = m_data ? m_data->maxX - m_data->minX : 60;
    const double maxSpan = std::max(full * 4, 60.0);
    if (range.size() >= MinSpan && range.size() <= maxSpan)
        return;
    m_clamping = true;
    const double span = std::clamp(range.size(), MinSpan, maxSpan);
    xAxis->setRange(range.center() - span / 2, range.center() + span / 2);
    m_clamping = false;
}

void TimelinePlot::clampLaneRange(const QCPRange& range)
{
    if (m_clamping)
        return;
    const double height = std::max(1, axisRect()->height());
    const double top = m_viewport.clampTop(range.lower, m_layout.laneCount(), height);
    const double size = m_viewport.visibleLanes(height);
    if (std::abs(range.lower - top) > 1e-9 || std::abs(range.size() - size) > 1e-9) {
        m_clamping = true;
        yAxis->setRange(top, top + size);
        m_clamping = false;
    }
    Q_EMIT lanesChanged();
}

void TimelinePlot::ensureLaneVisible(int lane)
{
    if (lane < 0)
        return;
    const double top = firstLane();
    const double shown = std::floor(visibleLanes());
    if (lane < top)
        setFirstLane(lane);
    else if (lane + 1 > top + shown)
        setFirstLane(lane + 1 - shown);
}

void TimelinePlot::ensureTimeVisible(double x)
{
    const QCPRange r = xAxis->range();
    if (x < r.lower || x > r.upper)
        xAxis->setRange(x - r.size() / 2, x + r.size() / 2);
}

void TimelinePlot::showSelection(const Selection& selection)
{
    m_current = selection;
    m_lanes->setSelectedEvent(selection.event);
    m_lanes->setSelectedSymptom(selection.symptom);
    if (!m_data || !m_analysis) {
        replot(rpQueuedReplot);
        return;
    }
    const auto& r = m_analysis->r();
    if (selection.event >= 0 && m_data->eventNode[selection.event] >= 0) {
        const auto& e = r.events[selection.event];
        ensureLaneVisible(m_layout.laneOf(m_data->eventNode[selection.event], e.gpu));
        ensureTimeVisible(m_data->origin.toSeconds(e.time));
    } else if (selection.symptom >= 0 && m_data->symptomNode[selection.symptom] >= 0) {
        const auto& s = r.symptoms[selection.symptom];
        ensureLaneVisible(m_layout.laneOf(m_data->symptomNode[selection.symptom], s.gpu));
        ensureTimeVisible(m_data->origin.toSeconds(s.firstSeen));
    }
    replot(rpQueuedReplot);
}

int TimelinePlot::laneAtPixel(double y) const
{
    return m_layout.laneAt(yAxis->pixelToCoord(y));
}

int TimelinePlot::eventAt(const QPoint& pos) const
{
    const int lane = laneAtPixel(pos.y());
    if (!m_data || lane < 0 || !axisRect()->rect().contains(pos))
        return -1;
    const auto g = m_lanes->laneGeometry(lane);
    if (std::abs(pos.y() - g.markerY()) > std::max(6.0, g.height * 0.3))
        return -1;
    const auto marks = m_data->marks(m_layout, lane);
    const long i = nearestMark(marks, m_lanes->mapping(), pos.x(), 6);
    return i >= 0 ? static_cast<int>(marks[i].event) : -1;
}

int TimelinePlot::symptomAt(const QPoint& pos) const
{
    if (!axisRect()->rect().contains(pos))
        return -1;
    return m_lanes->barAt(laneAtPixel(pos.y()), pos);
}

QPoint TimelinePlot::eventPosition(int event) const
{
    if (!m_data || event < 0 || event >= static_cast<int>(m_data->eventNode.size()) || m_data->eventNode[event] < 0)
        return {-1, -1};
    const auto& e = m_analysis->r().events[event];
    const int lane = m_layout.laneOf(m_data->eventNode[event], e.gpu);
    const QPoint p(static_cast<int>(std::lround(xAxis->coordToPixel(m_data->origin.toSeconds(e.time)))),
                   static_cast<int>(std::lround(m_lanes->laneGeometry(lane).markerY())));
    return axisRect()->rect().contains(p) ? p : QPoint(-1, -1);
}

QString TimelinePlot::columnToolTip(int lane, const QPoint& pos) const
{
    const auto marks = m_data->marks(m_layout, lane);
    TimeMapping column = m_lanes->mapping();
    const double x0 = column.toSeconds(pos.x() - 2);
    const double x1 = column.toSeconds(pos.x() + 2);
    column.start = x0;
    column.end = x1;
    const auto [first, last] = visibleRange(marks, column, 0);
    if (last - first < 2)
        return {};
    std::map<std::string, int> byType;
    for (std::size_t i = first; i < last; ++i)
        ++byType[m_analysis->r().events[marks[i].event].type];
    QStringList lines{QStringLiteral("%1 events here on %2, %3 to %4:")
                          .arg(last - first)
                          .arg(m_layout.label(lane), timeText(x0, false), timeText(x1, false))};
    for (const auto& [type, count] : byType)
        lines << QStringLiteral("  %1 \u00d7 %2").arg(count).arg(qs(type));
    return lines.join(QLatin1Char('\n'));
}

QString TimelinePlot::toolTipAt(const QPoint& pos) const
{
    if (!m_data || !m_analysis)
        return {};
    const int lane = laneAtPixel(pos.y());
    if (lane < 0)
        return {};
    if (pos.x() < axisRect()->left())
        return m_layout.canExpand(m_layout.lane(lane).node) ? QStringLiteral("Click to show or hide the GPU lanes")
                                                            : QString();
    const int event = eventAt(pos);
    if (event >= 0) {
        const QString column = columnToolTip(lane, pos);
        return describeEvent(*m_analysis, event) + (column.isEmpty() ? QString() : QStringLiteral("\n\n") + column);
    }
    const int symptom = symptomAt(pos);
    return symptom >= 0 ? describeSymptom(*m_analysis, symptom) : QString();
}

bool TimelinePlot::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), plainToolTip(text), this);
        return true;
    }
    return QCustomPlot::event(e);
}

void TimelinePlot::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    const bool rubberBand = event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier);
    setSelectionRectMode(rubberBand ? QCP::srmZoom : QCP::srmNone);
    QCustomPlot::mousePressEvent(event);
}

void TimelinePlot::mouseReleaseEvent(QMouseEvent* event)
{
    const bool click = event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() < 4 &&
        !(event->modifiers() & Qt::ControlModifier);
    QCustomPlot::mouseReleaseEvent(event);
    setSelectionRectMode(QCP::srmNone);
    if (!click || !m_data)
        return;
    const int lane = laneAtPixel(event->pos().y());
    if (lane >= 0 && event->pos().x() < axisRect()->left()) {
        toggleNode(m_layout.lane(lane).node);
        return;
    }
    if (const int e = eventAt(event->pos()); e >= 0)
        Q_EMIT eventClicked(e);
    else if (const int s = symptomAt(event->pos()); s >= 0)
        Q_EMIT symptomClicked(s);
}

void TimelinePlot::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int lane = laneAtPixel(event->pos().y());
    if (lane >= 0 && axisRect()->rect().contains(event->pos()) && eventAt(event->pos()) < 0)
        toggleNode(m_layout.lane(lane).node);
    QCustomPlot::mouseDoubleClickEvent(event);
}

void TimelinePlot::wheelEvent(QWheelEvent* event)
{
    const bool overLabels = event->position().x() < axisRect()->left();
    if (overLabels || (event->modifiers() & Qt::ShiftModifier)) {
        const QPoint delta = event->angleDelta();
        const int steps = (delta.y() != 0 ? delta.y() : delta.x()) / 40;
        setFirstLane(firstLane() - steps);
        replot(rpQueuedReplot);
        event->accept();
        return;
    }
    QCustomPlot::wheelEvent(event);
}

void TimelinePlot::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    updateLegendPlacement();
    updateLegendWrap();
    plotLayout()->update(QCPLayoutElement::upLayout);
    setFirstLane(firstLane());
    replot(rpQueuedReplot);
}

void TimelinePlot::processRectZoom(QRect rect, QMouseEvent*)
{
    if (rect.width() >= 3) {
        const double a = xAxis->pixelToCoord(rect.left());
        const double b = xAxis->pixelToCoord(rect.right());
        xAxis->setRange(std::min(a, b), std::max(a, b));
    }
    replot(rpQueuedReplot);
}

}  // namespace attrib::views
