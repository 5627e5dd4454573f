// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/tour_controller.h"

#include "app/bench/rule_bench.h"
#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "views/analysis_data.h"
#include "views/debugger/rule_debugger.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"
#include "views/tour/tour_overlay.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QScrollArea>
#include <QTimer>

namespace attrib::app {

namespace {

QString canonical(const QString& path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? QFileInfo(path).absoluteFilePath() : c;
}

/// Shows and raises every dock that holds `widget`, innermost last, and scrolls it into view.
void reveal(QWidget* widget)
{
    QList<QDockWidget*> docks;
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w))
            docks.prepend(dock);
    }
    for (QDockWidget* dock : docks) {
        dock->show();
        dock->raise();
    }
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (auto* scroll = qobject_cast<QScrollArea*>(w))
            scroll->ensureWidgetVisible(widget);
    }
}

}  // namespace

TourController::TourController(MainWindow* window, QList<views::Tour> tours, QString samplesDir, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_tours(std::move(tours))
    , m_samplesDir(std::move(samplesDir))
    , m_overlay(new views::TourOverlay(window))
{
    connect(m_overlay, &views::TourOverlay::nextRequested, this, &TourController::next);
    connect(m_overlay, &views::TourOverlay::backRequested, this, &TourController::back);
    connect(m_overlay, &views::TourOverlay::closeRequested, this, &TourController::stop);
}

bool TourController::start(const QString& id)
{
    stop();
    int index = -1;
    for (int i = 0; i < m_tours.size(); ++i) {
        if (m_tours[i].id == id)
            index = i;
    }
    if (index < 0) {
        Q_EMIT problem(QStringLiteral("No tour named %1.").arg(id));
        return false;
    }
    const views::Tour& tour = m_tours[index];
    m_tour = index;
    if (tour.sample.isEmpty()) {
        showStep(0);
        return true;
    }
    const QString sample = QDir(m_samplesDir).filePath(tour.sample);
    BundleController* bundles = m_window->bundleController();
    if (bundles->analysis() && !bundles->analysis()->r().verdict.terminalState.empty() &&
        canonical(bundles->currentBundle()) == canonical(sample)) {
        showStep(0);
        return true;
    }
    // The tour starts when the sample's timeline is on screen (its last stage).
    m_waiting = connect(bundles, &BundleController::timelineShown, this, [this] {
        disconnect(m_waiting);
        if (m_tour >= 0)
            showStep(0);
    });
    if (!m_window->openBundle(sample)) {
        disconnect(m_waiting);
        m_tour = -1;
        Q_EMIT problem(QStringLiteral("The tour's sample is missing: %1").arg(sample));
        return false;
    }
    return true;
}

void TourController::next()
{
    if (m_tour < 0 || m_step < 0)
        return;
    if (m_step + 1 >= m_tours[m_tour].steps.size())
        stop();
    else
        showStep(m_step + 1);
}

void TourController::back()
{
    if (m_tour >= 0 && m_step > 0)
        showStep(m_step - 1);
}

void TourController::stop()
{
    disconnect(m_waiting);
    const bool was = m_tour >= 0;
    ++m_shown;
    m_tour = -1;
    m_step = -1;
    m_overlay->finish();
    if (was)
        Q_EMIT finished();
}

QWidget* TourController::resolveTarget(const QString& name) const
{
    QWidget* first = nullptr;
    for (QWidget* w : m_window->findChildren<QWidget*>(name)) {
        if (w->isVisible())
            return w;
        if (!first)
            first = w;
    }
    return first;
}

void TourController::showStep(int step)
{
    m_step = step;
    perform(m_tours[m_tour].steps[step]);
    // The action may rebuild panes (their new widgets are shown by queued events): highlight once they are up.
    const quint64 shown = ++m_shown;
    QTimer::singleShot(0, this, [this, shown] {
        if (shown == m_shown && m_tour >= 0)
            present();
    });
}

void TourController::present()
{
    const views::Tour& tour = m_tours[m_tour];
    const views::TourStep& s = tour.steps[m_step];
    QWidget* target = resolveTarget(s.target);
    if (target)
        reveal(target);
    else
        Q_EMIT problem(QStringLiteral("%1: step %2 names no widget of this window: %3")
                           .arg(tour.source)
                           .arg(m_step + 1)
                           .arg(s.target));
    m_overlay->showStep(target, s.title, s.text, m_step, static_cast<int>(tour.steps.size()));
    Q_EMIT stepShown(m_step);
}

void TourController::perform(const views::TourStep& step)
{
    views::SelectionModel* selection = m_window->selectionModel();
    const views::AnalysisPtr analysis = m_window->bundleController()->analysis();
    switch (step.action) {
    case views::TourAction::None: break;
    case views::TourAction::SelectRootCause:
        // As when a bundle opens: the decisive line of the root cause, else the root cause itself.
        if (analysis && analysis->rootCauseSymptom >= 0) {
            const int decisive = analysis->primaryObservation(analysis->rootCauseSymptom);
            if (decisive >= 0)
                selection->selectObservation(decisive);
            else
                selection->selectSymptom(analysis->rootCauseSymptom);
        }
        break;
    case views::TourAction::SelectSymptom: selectSymptomNamed(step.argument); break;
    case views::TourAction::FitTimeline: m_window->timelineView()->plot()->fitFailure(); break;
    case views::TourAction::DebuggerFirst: m_window->ruleBench()->debugger()->first(); break;
    case views::TourAction::DebuggerWhy:
        if (analysis) {
            for (const auto& s : analysis->r().symptoms) {
                if (QString::fromStdString(s.name) == step.argument) {
                    m_window->ruleBench()->debugger()->whyStatus(QString::fromStdString(s.id));
                    break;
                }
            }
        }
        break;
    }
}

void TourController::selectSymptomNamed(const QString& name)
{
    const views::AnalysisPtr analysis = m_window->bundleController()->analysis();
    if (!analysis)
        return;
    const auto& symptoms = analysis->r().symptoms;
    for (int i = 0; i < static_cast<int>(symptoms.size()); ++i) {
        if (QString::fromStdString(symptoms[i].name) == name) {
            m_window->selectionModel()->selectSymptom(i);
            return;
        }
    }
    Q_EMIT problem(QStringLiteral("The bundle has no symptom named %1.").arg(name));
}

}  // namespace attrib::app
