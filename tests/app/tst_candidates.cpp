// SPDX-License-Identifier: GPL-3.0-or-later
// An ambiguous verdict (issue 12): the workbench opens on the first candidate's decisive line, the candidates can
// be compared side by side (rows that tell them apart tinted, a header click shows that candidate), and the
// demotions that name one candidate say that the other could explain them too.
#include "../common/test_catalog.h"
#include "../common/workbench_window.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "views/models/symptom_tree_model.h"
#include "views/selection_model.h"
#include "views/verdict/candidate_comparison.h"
#include "views/verdict/verdict_panel.h"

#include <QDialog>
#include <QHeaderView>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestCandidates : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    const views::AnalysisData& analysis() const { return *m_window->bundleController()->analysis(); }

private Q_SLOTS:
    void initTestCase()
    {
        m_window = tests::showWorkbench(m_settings, m_dir);
        QVERIFY(m_window);
        QVERIFY(tests::openSampleAndWait(*m_window, "ambiguous-nvlink-pair"));
        QCOMPARE(analysis().r().verdict.terminalState, std::string("ambiguous"));
        QVERIFY(analysis().r().verdict.candidates.size() >= 2);
    }

    void opensOnTheFirstCandidatesLine()
    {
        const auto& first = analysis().r().verdict.candidates.front();
        const auto& selection = m_window->selectionModel()->current();
        QCOMPARE(selection.symptom, analysis().symptomIndex(first.symptomId));
        QVERIFY(selection.observation >= 0);
    }

    void comparesTheCandidatesSideBySide()
    {
        auto* button = m_window->verdictPanel()->findChild<QPushButton*>(QStringLiteral("compareCandidates"));
        QVERIFY(button);
        button->click();
        auto* dialog = m_window->verdictPanel()->findChild<QDialog*>(QStringLiteral("candidateComparisonDialog"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto* table = dialog->findChild<views::CandidateComparison*>();
        QVERIFY(table);
        const auto& candidates = analysis().r().verdict.candidates;
        QCOMPARE(table->columnCount(), static_cast<int>(candidates.size()));
        QCOMPARE(table->item(views::CandidateComparison::Symptom, 0)->text(),
                 QStringLiteral("nvlink_signal_integrity"));
        QVERIFY(!table->rowDiffers(views::CandidateComparison::Symptom));  // both are NVLink link-downs
        QVERIFY(table->rowDiffers(views::CandidateComparison::Place));     // on different nodes
        QVERIFY(table->item(views::CandidateComparison::Place, 1)
                    ->text()
                    .startsWith(QString::fromStdString(candidates[1].node)));
        QVERIFY(table->item(views::CandidateComparison::Decisive, 0)->text().contains(QStringLiteral("Xid")));
        QVERIFY(table->item(views::CandidateComparison::Offset, 1)->text().endsWith(QStringLiteral(" s")));
        // One-line facts keep one line's height once the columns are stretched.
        QTRY_VERIFY(table->rowHeight(views::CandidateComparison::Place) < 2 * table->fontMetrics().height() + 8);
        if (const QByteArray dir = qgetenv("ATTRIB_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/candidates-side-by-side.png"));
        // A header click shows that candidate's evidence.
        table->horizontalHeader()->sectionClicked(1);
        QCOMPARE(m_window->selectionModel()->current().symptom, analysis().symptomIndex(candidates[1].symptomId));
        dialog->close();
    }

    void demotionsByACandidateSayTheOtherCouldExplainThemToo()
    {
        const auto& r = analysis().r();
        const auto& first = r.verdict.candidates.front().symptomId;
        views::SymptomTreeModel model;
        model.setAnalysis(m_window->bundleController()->analysis());
        int checked = 0;
        for (std::size_t s = 0; s < r.symptoms.size(); ++s) {
            if (r.symptoms[s].causedBy != first)
                continue;
            const QString reason = model.indexOfSymptom(static_cast<int>(s))
                                       .siblingAtColumn(views::SymptomTreeModel::ReasonColumn)
                                       .data()
                                       .toString();
            QVERIFY2(reason.contains(QStringLiteral("another candidate could explain it too")), qPrintable(reason));
            ++checked;
        }
        QVERIFY(checked > 0);
    }
};

QTEST_MAIN(TestCandidates)
#include "tst_candidates.moc"
