// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/graph/symptom_graph_view.h"

#include "views/graph/symptom_node_item.h"
#include "views/presentation.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QGraphicsView>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QResizeEvent>
#include <QSvgGenerator>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attrib::views {

namespace {
constexpr double MaxFitZoom = 1.6;
}

/// Wheel zooms around the cursor, drag pans, right-click on a node offers "Why this status?".
class GraphCanvas : public QGraphicsView {
public:
    GraphCanvas(QGraphicsScene* scene, SymptomGraphView* owner)
        : QGraphicsView(scene, owner)
        , m_owner(owner)
    {
        setDragMode(QGraphicsView::ScrollHandDrag);
        setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
        setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QGraphicsView::resizeEvent(event);
        if (m_owner->fitsToWindow())  // first shown in a tab, or the dock resized: keep the graph whole
            m_owner->fitToWindow();
    }

    void wheelEvent(QWheelEvent* event) override
    {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0)
            m_owner->zoomBy(std::pow(1.15, steps));
        event->accept();
    }

    void contextMenuEvent(QContextMenuEvent* event) override
    {
        auto* node = dynamic_cast<SymptomNodeItem*>(itemAt(event->pos()));
        if (!node)
            return;
        const QString id = node->symptomId();
        QMenu menu;
        menu.addAction(SymptomGraphView::tr("Why this status?"), m_owner,
                       [this, id] { Q_EMIT m_owner->whyStatusRequested(id); });
        menu.exec(event->globalPos());
    }

private:
    SymptomGraphView* m_owner;
};

SymptomGraphView::SymptomGraphView(QWidget* parent)
    : QWidget(parent)
    , m_scene(new SymptomGraphScene(this))
    , m_canvas(new GraphCanvas(m_scene, this))
    , m_caption(new QLabel(this))
{
    auto* toolbar = new QToolBar(this);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addAction(tr("Zoom in"), this, [this] { zoomBy(1.25); });
    toolbar->addAction(tr("Zoom out"), this, [this] { zoomBy(0.8); });
    toolbar->addAction(tr("Fit"), this, &SymptomGraphView::fitToWindow);
    toolbar->addAction(tr("Export\u2026"), this, &SymptomGraphView::exportDialog);
    toolbar->addSeparator();
    toolbar->addWidget(m_caption);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_canvas, 1);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &SymptomGraphView::onSelectionChanged);
}

QGraphicsView* SymptomGraphView::view() const
{
    return m_canvas;
}

SymptomGraphView::~SymptomGraphView()
{
    // The scene (a child, deleted by ~QWidget after this class is gone) clears its items, which changes the
    // selection: its signal must not reach a slot of this half-destroyed view (UBSan: downcast of a QWidget).
    disconnect(m_scene, nullptr, this, nullptr);
}

void SymptomGraphView::setResult(engine::AnalysisSnapshot result)
{
    if (!isVisible()) {
        m_pending = Pending{std::move(result), {}, -1, {}, {}};
        m_caption->setText(tr("laid out when shown"));
        return;
    }
    m_pending.reset();
    layOut(result);
}

void SymptomGraphView::layOut(const engine::AnalysisSnapshot& result)
{
    m_syncing = true;
    if (result)
        m_scene->setGraph(engine::buildSymptomGraph(*result));
    else
        m_scene->setGraph({});
    m_syncing = false;
    m_caption->setText(m_scene->layoutError().isEmpty()
                           ? tr("final state: %n symptom(s)", nullptr, static_cast<int>(m_scene->graph().nodes.size()))
                           : m_scene->layoutError());
    fitToWindow();
}

void SymptomGraphView::showStep(const ReplayPtr& replay, int step)
{
    if (!replay || step < 0 || static_cast<std::size_t>(step) >= replay->stepCount())
        return showFinal();
    showStates(replay, step, replay->stateAt(static_cast<std::size_t>(step)));
}

