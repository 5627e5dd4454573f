// SPDX-License-Identifier: GPL-3.0-or-later
// The rule author's bench: rule debugger, symptom graph, catalog browser, rule problems, rule editor with
// live reload, and corpus impact, docked into a main window.
//
// Integration contract (for MainWindow):
//   auto* bench = attrib::bench::installRuleBench(window, hooks);
//   - Creates five QDockWidgets (object names "ruleDebuggerDock", "symptomGraphDock", "ruleCatalogDock",
//     "ruleProblemsDock", "ruleEditorDock"; the debugger and graph tabified at the bottom, the catalog and
//     problems on the right, the editor tabified with the catalog) and a "&Rules" menu in the window's
//     menu bar (open rule file, reload catalog, why-this-status, why-not, which-rules-looked-at-this-line,
//     corpus impact), plus the verdict-change banner as a top dock. Docks start hidden except the
//     debugger and graph; the window's restoreState() may override that (names are stable).
//   - Call bench->setAnalysis(result, catalog, bundlePath) whenever the window has a finished analysis
//     (the catalog that produced it, and the bundle path). Nothing is re-run; the rules folder of the
//     catalog is watched from then on.
//   - Live editing: a saved or externally changed rule file reloads the catalog (inline cases run),
//     re-runs the analysis in the background, shows the banner, and calls hooks.adoptResult with the new
//     result and catalog so the window can show it everywhere. A broken edit shows its diagnostics and
//     keeps the last good catalog.
//   - Selection: with hooks.selection set, selecting a symptom in the graph or the debugger selects it in
//     the shared SelectionModel, and a symptom selected elsewhere is selected in the graph and debugger.
//     The "Which rules looked at this line?" action answers for the selection's current observation.
//   - Step state: when the debugger moves to a step, hooks.showStepState receives the analysis as it
//     stood after that step (only the symptoms raised so far, statuses then, no verdict before the
//     outcome step) so the timeline can draw it; on a new analysis it receives the final result.
//   - Everything runs on the GUI thread except catalog loading, analysis, indexing a new result's trace (replay() and
//     the debugger get it, and analysisChanged is emitted, when the index is built) and the debugger's state at a step
//     (the symptom set and the analysis as of the step: views::StepStateJob), all with stale results dropped. The bench
//     never calls processEvents().
#pragma once

#include "app/bench/rule_bench_controller.h"
#include "app/bench/rules_workspace.h"
#include "engine/trace_replay.h"
#include "views/debugger/trace_step_model.h"
#include "views/job_runner.h"

#include <QObject>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace attrib::views {
class CatalogBrowser;
class DiagnosticsPanel;
class RuleDebugger;
class RuleEditor;
class SelectionModel;
class SymptomGraphView;
class VerdictBanner;
}  // namespace attrib::views

namespace attrib::bench {

struct BenchHooks {
    /// The window's shared selection; may be null.
    views::SelectionModel* selection = nullptr;
    /// Receives the analysis as of the debugger's current step; may be empty.
    std::function<void(const engine::AnalysisSnapshot&)> showStepState;
    /// Receives a result re-run by live editing, with the catalog that produced it; may be empty.
    std::function<void(const engine::AnalysisSnapshot&, const engine::CatalogPtr&)> adoptResult;
};

class RuleBench : public QObject {
    Q_OBJECT

public:
    RuleBench(QMainWindow* window, BenchHooks hooks);

    /// A finished analysis of the window (no re-run).
    void setAnalysis(const engine::AnalysisSnapshot& result, const engine::CatalogPtr& catalog,
                     const QString& bundlePath);
    /// Loads a rules folder and analyses a bundle itself (the standalone harness).
    void start(const QString& rulesDir, const QString& bundlePath);
    /// Analyses another bundle with the active catalog (File › Open in the standalone bench).
    void openBundle(const QString& bundlePath);
    /// Which rules folder is edited: shown above the editor; "Reset rules copy" works on a copy only.
    void setWorkspace(const RulesWorkspace& workspace);
    const RulesWorkspace& workspace() const { return m_workspace; }
    /// Replaces the edited copy with the shipped catalog and reloads (asks first unless `confirm` is false).
    bool resetRulesCopy(bool confirm = true);

    RuleBenchController* controller() const { return m_controller; }
    views::RuleDebugger* debugger() const { return m_debugger; }
    views::SymptomGraphView* graph() const { return m_graph; }
    views::CatalogBrowser* catalogBrowser() const { return m_catalog; }
    views::DiagnosticsPanel* problems() const { return m_problems; }
    views::RuleEditor* editor() const { return m_editor; }
    views::VerdictBanner* banner() const { return m_banner; }
    QMenu* menu() const { return m_menu; }
    QDockWidget* dock(const QString& objectName) const;
    std::shared_ptr<const engine::TraceReplay> replay() const { return m_replay; }

    /// Opens a rule file in the editor and raises it.
    void openRuleFile(const QString& path, int line = 0);
    /// "Which rules looked at this line?" for an observation id; raises the debugger.
    void explainObservation(quint64 observation);
    /// The corpus impact dialog: the active catalog against a baseline folder over a corpus.
    void showCorpusImpact();

Q_SIGNALS:
    /// The bench has a new analysis (adopted or re-run).
    void analysisChanged(const attrib::engine::AnalysisSnapshot& result);

private:
    void buildDocks();
    void buildMenu();
    void connectViews();
    void connectController();
    void connectSelection();
    void showResult(const engine::AnalysisSnapshot& result);
    void showReplay(const engine::AnalysisSnapshot& result, views::ReplayPtr replay);
    void onStepState(int step, const engine::AnalysisSnapshot& result);
    void sizeWhenFirstShown(QDockWidget* dock, Qt::Orientation orientation, double share);
    QString catalogLine() const;

    QMainWindow* m_window;
    BenchHooks m_hooks;
    RuleBenchController* m_controller;
    std::shared_ptr<const engine::TraceReplay> m_replay;
    views::JobRunner m_replayJob{this};  ///< indexes a new result's trace
    views::RuleDebugger* m_debugger = nullptr;
    views::SymptomGraphView* m_graph = nullptr;
    views::CatalogBrowser* m_catalog = nullptr;
    views::DiagnosticsPanel* m_problems = nullptr;
    views::RuleEditor* m_editor = nullptr;
    views::VerdictBanner* m_banner = nullptr;
    QMenu* m_menu = nullptr;
    QAction* m_resetCopy = nullptr;
    RulesWorkspace m_workspace;
    bool m_syncing = false;
};

/// Creates the bench's docks and menu in `window` (see the contract above). The bench is owned by the window.
RuleBench* installRuleBench(QMainWindow* window, BenchHooks hooks = {});

}  // namespace attrib::bench
