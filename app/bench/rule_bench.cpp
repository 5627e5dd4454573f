// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/bench/rule_bench.h"

#include "app/bench/corpus_impact_dialog.h"
#include "views/catalog/catalog_browser.h"
#include "views/catalog/diagnostics_panel.h"
#include "views/debugger/rule_debugger.h"
#include "views/editor/rule_editor.h"
#include "views/editor/verdict_banner.h"
#include "views/graph/symptom_graph_view.h"
#include "views/presentation.h"
#include "views/selection_model.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>

namespace attrib::bench {

using views::qs;

RuleBench* installRuleBench(QMainWindow* window, BenchHooks hooks)
{
    return new RuleBench(window, std::move(hooks));
}

RuleBench::RuleBench(QMainWindow* window, BenchHooks hooks)
    : QObject(window)
    , m_window(window)
    , m_hooks(std::move(hooks))
    , m_controller(new RuleBenchController(this))
{
    buildDocks();
    buildMenu();
    connectViews();
    connectController();
    connectSelection();
}

QDockWidget* RuleBench::dock(const QString& objectName) const
{
    return m_window->findChild<QDockWidget*>(objectName);
}

void RuleBench::buildDocks()
{
    m_debugger = new views::RuleDebugger(m_window);
    m_debugger->setStepResultWanted(static_cast<bool>(m_hooks.showStepState));
    m_graph = new views::SymptomGraphView(m_window);
    m_catalog = new views::CatalogBrowser(m_window);
    m_problems = new views::DiagnosticsPanel(m_window);
    m_editor = new views::RuleEditor(m_window);
    m_banner = new views::VerdictBanner(m_window);
    auto make = [this](QWidget* widget, const QString& title, const char* name, Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, m_window);
        dock->setObjectName(QLatin1String(name));
        dock->setWidget(widget);
        m_window->addDockWidget(area, dock);
        return dock;
    };
    auto* debugger = make(m_debugger, tr("Rule debugger"), "ruleDebuggerDock", Qt::BottomDockWidgetArea);
    auto* graph = make(m_graph, tr("Symptom graph"), "symptomGraphDock", Qt::BottomDockWidgetArea);
    auto* catalog = make(m_catalog, tr("Rule catalog"), "ruleCatalogDock", Qt::RightDockWidgetArea);
    auto* problems = make(m_problems, tr("Rule problems"), "ruleProblemsDock", Qt::RightDockWidgetArea);
    auto* editor = make(m_editor, tr("Rule editor"), "ruleEditorDock", Qt::RightDockWidgetArea);
    auto* banner = make(m_banner, tr("Rule changes"), "ruleBannerDock", Qt::TopDockWidgetArea);
    banner->setTitleBarWidget(new QWidget(banner));
    banner->setFeatures(QDockWidget::NoDockWidgetFeatures);
    banner->hide();
    m_window->tabifyDockWidget(debugger, graph);
    m_window->tabifyDockWidget(catalog, editor);
    debugger->raise();
    for (auto* d : {catalog, problems, editor}) {
        d->hide();
        sizeWhenFirstShown(d, Qt::Horizontal, 0.4);
    }
    connect(m_banner, &views::VerdictBanner::dismissed, banner, &QDockWidget::hide);
}

void RuleBench::buildMenu()
{
    m_menu = m_window->menuBar()->addMenu(tr("&Rules"));
    m_menu->addAction(tr("&Open rule file\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open rule file"), m_controller->rulesDir(),
                                                          tr("Rule files (*.json)"));
        if (!path.isEmpty())
            openRuleFile(path);
    });
    m_menu->addAction(tr("&Reload catalog"), QKeySequence(Qt::Key_F6), m_controller, &RuleBenchController::reload);
    m_resetCopy = m_menu->addAction(tr("Reset rules &copy\u2026"), this, [this] { resetRulesCopy(); });
    m_resetCopy->setEnabled(false);
    m_resetCopy->setToolTip(tr("Replace your edited copy of the catalog with the shipped catalog"));
    m_menu->addSeparator();
    m_menu->addAction(tr("Why this &status?"), this, [this] {
        const QString id = m_graph->selectedSymptom();
        if (!id.isEmpty())
            m_debugger->whyStatus(id);
        dock(QStringLiteral("ruleDebuggerDock"))->raise();
    });
    m_menu->addAction(tr("Why didn't a rule &fire?\u2026"), this, [this] {
        QStringList rules;
        if (const auto cat = m_controller->catalog()) {
            for (const auto& r : cat->refineRules())
                rules << qs(r.id);
            for (const auto& t : cat->priorityTables())
                rules << qs(t.id);
            for (const auto& x : cat->extractors())
                rules << qs(x.id);
        }
        bool ok = false;
        const QString rule =
            QInputDialog::getItem(m_window, tr("Why didn't this fire?"), tr("Rule:"), rules, 0, true, &ok);
        if (ok && !rule.isEmpty()) {
            m_debugger->whyNot(rule);
            dock(QStringLiteral("ruleDebuggerDock"))->show();
            dock(QStringLiteral("ruleDebuggerDock"))->raise();
        }
    });
    m_menu->addAction(tr("Which rules &looked at this line?"), this, [this] {
        const auto* sel = m_hooks.selection;
        if (sel && sel->analysis() && sel->current().observation >= 0)
            explainObservation(sel->analysis()->r().observations[sel->current().observation].id);
    });
    m_menu->addSeparator();
    m_menu->addAction(tr("&Corpus impact\u2026"), this, &RuleBench::showCorpusImpact);
    m_menu->addSeparator();
    for (const char* name :
         {"ruleDebuggerDock", "symptomGraphDock", "ruleCatalogDock", "ruleProblemsDock", "ruleEditorDock"})
        m_menu->addAction(dock(QLatin1String(name))->toggleViewAction());
}

