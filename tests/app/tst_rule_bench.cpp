// SPDX-License-Identifier: GPL-3.0-or-later
// The rule bench in a standalone main window, as the lead will dock it: install, analyse the guide's bundle,
// step the debugger, sync selection, then live editing: an external edit changes the verdict and the banner
// says how; a broken edit keeps the old catalog and names file and line; corpus impact from the menu's dialog.
#include "../common/guide_blocks.h"

#include "app/bench/corpus_impact_dialog.h"
#include "app/bench/rule_bench.h"
#include "app/bench/rules_workspace.h"
#include "rules/cpp/builtin_rules.h"
#include "views/analysis_data.h"
#include "views/catalog/corpus_impact_model.h"
#include "views/catalog/diagnostics_panel.h"
#include "views/debugger/rule_debugger.h"
#include "views/editor/code_editor.h"
#include "views/editor/rule_editor.h"
#include "views/editor/verdict_banner.h"
#include "views/graph/symptom_graph_view.h"
#include "views/graph/symptom_node_item.h"
#include "views/selection_model.h"

#include <QDockWidget>
#include <QGraphicsView>
#include <QMainWindow>
#include <QMenu>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
namespace fs = std::filesystem;

namespace {
constexpr int Timeout = 120000;

QByteArray readFileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
void appendToFile(const QString& path, const char* text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write(text);
}

std::string rootOf(const engine::AnalysisSnapshot& r)
{
    return r && r->verdict.rootCause ? r->verdict.rootCause->symptomId : std::string();
}
}  // namespace

