// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline pane: toolbar (reset, UTC/relative, expand/collapse), the plot, a lane scrollbar.
// Follows and drives the shared selection; exports PNG and SVG.
#pragma once

#include "views/job_runner.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_data.h"

#include <QImage>
#include <QWidget>

class QAction;
class QLabel;
class QScrollBar;
class QStackedLayout;

namespace attrib::views {

class TimelinePlot;

class TimelineView : public QWidget {
    Q_OBJECT

public:
    explicit TimelineView(SelectionModel* selection, QWidget* parent = nullptr);

    /// Data prepared for the selection model's current analysis (see TimelineData::build).
    void setTimelineData(TimelineDataPtr timeline);
    /// Draws the analysis as it stood at a rule-debugger step; the current analysis itself (or null) returns
    /// to the final state. Clicks and the selection are mapped between the two by symptom id. The step's lanes are
    /// built off the GUI thread (as long as the analysis is big); a later step supersedes one still being built.
    void showStepState(const engine::AnalysisSnapshot& step);
    bool showingStep() const { return m_step != nullptr; }
    TimelinePlot* plot() const { return m_plot; }
    QAction* relativeTimeAction() const { return m_relative; }

    bool exportPng(const QString& fileName, int width = 0, int height = 0);
    /// The plot as an image of the given size (0: the plot's own); null when no timeline is shown.
    QImage image(int width = 0, int height = 0) const;
    bool exportSvg(const QString& fileName, int width = 0, int height = 0);

private:
    void onAnalysisChanged(const AnalysisPtr& analysis);
    void onSelectionChanged(const Selection& selection);
    void syncScrollBar();
    void updateInfo();
    struct StepView {
        AnalysisPtr analysis;
        TimelineDataPtr timeline;
    };
    void showStep(const std::shared_ptr<const StepView>& step);
    void leaveStep();
    Selection toStep(Selection selection) const;
    int stepToMainSymptom(int symptom) const;

    SelectionModel* m_selection;
    TimelinePlot* m_plot;
    QScrollBar* m_scroll;
    QLabel* m_info;
    QLabel* m_placeholder;  ///< shown instead of an empty plot
    QStackedLayout* m_pages;
    QAction* m_relative;
    bool m_syncing = false;
    AnalysisPtr m_step;           ///< the debugger's step state while shown, else null
    TimelineDataPtr m_finalData;  ///< the current analysis' timeline, restored when the step state ends
    JobRunner m_stepJob{this};    ///< builds a step's analysis and lanes
};

}  // namespace attrib::views