void RuleBench::connectViews()
{
    connect(m_debugger, &views::RuleDebugger::stepStateReady, this, &RuleBench::onStepState);
    connect(m_graph, &views::SymptomGraphView::whyStatusRequested, this, [this](const QString& id) {
        m_debugger->whyStatus(id);
        dock(QStringLiteral("ruleDebuggerDock"))->raise();
    });
    connect(m_catalog, &views::CatalogBrowser::openRuleFile, this, &RuleBench::openRuleFile);
    connect(m_problems, &views::DiagnosticsPanel::openLocation, this, &RuleBench::openRuleFile);
    connect(m_catalog, &views::CatalogBrowser::whyNotRequested, this, [this](const QString& rule) {
        m_debugger->whyNot(rule);
        dock(QStringLiteral("ruleDebuggerDock"))->show();
        dock(QStringLiteral("ruleDebuggerDock"))->raise();
    });
    connect(m_catalog, &views::CatalogBrowser::breakpointRequested, this, [this](const QString& rule) {
        m_debugger->breakpointModel()->addBreakpoint(engine::Breakpoint::Kind::Rule, rule);
    });
    connect(m_editor, &views::RuleEditor::saved, m_controller, &RuleBenchController::reload);
}

void RuleBench::connectController()
{
    connect(m_controller, &RuleBenchController::ruleFileChanged, this, [this](const QString& path) {
        if (path == m_editor->filePath())
            m_editor->fileChangedOnDisk();
    });
    connect(m_controller, &RuleBenchController::catalogLoaded, this, [this](const engine::CatalogPtr& catalog) {
        m_catalog->setCatalog(catalog);
        m_problems->showCatalog(*catalog);
        m_editor->setProblems(catalog->diagnostics(), qs(catalog->directory()));
    });
    connect(m_controller, &RuleBenchController::catalogRejected, this,
            [this](const engine::CatalogPtr& broken, const std::vector<engine::Diagnostic>& problems) {
                m_problems->showRejected(*broken, problems);
                m_editor->setProblems(problems, qs(broken->directory()));
                m_banner->showRejected(problems);
                dock(QStringLiteral("ruleBannerDock"))->show();
                dock(QStringLiteral("ruleProblemsDock"))->show();
            });
    connect(m_controller, &RuleBenchController::analysisFinished, this,
            [this](const engine::AnalysisSnapshot& result, const engine::VerdictDiff& diff, bool first) {
                showResult(result);
                if (!first) {
                    m_banner->showDiff(diff, catalogLine());
                    dock(QStringLiteral("ruleBannerDock"))->show();
                    if (m_hooks.adoptResult)
                        m_hooks.adoptResult(result, m_controller->catalog());
                }
            });
    connect(m_controller, &RuleBenchController::analysisFailed, this, [this](const QString& error) {
        m_banner->showRejected({{engine::Diagnostic::Severity::Error, {}, {}, error.toStdString()}});
        dock(QStringLiteral("ruleBannerDock"))->show();
    });
}

void RuleBench::connectSelection()
{
    auto select = [this](const QString& id) {
        if (m_syncing)
            return;
        m_syncing = true;
        m_graph->selectSymptom(id);
        m_debugger->selectSymptom(id);
        if (auto* sel = m_hooks.selection; sel && sel->analysis())
            sel->selectSymptom(sel->analysis()->symptomIndex(id.toStdString()));
        m_syncing = false;
    };
    connect(m_graph, &views::SymptomGraphView::symptomSelected, this, select);
    connect(m_debugger, &views::RuleDebugger::symptomSelected, this, select);
    if (!m_hooks.selection)
        return;
    connect(m_hooks.selection, &views::SelectionModel::selectionChanged, this, [this](const views::Selection& s) {
        const auto* sel = m_hooks.selection;
        if (m_syncing || s.symptom < 0 || !sel->analysis())
            return;
        m_syncing = true;
        const QString id = qs(sel->analysis()->r().symptoms[static_cast<std::size_t>(s.symptom)].id);
        m_graph->selectSymptom(id);
        m_debugger->selectSymptom(id);
        m_syncing = false;
    });
}