class TestRuleBench : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_rules, m_bundle;
    std::vector<tests::GuideBlock> m_blocks;
    QMainWindow m_window;
    views::SelectionModel m_selection;
    bench::RuleBench* m_bench = nullptr;
    engine::AnalysisSnapshot m_stepState;
    int m_adopted = 0;
    std::string m_goodHash;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_rules = fs::path(m_tmp.path().toStdString()) / "rules";
        m_bundle = fs::path(m_tmp.path().toStdString()) / "corpus" / "bundle-4242";
        m_blocks = tests::guideBlocks();
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, m_rules);
        tests::writeGuideBlocks(m_blocks, "bundle", m_bundle);
        tests::writeFile(m_bundle / "expected.json", "{\"terminal_state\": \"user_error\"}\n");
        bench::BenchHooks hooks;
        hooks.selection = &m_selection;
        hooks.showStepState = [this](const engine::AnalysisSnapshot& r) { m_stepState = r; };
        hooks.adoptResult = [this](const engine::AnalysisSnapshot&, const engine::CatalogPtr&) { ++m_adopted; };
        m_bench = bench::installRuleBench(&m_window, hooks);
        connect(m_bench, &bench::RuleBench::analysisChanged, this,
                [this](const engine::AnalysisSnapshot& r) { m_selection.setAnalysis(views::AnalysisData::build(r)); });
        m_bench->controller()->setDebounce(50);
        m_window.resize(1400, 900);
        m_window.show();
    }

    void installsDocksAndMenu()
    {
        for (const char* name : {"ruleDebuggerDock", "symptomGraphDock", "ruleCatalogDock", "ruleProblemsDock",
                                 "ruleEditorDock", "ruleBannerDock"})
            QVERIFY2(m_bench->dock(QLatin1String(name)), name);
        QVERIFY(m_bench->menu());
        QCOMPARE(m_bench->menu()->title(), QStringLiteral("&Rules"));
        QVERIFY(m_bench->menu()->actions().size() >= 8);
    }

    void analysesTheBundle()
    {
        m_bench->start(QString::fromStdString(m_rules.string()), QString::fromStdString(m_bundle.string()));
        QTRY_VERIFY_WITH_TIMEOUT(m_bench->controller()->result() != nullptr, Timeout);
        QTRY_VERIFY_WITH_TIMEOUT(!m_bench->controller()->busy(), Timeout);
        QCOMPARE(m_bench->controller()->result()->verdict.terminalState, std::string("user_error"));
        QCOMPARE(rootOf(m_bench->controller()->result()), std::string("container_bad_argument@job"));
        m_goodHash = m_bench->controller()->catalog()->hash();
        QTRY_VERIFY_WITH_TIMEOUT(m_bench->replay() && m_bench->replay()->snapshot() == m_bench->controller()->result(),
                                 Timeout);  // the trace is indexed off the GUI thread
        QCOMPARE(m_bench->debugger()->stepCount(), static_cast<int>(m_bench->replay()->stepCount()));
        QCOMPARE(m_bench->graph()->scene()->graph().nodes.size(), m_bench->controller()->result()->symptoms.size());
        QCOMPARE(m_adopted, 0);  // the first analysis is not a live-edit result
    }

    void debuggerDrivesGraphAndStepState()
    {
        auto* debugger = m_bench->debugger();
        debugger->first();
        const auto firstAdd = *m_bench->replay()->firstStepOfPhase(engine::TracePhase::Symptoms);
        debugger->setCurrentStep(static_cast<int>(firstAdd));
        // The step's state is computed off the GUI thread: graph and timeline follow once it arrives.
        QTRY_VERIFY(m_stepState && m_stepState->symptoms.size() == 1);
        QVERIFY(!m_stepState->verdict.rootCause);
        QCOMPARE(m_bench->graph()->scene()->stateText().count(QLatin1Char('\n')), 0);
        debugger->last();
        QTRY_COMPARE(m_stepState, m_bench->replay()->snapshot());
    }

    void selectionFollowsEveryView()
    {
        const auto& symptoms = m_bench->controller()->result()->symptoms;
        m_bench->graph()->scene()->nodeItem(QString::fromStdString(symptoms[0].id))->setSelected(true);
        QCOMPARE(m_selection.current().symptom, 0);
        QTRY_COMPARE(m_bench->debugger()->stateView()->currentIndex().row(), 0);
        m_selection.selectSymptom(1);
        QCOMPARE(m_bench->graph()->selectedSymptom(), QString::fromStdString(symptoms[1].id));
    }

    void editingARuleFileChangesTheVerdict()
    {
        QCOMPARE(tests::writeGuideBlocks(m_blocks, "file", m_rules), 2);  // an external change: the watcher sees it
        QTRY_VERIFY_WITH_TIMEOUT(rootOf(m_bench->controller()->result()) == "container_image_reference_invalid@job",
                                 Timeout);
        const auto* banner = m_bench->banner();
        QCOMPARE(banner->kind(), views::VerdictBanner::Kind::Changed);
        QVERIFY2(banner->text().contains(
                     QStringLiteral("user_error/container (root container_bad_argument@job) -> "
                                    "user_error/configuration (root container_image_reference_invalid@job)")),
                 qPrintable(banner->text()));
        QVERIFY(banner->text().contains(
            QStringLiteral("container_bad_argument@job: active -> scrubbed by ScrubSuperseded")));
        QVERIFY(banner->text().contains(QStringLiteral("container_image_reference_invalid@job: added (active)")));
        QVERIFY(m_bench->dock(QStringLiteral("ruleBannerDock"))->isVisible());
        QCOMPARE(m_adopted, 1);
        QVERIFY(m_bench->controller()->catalog()->symptom("container_image_reference_invalid"));
        m_goodHash = m_bench->controller()->catalog()->hash();
        QCOMPARE(m_bench->graph()->scene()->nodeItem(QStringLiteral("container_bad_argument@job"))->isVisible(), true);
    }

    void brokenEditKeepsTheLastGoodCatalog()
    {
        const QString file = QString::fromStdString((m_rules / "extractors" / "container_image.json").string());
        m_bench->openRuleFile(file, 1);
        auto* editor = m_bench->editor();
        QCOMPARE(editor->filePath(), file);
        const QString good = editor->editor()->toPlainText();
        QString broken = good;
        broken.replace(QStringLiteral("\"event\": \"container_error\","),
                       QStringLiteral("\"event\": \"container_error\""));
        QVERIFY(broken != good);
        editor->editor()->setPlainText(broken);
        const auto before = m_bench->controller()->result();
        QVERIFY(editor->save());
        QTRY_COMPARE_WITH_TIMEOUT(m_bench->banner()->kind(), views::VerdictBanner::Kind::Rejected, Timeout);
        const int line = static_cast<int>(broken.left(broken.indexOf(QStringLiteral("\"symptom\": \"container_image")))
                                              .count(QLatin1Char('\n'))) +
            1;
        QVERIFY2(m_bench->banner()->headline().contains(QStringLiteral("extractors/container_image.json:%1").arg(line)),
                 qPrintable(m_bench->banner()->headline()));
        QVERIFY(m_bench->banner()->headline().contains(QStringLiteral("invalid JSON")));
        QCOMPARE(m_bench->controller()->catalog()->hash(), m_goodHash);
        QCOMPARE(m_bench->controller()->result(), before);
        QVERIFY(m_bench->problems()->caption().contains(QStringLiteral("last good catalog stays active")));
        QVERIFY(editor->editor()->problemLines().contains(line));
        // Fixing the file brings the same catalog back: the verdict is unchanged.
        editor->editor()->setPlainText(good);
        QVERIFY(editor->save());
        QTRY_COMPARE_WITH_TIMEOUT(m_bench->banner()->kind(), views::VerdictBanner::Kind::Unchanged, Timeout);
        QCOMPARE(m_bench->controller()->catalog()->hash(), m_goodHash);
    }

    void corpusImpactFromTheBench()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!m_bench->controller()->busy(), Timeout);
        bench::CorpusImpactDialog dialog(m_bench->controller(), &m_window);
        QSignalSpy finished(&dialog, &bench::CorpusImpactDialog::finished);
        dialog.run(QString::fromStdString(m_bundle.parent_path().string()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, Timeout);
        QCOMPARE(dialog.model()->rowCount(), 1);
        QVERIFY(dialog.model()->index(0, 0).data(views::CorpusImpactModel::ChangedRole).toBool());
        QVERIFY(dialog.summary().startsWith(QStringLiteral("1 of 1 verdict(s) changed")));
    }

    void corpusImpactCanBeCancelled()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!m_bench->controller()->busy(), Timeout);
        bench::CorpusImpactDialog dialog(m_bench->controller(), &m_window);
        QSignalSpy finished(&dialog, &bench::CorpusImpactDialog::finished);
        dialog.run(bench::CorpusImpactDialog::defaultCorpus());  // every sample, twice: minutes if not stopped
        QVERIFY(dialog.running());
        dialog.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, Timeout);
        QVERIFY(!dialog.running());
        QVERIFY2(dialog.summary().startsWith(QStringLiteral("Cancelled")), qPrintable(dialog.summary()));
        QCOMPARE(dialog.model()->rowCount(), 0);
    }

    void openBundleAnalysesAnotherBundleWithTheActiveCatalog()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!m_bench->controller()->busy(), Timeout);
        const QString sample = QString::fromStdString(std::string(ATTRIB_SOURCE_DIR) + "/samples/nvlink-xid149");
        const auto catalog = m_bench->controller()->catalog();
        m_bench->openBundle(sample);
        QTRY_VERIFY_WITH_TIMEOUT(m_bench->controller()->bundlePath() == sample && !m_bench->controller()->busy() &&
                                     rootOf(m_bench->controller()->result()) == "nvlink_signal_integrity@node-02/gpu3",
                                 Timeout);
        QCOMPARE(m_bench->controller()->catalog()->hash(), catalog->hash());
        QTRY_VERIFY_WITH_TIMEOUT(m_bench->replay() && m_bench->replay()->snapshot() == m_bench->controller()->result(),
                                 Timeout);
        QCOMPARE(m_bench->debugger()->stepCount(), static_cast<int>(m_bench->replay()->stepCount()));
    }

    void graphStaysFittedWhenItsPanelResizes()
    {
        auto* graph = m_bench->graph();
        auto* dock = m_bench->dock(QStringLiteral("symptomGraphDock"));
        dock->show();
        dock->raise();
        graph->fitToWindow();
        QVERIFY(graph->fitsToWindow());
        m_window.resizeDocks({dock}, {500}, Qt::Vertical);
        QTRY_VERIFY(graph->view()->viewport()->height() > 300);
        // Fitted: the whole scene is inside the viewport and fills it in one direction.
        const QRect mapped = graph->view()->mapFromScene(graph->scene()->sceneRect()).boundingRect();
        const QRect viewport = graph->view()->viewport()->rect();
        QVERIFY2(viewport.adjusted(-2, -2, 2, 2).contains(mapped), "scene outside the viewport");
        QVERIFY2(mapped.width() > viewport.width() * 0.8 || mapped.height() > viewport.height() * 0.8 ||
                     graph->zoom() > 1.5,
                 "graph not fitted");
        graph->zoomBy(2.0);
        QVERIFY(!graph->fitsToWindow());  // the user's zoom is kept on resize
        const double zoomed = graph->zoom();
        m_window.resizeDocks({dock}, {350}, Qt::Vertical);
        QTRY_COMPARE(graph->zoom(), zoomed);
    }

    void cataloguePanelsOpenAtAWorkingWidth()
    {
        auto* dock = m_bench->dock(QStringLiteral("ruleCatalogDock"));
        QVERIFY(!dock->isVisible());
        dock->show();
        QTRY_VERIFY2(dock->width() >= m_window.width() / 4,
                     qPrintable(QStringLiteral("catalog %1 px of %2").arg(dock->width()).arg(m_window.width())));
    }

    void editsGoToACopyOfTheShippedCatalog()
    {
        const fs::path shipped = fs::path(m_tmp.path().toStdString()) / "shipped";
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, shipped);
        const QString shippedDir = QString::fromStdString(shipped.string());
        const QString copyRoot = m_tmp.filePath(QStringLiteral("user/rules"));
        auto ws = bench::prepareRulesWorkspace(shippedDir, false, copyRoot);
        QVERIFY(ws.isCopy);
        QCOMPARE(ws.dir, copyRoot);
        QCOMPARE(ws.shipped, shippedDir);
        QVERIFY(ws.note.contains(copyRoot) && ws.note.contains(shippedDir) && ws.note.contains(QStringLiteral("copy")));
        QCOMPARE(bench::catalogContentHash(copyRoot), bench::catalogContentHash(shippedDir));
        QCOMPARE(rules::loadCatalog(copyRoot.toStdString())->hash(),
                 rules::loadCatalog(shippedDir.toStdString())->hash());

        // The author's edit lands in the copy only and survives the next start.
        const QString edited = copyRoot + QStringLiteral("/extractors/gpu.json");
        const QString shippedFile = shippedDir + QStringLiteral("/extractors/gpu.json");
        const QByteArray original = readFileBytes(shippedFile);
        appendToFile(edited, "\n");
        QCOMPARE(readFileBytes(shippedFile), original);
        ws = bench::prepareRulesWorkspace(shippedDir, false, copyRoot);
        QVERIFY(!ws.behindShipped);
        QCOMPARE(readFileBytes(edited), original + "\n");

        // An upgrade of the shipped catalog: the edited copy is kept and the note says it is behind.
        appendToFile(shippedDir + QStringLiteral("/extractors/nccl.json"), " ");
        ws = bench::prepareRulesWorkspace(shippedDir, false, copyRoot);
        QVERIFY(ws.behindShipped);
        QVERIFY(ws.note.contains(QStringLiteral("Reset rules copy")));
        QCOMPARE(readFileBytes(edited), original + "\n");
        m_bench->setWorkspace(ws);
        QCOMPARE(m_bench->editor()->note(), ws.note);
        QVERIFY(m_bench->resetRulesCopy(false));
        QCOMPARE(bench::catalogContentHash(copyRoot), bench::catalogContentHash(shippedDir));
        QVERIFY(!m_bench->workspace().behindShipped);

        // An unedited copy follows the shipped catalog.
        appendToFile(shippedDir + QStringLiteral("/extractors/nccl.json"), " ");
        ws = bench::prepareRulesWorkspace(shippedDir, false, copyRoot);
        QVERIFY(!ws.behindShipped);
        QCOMPARE(bench::catalogContentHash(copyRoot), bench::catalogContentHash(shippedDir));
    }

    void aChosenFolderIsEditedInPlace()
    {
        const QString dir = QString::fromStdString(m_rules.string());
        const auto ws = bench::prepareRulesWorkspace(dir, true, m_tmp.filePath(QStringLiteral("unused")));
        QVERIFY(!ws.isCopy);
        QCOMPARE(ws.dir, dir);
        QVERIFY(ws.note.contains(dir) && ws.note.contains(QStringLiteral("--rules")));
        QVERIFY(!QFileInfo::exists(m_tmp.filePath(QStringLiteral("unused"))));
        m_bench->setWorkspace(ws);
        QVERIFY(!m_bench->resetRulesCopy(false));
    }
};

QTEST_MAIN(TestRuleBench)
#include "tst_rule_bench.moc"
