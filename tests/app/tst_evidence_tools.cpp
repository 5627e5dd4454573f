// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence pane as a log viewer (issue 12, D2) on the NVLink sample in the full window: Ctrl+F find with
// highlight and Enter/F3/Shift+F3, regex and case, filter in and out, line selection and Ctrl+C with and
// without file:line, the Markdown quote, bookmarks (Ctrl+M, F2), the merged time-ordered view with go to time,
// the culprit's log, and a binary file shown as "not read: binary content".
#include "../common/test_catalog.h"
#include "../common/workbench_window.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "views/evidence/evidence_panel.h"
#include "views/evidence/find_bar.h"
#include "views/presentation.h"

#include <QClipboard>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestEvidenceTools : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    views::EvidencePanel* panel() const { return m_window->evidencePanel(); }
    views::EvidenceTextView* view() const { return panel()->textView(); }

    bool open(const QString& bundle) { return tests::openAndWait(*m_window, bundle, true); }

    void showDmesg()
    {
        view()->setFilterQuery({});
        panel()->findBar()->hide();
        m_window->selectionModel()->selectSymptom(-1);
        view()->setFocus();
        m_window->selectionModel()->selectSymptom(m_window->selectionModel()->analysis()->rootCauseSymptom);
        QTest::keyClick(view(), Qt::Key_Return);  // the evidence line in its whole file
        QTRY_VERIFY(view()->isFileMode() && view()->rowCount() > 100);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_window = tests::showWorkbench(m_settings, m_dir);
        QVERIFY(m_window);
        QVERIFY(open(QString::fromStdString(tests::samplePath("nvlink-xid149"))));
    }

    void findHighlightsAndSteps()
    {
        showDmesg();
        QVERIFY(!panel()->findBar()->isVisible());
        QTest::keyClick(view(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(panel()->findBar()->isVisible());
        QLineEdit* field = panel()->findBar()->field();
        QVERIFY(field->hasFocus());
        QTest::keyClicks(field, QStringLiteral("xid"));
        QTest::keyClick(field, Qt::Key_Return);
        const qint64 first = view()->currentRow();
        QVERIFY(first >= 0);
        QVERIFY(!view()->findMatches(first).isEmpty());  // highlighted, case-insensitive
        QTest::keyClick(field, Qt::Key_Return);
        const qint64 second = view()->currentRow();
        QVERIFY(second != first);
        QVERIFY(!view()->findMatches(second).isEmpty());
        QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(view()->currentRow(), first);
        // Case: "xid" no longer matches "Xid".
        panel()->findBar()->caseButton()->setChecked(true);
        QVERIFY(view()->findMatches(first).isEmpty());
        panel()->findBar()->caseButton()->setChecked(false);
        // Regex: "Xid \\(PCI:[0-9:.]+\\): 149" finds the root-cause line.
        panel()->findBar()->regexButton()->setChecked(true);
        field->setText(QStringLiteral("Xid \\(PCI:[0-9a-f:.]+\\): 149"));
        QVERIFY(view()->findNext());
        QVERIFY(view()->rowText(view()->currentRow()).contains(QStringLiteral("): 149")));
        // F3 from the lines repeats the search.
        view()->setFocus();
        const qint64 at = view()->currentRow();
        QTest::keyClick(view(), Qt::Key_F3);
        QVERIFY(view()->findMatches(view()->currentRow()).size() >= 1);
        Q_UNUSED(at);
        // Esc in the field closes the bar, and does not cancel anything.
        panel()->findBar()->activate();
        QTest::keyClick(field, Qt::Key_Escape);
        QVERIFY(!panel()->findBar()->isVisible());
        panel()->findBar()->regexButton()->setChecked(false);
    }

    void filterInAndOut()
    {
        showDmesg();
        const qint64 all = view()->rowCount();
        views::LineQuery keep{QStringLiteral("NVRM"), false, Qt::CaseInsensitive, false};
        view()->setFilterQuery(keep);
        QTRY_VERIFY(!view()->filterRunning());
        const qint64 kept = view()->rowCount();
        QVERIFY(kept > 0 && kept < all);
        keep.invert = true;
        view()->setFilterQuery(keep);
        QTRY_VERIFY(!view()->filterRunning());
        QCOMPARE(view()->rowCount(), all - kept);
        view()->setFilterQuery({});
    }

    void selectCopyAndQuote()
    {
        showDmesg();
        view()->setCurrentRow(10);
        QTest::keyClick(view(), Qt::Key_Down, Qt::ShiftModifier);
        QTest::keyClick(view(), Qt::Key_Down, Qt::ShiftModifier);
        QCOMPARE(view()->selectedRows(), std::make_pair(qint64(10), qint64(12)));
        QTest::keyClick(view(), Qt::Key_C, Qt::ControlModifier);
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied.count(QLatin1Char('\n')), 2);
        QCOMPARE(copied.section(QLatin1Char('\n'), 0, 0), view()->rowText(10));
        QTest::keyClick(view(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
        QVERIFY2(QGuiApplication::clipboard()->text().startsWith(QStringLiteral("nodes/node-02/dmesg.txt:11: ")),
                 qPrintable(QGuiApplication::clipboard()->text().left(80)));
        const QString quote = view()->selectedMarkdown();
        QVERIFY2(quote.startsWith(QStringLiteral("`nodes/node-02/dmesg.txt:11-13`")), qPrintable(quote));
        QCOMPARE(quote.count(QStringLiteral("\n> `")), 3);
    }

    void bookmarks()
    {
        showDmesg();
        view()->setCurrentRow(5);
        QTest::keyClick(view(), Qt::Key_M, Qt::ControlModifier);
        view()->setCurrentRow(40);
        QTest::keyClick(view(), Qt::Key_M, Qt::ControlModifier);
        QCOMPARE(view()->bookmarks().size(), std::size_t(2));
        view()->setCurrentRow(20);
        QTest::keyClick(view(), Qt::Key_F2);
        QCOMPARE(view()->currentRow(), qint64(40));
        QTest::keyClick(view(), Qt::Key_F2);
        QCOMPARE(view()->currentRow(), qint64(5));  // wraps around
        QTest::keyClick(view(), Qt::Key_F2, Qt::ShiftModifier);
        QCOMPARE(view()->currentRow(), qint64(40));
        const QStringList list = panel()->bookmarkList();
        QCOMPARE(list.size(), 2);
        QVERIFY(list.front().startsWith(QStringLiteral("nodes/node-02/dmesg.txt:6  ")));
        // Bookmarks survive switching to a symptom's evidence and back.
        m_window->selectionModel()->selectSymptom(m_window->selectionModel()->analysis()->rootCauseSymptom);
        QVERIFY(view()->isBookmarked(view()->rowFile(0), 39) || view()->bookmarks().size() == 2);
    }

    void mergedViewAndGoToTime()
    {
        panel()->showMerged({}, true);
        QVERIFY(!view()->isFileMode());
        QVERIFY(view()->rowCount() > 5);
        const auto& r = m_window->selectionModel()->analysis()->r();
        engine::TimeNs previous = 0;
        for (qint64 row = 0; row < view()->rowCount(); ++row) {
            const auto obs = view()->rowObservations(row);
            QVERIFY(!obs.empty());
            const engine::TimeNs t = r.observations[static_cast<std::size_t>(obs.front())].time;
            if (t == engine::NoTime)
                continue;
            QVERIFY(t >= previous);
            previous = t;
        }
        QVERIFY(panel()->titleText().startsWith(QStringLiteral("Whole job")));
        const engine::TimeNs root = r.verdict.rootCause->time;
        QVERIFY(panel()->goToTime(views::formatUtc(root, false)));
        const auto obs = view()->rowObservations(view()->currentRow());
        QVERIFY(r.observations[static_cast<std::size_t>(obs.front())].time >= root);
        QVERIFY(!panel()->goToTime(QStringLiteral("not a time")));
    }

    void culpritLogAtRootCauseTime()
    {
        QVERIFY(panel()->showCulpritLog());
        const auto& r = m_window->selectionModel()->analysis()->r();
        const int o = m_window->selectionModel()->current().observation;
        QVERIFY(o >= 0);
        QCOMPARE(r.observations[static_cast<std::size_t>(o)].node, r.verdict.rootCause->node);
        QTRY_VERIFY(view()->isFileMode() && view()->currentRow() >= 0);
    }

    void binaryFileIsNotRead()
    {
        QTemporaryDir bundle;
        tests::writeFile(bundle.filePath(QStringLiteral("nodes/node-01/app.log")).toStdString(),
                         "2026-04-22T21:34:20Z rank0: starting\n");
        std::string binary(4096, '\0');
        for (std::size_t i = 0; i < binary.size(); ++i)
            binary[i] = static_cast<char>((i * 7919) % 256);
        tests::writeFile(bundle.filePath(QStringLiteral("nodes/node-01/core.bin")).toStdString(), binary);
        QVERIFY(open(bundle.path()));
        const auto& files = m_window->selectionModel()->analysis()->r().files;
        int bin = -1;
        for (std::size_t i = 0; i < files.size(); ++i) {
            if (files[i].path.find("core.bin") != std::string::npos)
                bin = static_cast<int>(i);
        }
        QVERIFY(bin >= 0);
        panel()->showFile(bin);
        QCOMPARE(view()->rowCount(), qint64(0));
        QVERIFY2(panel()->detailText().contains(QStringLiteral("not read: binary content")),
                 qPrintable(panel()->detailText()));
    }

    void unexplainedFailureOpensOnItsFirstLead()
    {
        // No rule explains these lines: the evidence opens on the earliest error-level line, and every lead in
        // the verdict is a link to its line.
        QTemporaryDir bundle;
        tests::writeFile(bundle.filePath(QStringLiteral("job.log")).toStdString(),
                         "starting the job\nloading shards\nERROR: something nobody has seen before went wrong\n"
                         "cleaning up\n");
        QVERIFY(open(bundle.path()));
        const auto analysis = m_window->selectionModel()->analysis();
        QCOMPARE(analysis->r().verdict.terminalState, std::string("unknown"));
        QVERIFY(!analysis->r().verdict.leads.empty());
        QTRY_COMPARE(view()->file(), analysis->fileIndex("job.log"));
        QTRY_COMPARE(view()->currentRow(), qint64(2));  // once the file's lines are counted
        view()->setCurrentRow(0);
        QPushButton* lead = nullptr;
        for (QPushButton* b : m_window->findChildren<QPushButton*>())
            lead = b->text() == QStringLiteral("job.log:3") ? b : lead;
        QVERIFY(lead);
        lead->click();
        QTRY_COMPARE(view()->currentRow(), qint64(2));
    }

    void cleanupTestCase()
    {
        m_window->close();
        m_window.reset();
    }
};

QTEST_MAIN(TestEvidenceTools)
#include "tst_evidence_tools.moc"
