// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/timeline_view.h"

#include "views/timeline/timeline_plot.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QStackedLayout>
#include <QSvgGenerator>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>

namespace attrib::views {

TimelineView::TimelineView(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_plot(new TimelinePlot(this))
    , m_scroll(new QScrollBar(Qt::Vertical, this))
    , m_info(new QLabel(this))
    , m_placeholder(new QLabel(this))
    , m_pages(new QStackedLayout)
{
    auto* bar = new QToolBar(this);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    const auto key = [this](QAction* action, const QString& shortcut, const QString& tip) {
        action->setShortcut(QKeySequence(shortcut));
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);  // plain keys only while the timeline has focus
        action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, shortcut));
        addAction(action);
    };
    key(bar->addAction(QStringLiteral("Fit failure"), m_plot, &TimelinePlot::fitFailure), QStringLiteral("F"),
        QStringLiteral("Zoom to the failure: first to last active or demoted symptom"));
    key(bar->addAction(QStringLiteral("Zoom to selection"), m_plot, &TimelinePlot::zoomToSelection),
        QStringLiteral("Z"), QStringLiteral("Zoom to the selected symptom's span or event"));
    key(bar->addAction(QStringLiteral("Show all"), m_plot, &TimelinePlot::resetView), QStringLiteral("0"),
        QStringLiteral("Show the whole time range, context included, and the first lanes"));
    m_relative = bar->addAction(QStringLiteral("Relative to root cause"));
    m_relative->setCheckable(true);
    m_relative->setToolTip(QStringLiteral("Label the time axis relative to the root cause instead of UTC"));
    connect(m_relative, &QAction::toggled, m_plot, &TimelinePlot::setRelativeTime);
    bar->addAction(QStringLiteral("Expand GPUs"), this, [this] { m_plot->setAllExpanded(true); });
    bar->addAction(QStringLiteral("Collapse"), this, [this] { m_plot->setAllExpanded(false); });
    QAction* legend = bar->addAction(QStringLiteral("Legend"));
    legend->setObjectName(QStringLiteral("timelineLegendAction"));
    legend->setCheckable(true);
    legend->setChecked(m_plot->legendShown());
    legend->setToolTip(QStringLiteral("Show or hide what the colours and markers mean (hidden by itself when the "
                                      "timeline is short, to keep room for the lanes)"));
    connect(legend, &QAction::triggered, this, [this](bool on) {
        m_plot->setLegendMode(on ? TimelinePlot::LegendMode::Shown : TimelinePlot::LegendMode::Hidden);
    });
    connect(m_plot, &TimelinePlot::legendShownChanged, legend, &QAction::setChecked);
    bar->addSeparator();
    bar->addWidget(m_info);
    m_info->setTextFormat(Qt::PlainText);
    m_info->setToolTip(QStringLiteral("Wheel: zoom time \u00b7 drag: pan \u00b7 Ctrl+drag: zoom to a range \u00b7 "
                                      "Shift+wheel or wheel over the labels: scroll nodes \u00b7 click a node label: "
                                      "GPU lanes \u00b7 click an event: its evidence\n"
                                      "Keys (click the plot first): F fit failure \u00b7 Z zoom to selection \u00b7 "
                                      "0 show all \u00b7 \u2190\u2192 or A D pan \u00b7 + \u2212 or W S zoom \u00b7 "
                                      "\u2191\u2193 Page Up/Down scroll nodes"));

    auto* page = new QWidget(this);
    auto* row = new QHBoxLayout(page);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(m_plot, 1);
    row->addWidget(m_scroll);
    m_placeholder->setTextFormat(Qt::PlainText);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setStyleSheet(QStringLiteral("color: #80868b; background: white"));
    m_pages->addWidget(m_placeholder);
    m_pages->addWidget(page);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(bar);
    column->addLayout(m_pages, 1);

    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_syncing) {
            m_plot->setFirstLane(value);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    connect(m_plot, &TimelinePlot::lanesChanged, this, &TimelineView::syncScrollBar);
    // Step states keep every event (same indices) but only the symptoms raised so far: map symptoms by id.
    connect(m_plot, &TimelinePlot::eventClicked, m_selection, &SelectionModel::selectEvent);
    connect(m_plot, &TimelinePlot::symptomClicked, this,
            [this](int symptom) { m_selection->selectSymptom(stepToMainSymptom(symptom)); });
    connect(m_selection, &SelectionModel::analysisChanged, this, &TimelineView::onAnalysisChanged);
    connect(m_selection, &SelectionModel::selectionChanged, this, &TimelineView::onSelectionChanged);
    onAnalysisChanged(m_selection->analysis());
}

void TimelineView::onAnalysisChanged(const AnalysisPtr& analysis)
{
    m_stepJob.cancel();
    m_step.reset();
    m_finalData.reset();
    m_plot->setAnalysis(analysis);
    updateInfo();
}

void TimelineView::setTimelineData(TimelineDataPtr timeline)
{
    m_finalData = timeline;
    if (m_step)
        return;  // drawn when the debugger returns to the final state
    m_plot->setTimelineData(std::move(timeline));
    m_plot->setRelativeTime(m_relative->isChecked());
    m_plot->showSelection(m_selection->current());
    updateInfo();
}