void RuleBench::setAnalysis(const engine::AnalysisSnapshot& result, const engine::CatalogPtr& catalog,
                            const QString& bundlePath)
{
    m_controller->adopt(catalog, result, bundlePath);
    m_catalog->setCatalog(catalog);
    if (catalog) {
        m_problems->showCatalog(*catalog);
        m_editor->setProblems(catalog->diagnostics(), qs(catalog->directory()));
    }
    showResult(result);
}

void RuleBench::start(const QString& rulesDir, const QString& bundlePath)
{
    m_controller->start(rulesDir, bundlePath);
}

void RuleBench::openBundle(const QString& bundlePath)
{
    m_controller->start(m_controller->rulesDir(), bundlePath);
}

void RuleBench::setWorkspace(const RulesWorkspace& workspace)
{
    m_workspace = workspace;
    m_editor->setNote(workspace.note);
    m_resetCopy->setEnabled(workspace.isCopy);
}

bool RuleBench::resetRulesCopy(bool confirm)
{
    if (!m_workspace.isCopy)
        return false;
    if (confirm &&
        QMessageBox::question(m_window, tr("Reset rules copy"),
                              tr("Replace every rule file in %1 with the shipped catalog from %2? "
                                 "Your edits there are lost.")
                                  .arg(m_workspace.dir, m_workspace.shipped)) != QMessageBox::Yes)
        return false;
    QString error;
    if (!bench::resetRulesCopy(m_workspace, &error)) {
        QMessageBox::warning(m_window, tr("Reset rules copy"), tr("Could not reset the copy: %1").arg(error));
        return false;
    }
    setWorkspace(m_workspace);
    if (m_editor->filePath().startsWith(m_workspace.dir))
        m_editor->fileChangedOnDisk();
    m_controller->reload();
    return true;
}

void RuleBench::sizeWhenFirstShown(QDockWidget* dock, Qt::Orientation orientation, double share)
{
    // Docks open hidden; the first time one is shown cramped (under half the wanted share, e.g. the minimum
    // the layout gives a new dock) it takes a working share of the window. A restored wider layout is kept.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(dock, &QDockWidget::visibilityChanged, this, [=, this](bool visible) {
        if (!visible || dock->isFloating())
            return;
        disconnect(*connection);
        const int extent = orientation == Qt::Horizontal ? m_window->width() : m_window->height();
        const int current = orientation == Qt::Horizontal ? dock->width() : dock->height();
        const int wanted = static_cast<int>(extent * share);
        if (current < wanted / 2)
            m_window->resizeDocks({dock}, {wanted}, orientation);
    });
}

void RuleBench::showResult(const engine::AnalysisSnapshot& result)
{
    m_graph->setResult(result);
    if (!result) {
        m_replayJob.cancel();
        showReplay(nullptr, nullptr);
        return;
    }
    // Indexing the trace takes as long as the trace is big: on the jobs' pool, not on the GUI thread.
    views::JobHandlers<views::ReplayPtr> on;
    on.result = [this, result](const views::ReplayPtr& replay) { showReplay(result, replay); };
    m_replayJob.start<views::ReplayPtr>(
        [result](QPromise<views::ReplayPtr>& promise, const engine::CancelFlag& cancelled) {
            auto replay = std::make_shared<const engine::TraceReplay>(result);
            if (!cancelled)
                promise.addResult(std::move(replay));
        },
        std::move(on));
}

void RuleBench::showReplay(const engine::AnalysisSnapshot& result, views::ReplayPtr replay)
{
    m_replay = std::move(replay);
    m_debugger->setReplay(m_replay, m_controller->catalog());
    if (m_hooks.showStepState && result)
        m_hooks.showStepState(result);
    Q_EMIT analysisChanged(result);
}

void RuleBench::onStepState(int step, const engine::AnalysisSnapshot& result)
{
    if (!m_replay)
        return;
    if (step == m_debugger->stepCount() - 1)
        m_graph->showFinal();
    else
        m_graph->showStates(m_replay, step, m_debugger->stateModel()->states());
    if (m_hooks.showStepState)
        m_hooks.showStepState(result);  // computed with the step's state (setStepResultWanted)
}

void RuleBench::openRuleFile(const QString& path, int line)
{
    if (!m_editor->openFile(path, line))
        return;
    if (auto* d = dock(QStringLiteral("ruleEditorDock"))) {
        d->show();
        d->raise();
    }
}

void RuleBench::explainObservation(quint64 observation)
{
    m_debugger->rulesForObservation(observation);
    if (auto* d = dock(QStringLiteral("ruleDebuggerDock"))) {
        d->show();
        d->raise();
    }
}

void RuleBench::showCorpusImpact()
{
    auto* dialog = new CorpusImpactDialog(m_controller, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

QString RuleBench::catalogLine() const
{
    const auto cat = m_controller->catalog();
    if (!cat)
        return {};
    return tr("catalog %1 (%2): %3 inline case(s) pass, %4 fail")
        .arg(qs(cat->version()), qs(cat->hash()))
        .arg(cat->casesPassed())
        .arg(cat->casesFailed());
}

}  // namespace attrib::bench
