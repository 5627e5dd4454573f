// SPDX-License-Identifier: GPL-3.0-or-later
// The rule debugger: replays a recorded trace (nothing is paused live). Step list with first / back /
// forward / last and run-to-breakpoint; the symptom set at the current step with the change against the
// previous one; the step's details; breakpoints; why / why-not / which-rules-looked answers.
#pragma once

#include "engine/catalog.h"
#include "views/debugger/breakpoint_model.h"
#include "views/debugger/debugger_evidence_panel.h"
#include "views/debugger/debugger_why_panel.h"
#include "views/debugger/step_details_model.h"
#include "views/debugger/step_state_job.h"
#include "views/debugger/symptom_state_model.h"

#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QSlider;
class QTabWidget;
class QTableView;
class QTreeView;

namespace attrib::views {

class DebuggerBreakpointsPanel;

class RuleDebugger : public QWidget {
    Q_OBJECT

public:
    explicit RuleDebugger(QWidget* parent = nullptr);

    /// A new trace; the debugger stands on the last step (the final state) until you step back.
    void setReplay(ReplayPtr replay, engine::CatalogPtr catalog);
    const ReplayPtr& replay() const { return m_replay; }
    int currentStep() const { return m_current; }
    int stepCount() const;

    TraceStepModel* stepModel() const { return m_steps; }
    SymptomStateModel* stateModel() const { return m_state; }
    StepDetailsModel* detailsModel() const { return m_details; }
    BreakpointModel* breakpointModel() const { return m_breakpoints; }
    DebuggerWhyPanel* whyPanel() const { return m_why; }
    DebuggerEvidencePanel* evidencePanel() const { return m_evidence; }
    QTableView* stateView() const { return m_stateView; }
    /// The last answer (why / why-not / which rules looked), shown above the tabs.
    QString answerText() const;
    /// The symptom set of the current step is still being computed (off the GUI thread); the state table
    /// shows the previous step's until stepStateReady.
    bool stateComputing() const { return m_stateJob->isPending(); }
    /// The caption above the state table ("Computing ..." while a slow step is computed).
    QString stateCaption() const;
    /// Also compute the analysis as of each step (TraceReplay::resultAt), delivered with stepStateReady.
    void setStepResultWanted(bool wanted) { m_stateJob->setResultWanted(wanted); }
    /// Blocks until the running state computation ended (tests and shutdown only).
    void waitForStepState() { m_stateJob->waitForIdle(); }

    /// Jumps to the step that set the symptom's status (as of the current step) and explains it.
    engine::WhyStatus whyStatus(const QString& symptomId);
    /// Lists the rule's non-firing evaluations with their condition values.
    engine::WhyNot whyNot(const QString& rule);
    /// The extractors and steps that looked at an evidence line (observation id).
    std::vector<engine::LineLook> rulesForObservation(quint64 observation);

public Q_SLOTS:
    void setCurrentStep(int step);
    void first();
    void back();
    void forward();
    void last();
    /// Moves to the next (previous) step hitting an enabled breakpoint; false (and no move) when none.
    bool runToBreakpoint();
    bool runBackToBreakpoint();
    /// Selects the symptom in the state table (no signal back).
    void selectSymptom(const QString& id);

Q_SIGNALS:
    void currentStepChanged(int step);
    /// The state table now shows `step` (computed off the GUI thread). `result` is the analysis as of that step
    /// when setStepResultWanted, else null.
    void stepStateReady(int step, const engine::AnalysisSnapshot& result);
    void symptomSelected(const QString& id);
    void observationSelected(quint64 observation);

private:
    void buildActions();
    void configureViews();
    void buildLayout();
    void updatePosition();
    void stepContextMenu(const QPoint& pos);
    void stateContextMenu(const QPoint& pos);
    void showTab(QWidget* tab);
    void showAnswer(const QString& text);
    void showStepState(const StepStatePtr& state);
    void showComputing();
    void updateStateCaption();

    ReplayPtr m_replay;
    engine::CatalogPtr m_catalog;
    int m_current = -1;
    bool m_syncing = false;
    QString m_pendingSymptom;  ///< to select once the current step's state arrives

    TraceStepModel* m_steps;
    SymptomStateModel* m_state;
    StepDetailsModel* m_details;
    BreakpointModel* m_breakpoints;
    QTreeView* m_stepView;
    StepStateJob* m_stateJob;
    QTimer m_computingHint;  ///< a step whose state takes longer than this shows "Computing ..."
    QTableView* m_stateView;
    QLabel* m_stateCaption;
    QTreeView* m_detailsView;
    DebuggerWhyPanel* m_why;
    DebuggerEvidencePanel* m_evidence;
    DebuggerBreakpointsPanel* m_breakpointsPanel;
    QTabWidget* m_tabs;
    QLabel* m_answer;
    QLabel* m_position;
    QSlider* m_slider;
    QAction* m_first = nullptr;
    QAction* m_back = nullptr;
    QAction* m_forward = nullptr;
    QAction* m_last = nullptr;
    QAction* m_runBack = nullptr;
    QAction* m_run = nullptr;
};

}  // namespace attrib::views