void SymptomGraphView::showStates(const ReplayPtr& replay, int step, const std::vector<engine::SymptomState>& states)
{
    if (m_pending) {
        m_pending->replay = replay;
        m_pending->step = step;
        m_pending->states = states;
        return;
    }
    if (!replay || step < 0 || static_cast<std::size_t>(step) >= replay->stepCount())
        return showFinal();
    const auto outcome = replay->firstStepOfPhase(engine::TracePhase::Outcome);
    m_scene->showStates(states, outcome && static_cast<std::size_t>(step) >= *outcome);
    m_caption->setText(tr("as of step %1 (%2): %n symptom(s)", nullptr, static_cast<int>(states.size()))
                           .arg(step)
                           .arg(qs(toString(replay->step(static_cast<std::size_t>(step)).phase))));
}

void SymptomGraphView::showFinal()
{
    if (m_pending) {
        m_pending->replay.reset();
        m_pending->states.clear();
        return;
    }
    m_scene->showFinal();
    m_caption->setText(tr("final state: %n symptom(s)", nullptr, static_cast<int>(m_scene->graph().nodes.size())));
}

void SymptomGraphView::selectSymptom(const QString& id)
{
    if (m_pending) {
        m_pending->selected = id;
        return;
    }
    SymptomNodeItem* item = m_scene->nodeItem(id);
    m_syncing = true;
    m_scene->clearSelection();
    if (item) {
        item->setSelected(true);
        m_canvas->ensureVisible(item, 40, 40);
    }
    m_syncing = false;
}

SymptomGraphScene* SymptomGraphView::scene()
{
    layOutPending();
    return m_scene;
}

void SymptomGraphView::showEvent(QShowEvent* event)
{
    layOutPending();
    QWidget::showEvent(event);
}

void SymptomGraphView::layOutPending()
{
    if (!m_pending)
        return;
    Pending pending = std::move(*m_pending);
    m_pending.reset();
    layOut(pending.result);
    if (pending.replay)
        showStates(pending.replay, pending.step, pending.states);
    if (!pending.selected.isEmpty())
        selectSymptom(pending.selected);
}

QString SymptomGraphView::selectedSymptom()
{
    layOutPending();
    for (auto* item : m_scene->selectedItems())
        if (auto* node = dynamic_cast<SymptomNodeItem*>(item))
            return node->symptomId();
    return {};
}

void SymptomGraphView::onSelectionChanged()
{
    if (m_syncing)
        return;
    const QString id = selectedSymptom();
    if (!id.isEmpty())
        Q_EMIT symptomSelected(id);
}

double SymptomGraphView::zoom() const
{
    return m_canvas->transform().m11();
}

void SymptomGraphView::zoomBy(double factor)
{
    const double next = std::clamp(zoom() * factor, 0.05, 8.0);
    m_canvas->scale(next / zoom(), next / zoom());
    m_fitToWindow = false;
}

void SymptomGraphView::fitToWindow()
{
    layOutPending();
    m_fitToWindow = true;
    m_canvas->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    if (zoom() > MaxFitZoom)  // small graphs: readable text, not giant boxes
        m_canvas->setTransform(QTransform::fromScale(MaxFitZoom, MaxFitZoom));
}

bool SymptomGraphView::exportImage(const QString& path)
{
    layOutPending();
    const QRectF source = m_scene->sceneRect();
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(tr("Symptom graph"));
        QPainter painter(&svg);
        m_scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        return painter.end();
    }
    QImage image((source.size() * 2).toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    m_scene->render(&painter, QRectF(QPointF(0, 0), image.size()), source);
    painter.end();
    return image.save(path);
}

void SymptomGraphView::exportDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export symptom graph"), QStringLiteral("symptom-graph.svg"),
                                     tr("SVG image (*.svg);;PNG image (*.png)"));
    if (!path.isEmpty())
        exportImage(path);
}

}  // namespace attrib::views
