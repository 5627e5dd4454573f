// SPDX-License-Identifier: GPL-3.0-or-later
// The rule bench in a standalone main window, as the lead will dock it: install, analyse the guide's bundle,
// step the debugger, sync selection, then live editing: an external edit changes the verdict and the banner
// says how; a broken edit keeps the old catalog and names file and line; corpus impact from the menu's dialog.
#include "../common/guide_blocks.h"

#include "app/bench/corpus_impact_dialog.h"
#include "app/bench/rule_bench.h"
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
#include <QMainWindow>
#include <QMenu>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
namespace fs = std::filesystem;

namespace {
constexpr int Timeout = 120000;

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
        QVERIFY(m_bench->replay());
        QCOMPARE(m_bench->debugger()->stepCount(), static_cast<int>(m_bench->replay()->stepCount()));
        QCOMPARE(m_bench->graph()->scene()->graph().nodes.size(), m_bench->controller()->result()->symptoms.size());
        QCOMPARE(m_adopted, 0);  // the first analysis is not a live-edit result
    }

    void debuggerDrivesGraphAndStepState()
    {
        auto* debugger = m_bench->debugger();
        debugger->first();
        const auto firstAdd = *m_bench->replay()->firstStepOfPhase("symptoms");
        debugger->setCurrentStep(static_cast<int>(firstAdd));
        QVERIFY(m_stepState);
        QCOMPARE(m_stepState->symptoms.size(), std::size_t(1));
        QVERIFY(!m_stepState->verdict.rootCause);
        QCOMPARE(m_bench->graph()->scene()->stateText().count(QLatin1Char('\n')), 0);
        debugger->last();
        QCOMPARE(m_stepState, m_bench->replay()->snapshot());
    }

    void selectionFollowsEveryView()
    {
        const auto& symptoms = m_bench->controller()->result()->symptoms;
        m_bench->graph()->scene()->nodeItem(QString::fromStdString(symptoms[0].id))->setSelected(true);
        QCOMPARE(m_selection.current().symptom, 0);
        QCOMPARE(m_bench->debugger()->stateView()->currentIndex().row(), 0);
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
};

QTEST_MAIN(TestRuleBench)
#include "tst_rule_bench.moc"