void TimelineView::showStepState(const engine::AnalysisSnapshot& step)
{
    const AnalysisPtr current = m_selection->analysis();
    if (!step || !current || step == current->result) {
        m_stepJob.cancel();
        leaveStep();
        return;
    }
    using StepPtr = std::shared_ptr<const StepView>;
    JobHandlers<StepPtr> on;
    on.result = [this](const StepPtr& view) { showStep(view); };
    m_stepJob.start<StepPtr>(
        [step](QPromise<StepPtr>& promise, const engine::CancelFlag& cancelled) {
            auto view = std::make_shared<StepView>();
            view->analysis = AnalysisData::build(step);
            if (cancelled)
                return;
            view->timeline = TimelineData::build(*view->analysis);
            if (!cancelled)
                promise.addResult(std::move(view));
        },
        std::move(on));
}

void TimelineView::showStep(const std::shared_ptr<const StepView>& step)
{
    m_step = step->analysis;
    m_plot->setAnalysis(m_step);
    m_plot->setTimelineData(step->timeline);
    m_plot->setRelativeTime(m_relative->isChecked());
    m_plot->showSelection(toStep(m_selection->current()));
    updateInfo();
}

void TimelineView::leaveStep()
{
    if (!m_step)
        return;
    m_step.reset();
    m_plot->setAnalysis(m_selection->analysis());
    m_plot->setTimelineData(m_finalData);
    m_plot->showSelection(m_selection->current());
    updateInfo();
}

int TimelineView::stepToMainSymptom(int symptom) const
{
    const AnalysisPtr current = m_selection->analysis();
    if (!m_step || !current || symptom < 0 || symptom >= static_cast<int>(m_step->r().symptoms.size()))
        return symptom;
    return current->symptomIndex(m_step->r().symptoms[static_cast<std::size_t>(symptom)].id);
}

Selection TimelineView::toStep(Selection selection) const
{
    const AnalysisPtr current = m_selection->analysis();
    if (m_step && current && selection.symptom >= 0 &&
        selection.symptom < static_cast<int>(current->r().symptoms.size()))
        selection.symptom = m_step->symptomIndex(current->r().symptoms[static_cast<std::size_t>(selection.symptom)].id);
    return selection;
}

void TimelineView::onSelectionChanged(const Selection& selection)
{
    m_plot->showSelection(toStep(selection));
}

void TimelineView::syncScrollBar()
{
    m_syncing = true;
    const auto lanes = m_plot->laneLayout().laneCount();
    const int page = std::max(1, static_cast<int>(std::floor(m_plot->visibleLanes())));
    m_scroll->setRange(0, std::max(0, lanes - page));
    m_scroll->setPageStep(page);
    m_scroll->setValue(static_cast<int>(std::lround(m_plot->firstLane())));
    m_scroll->setVisible(lanes > page);
    m_syncing = false;
}

void TimelineView::updateInfo()
{
    const auto& timeline = m_plot->timelineData();
    m_pages->setCurrentIndex(timeline && timeline->hasTimes ? 1 : 0);
    if (timeline && !timeline->hasTimes) {
        m_info->setText(QString());
        m_placeholder->setText(QStringLiteral("No line of this bundle carries a time the analysis could read, so "
                                              "there is nothing to place on a timeline.\nThe verdict, the symptoms "
                                              "and the evidence panes still show what was found."));
        return;
    }
    if (!timeline) {
        m_info->setText(QString());
        m_placeholder->setText(m_selection->analysis() ? QStringLiteral("Preparing the timeline\u2026")
                                                       : QStringLiteral("Open a bundle to see its per-node timeline."));
        return;
    }
    QString text = QStringLiteral("%1 nodes \u00b7 %2 events").arg(timeline->nodes.size()).arg(timeline->eventCount);
    if (m_step)
        text += QStringLiteral(" \u00b7 debugger step: %1 of %2 symptoms")
                    .arg(m_step->r().symptoms.size())
                    .arg(m_selection->analysis() ? m_selection->analysis()->r().symptoms.size() : 0);
    if (timeline->untimedEvents > 0)
        text += QStringLiteral(" (%1 without time not shown)").arg(timeline->untimedEvents);
    if (timeline->eventsBeforeFailure > 0)
        text += QStringLiteral(" \u00b7 %1 earlier context events: 0 shows all").arg(timeline->eventsBeforeFailure);
    m_info->setText(text);
}

bool TimelineView::exportPng(const QString& fileName, int width, int height)
{
    return m_plot->savePng(fileName, width, height);
}

QImage TimelineView::image(int width, int height) const
{
    if (!m_plot->timelineData())
        return {};
    return m_plot->toPixmap(width, height).toImage();
}

bool TimelineView::exportSvg(const QString& fileName, int width, int height)
{
    const int w = width > 0 ? width : m_plot->width();
    const int h = height > 0 ? height : m_plot->height();
    QSvgGenerator generator;
    generator.setFileName(fileName);
    generator.setSize(QSize(w, h));
    generator.setViewBox(QRect(0, 0, w, h));
    generator.setTitle(QStringLiteral("Attribution Workbench timeline"));
    QCPPainter painter;
    if (!painter.begin(&generator))
        return false;
    m_plot->toPainter(&painter, w, h);
    return painter.end();
}

}  // namespace attrib::views
