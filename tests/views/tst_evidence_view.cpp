// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence pane over an in-memory EvidenceSource: only visible rows are read, lines are numbered,
// rule-matched spans are highlighted, filter and go-to-line work, log text stays plain text, and selecting
// a demoted symptom shows its evidence with the rule and reason that demoted it.
#include "result_fixture.h"

#include "views/evidence/evidence_panel.h"
#include "views/evidence/evidence_text_view.h"
#include "views/presentation.h"
#include "views/selection_model.h"

#include <QPromise>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

namespace {

/// Files of generated lines ("<file> line <n>"), with a few fixed lines; counts every line it reads.
class MemorySource : public EvidenceSource {
public:
    explicit MemorySource(std::vector<qint64> lines)
        : m_lines(std::move(lines))
    {
    }
    QHash<qint64, QString> fixed;  ///< line (file 0) -> text
    qint64 linesRead = 0;
    int unavailable = -1;  ///< a file that cannot be re-read

    int fileCount() const override { return static_cast<int>(m_lines.size()); }
    QString filePath(int file) const override { return QStringLiteral("nodes/node-0%1/file.log").arg(file); }
    LineCount lineCount(int file) override
    {
        if (file == unavailable)
            return {0, true, false, QStringLiteral("gone")};
        return {m_lines[file], true, true, {}};
    }
    QString line(int file, qint64 n) const
    {
        return file == 0 && fixed.contains(n) ? fixed.value(n) : QStringLiteral("file %1 line %2").arg(file).arg(n + 1);
    }
    QStringList readLines(int file, qint64 first, qint64 count) override
    {
        QStringList out;
        for (qint64 n = first; n < std::min(first + count, m_lines[file]); ++n)
            out << line(file, n);
        linesRead += out.size();
        return out;
    }
    QString readRecord(int, quint64, quint32) override { return {}; }
    QList<TextSpan> matchSpans(engine::SourceKind, const QString& text) const override
    {
        const auto at = text.indexOf(QStringLiteral("Xid"));
        if (at < 0)
            return {};
        return {{static_cast<int>(at), static_cast<int>(text.size() - at), false}, {static_cast<int>(at), 3, true}};
    }
    QFuture<QVector<qint64>> findLines(int file, const LineQuery& query) override
    {
        const LineMatcher matcher(query);
        // Synchronous here; the view only sees a future that reports its batches through events.
        QPromise<QVector<qint64>> promise;
        promise.start();
        QVector<qint64> batch;
        for (qint64 n = 0; n < m_lines[file]; ++n) {
            if (matcher.accepts(line(file, n)))
                batch.append(n);
        }
        promise.addResult(batch);
        promise.finish();
        return promise.future();
    }

private:
    std::vector<qint64> m_lines;
};

}  // namespace

class TestEvidenceView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void paintsOnlyVisibleRows()
    {
        MemorySource source({50'000'000, 300, 280});
        EvidenceTextView view;
        view.setSource(&source);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showFile(0);
        QCOMPARE(view.rowCount(), qint64(50'000'000));
        view.grab();
        QVERIFY2(source.linesRead < 200, qPrintable(QString::number(source.linesRead)));
        QVERIFY(view.goToLine(40'000'000));
        QCOMPARE(view.rowLine(view.currentRow()), qint64(39'999'999));
        view.grab();
        QVERIFY(source.linesRead < 400);
        QCOMPARE(view.rowText(view.currentRow()), QStringLiteral("file 0 line 40000000"));
    }

    void logTextIsPlain()
    {
        MemorySource source({10, 1, 1});
        source.fixed.insert(2, QStringLiteral("<b>not bold</b> <img src=x> \t tab\u202Eevil"));
        EvidenceTextView view;
        view.setSource(&source);
        view.showFile(0);
        const QString text = view.rowText(2);
        QVERIFY(text.startsWith(QStringLiteral("<b>not bold</b> <img src=x>")));
        QVERIFY(!text.contains(QChar(0x202E)));  // bidi override neutralised
        QVERIFY(!text.contains(QLatin1Char('\t')));
        QCOMPARE(text.size(), source.fixed.value(2).size());  // one character per character: spans stay aligned
        QVERIFY(plainToolTip(QStringLiteral("<b>x</b>")).contains(QStringLiteral("&lt;b&gt;x&lt;/b&gt;")));
        // A coloured terminal's line shows as the text the rules read, not as `·[33m...·[0m`.
        source.fixed.insert(3, QStringLiteral("\x1b[33mgpu-n04:811:902 [1] NCCL WARN NET/IB\x1b[0m"));
        QCOMPARE(view.rowText(3), QStringLiteral("gpu-n04:811:902 [1] NCCL WARN NET/IB"));
    }

    void filterAndGoTo()
    {
        MemorySource source({5000, 1, 1});
        EvidenceTextView view;
        view.setSource(&source);
        view.showFile(0);
        QSignalSpy rows(&view, &EvidenceTextView::rowsChanged);
        view.setFilter(QStringLiteral("LINE 12"));            // case-insensitive
        QTRY_COMPARE(view.rowCount(), qint64(1 + 10 + 100));  // lines 12, 120-129, 1200-1299
        QVERIFY(!view.filterRunning());
        QCOMPARE(view.rowLine(0), qint64(11));
        QVERIFY(view.goToLine(1250));
        QCOMPARE(view.rowLine(view.currentRow()), qint64(1249));
        view.setFilter(QString());
        QCOMPARE(view.rowCount(), qint64(5000));
        QCOMPARE(view.rowLine(view.currentRow()), qint64(1249));  // the current line survives the filter change
        QVERIFY(!rows.isEmpty());
    }

    void demotedSymptomShowsEvidenceAndRule()
    {
        const auto result = tests::nvlinkFixture();
        MemorySource source({120, 300, 280});
        source.fixed.insert(98, QStringLiteral("[Wed Apr 22 21:34:20 2026] ") + qs(result->observations[0].text));
        SelectionModel selection;
        EvidencePanel panel(&selection);
        panel.setSource(&source);
        selection.setAnalysis(AnalysisData::build(result));
        panel.resize(900, 500);
        panel.show();
        const AnalysisPtr& analysis = selection.analysis();
        selection.selectSymptom(analysis->symptomIndex("nccl_ib_completion_error@node-01/gpu3"));
        EvidenceTextView* view = panel.textView();
        QVERIFY(!view->isFileMode());
        QCOMPARE(view->rowCount(), qint64(1));
        QVERIFY(view->rowText(0).contains(QStringLiteral("Got completion from peer")));  // from the observation
        QVERIFY(panel.titleText().contains(QStringLiteral("nccl_ib_completion_error@node-01/gpu3")));
        QVERIFY(panel.detailText().contains(QStringLiteral("demoted by Xid149AndNvlinkFiltering")));
        QVERIFY(panel.detailText().contains(QStringLiteral("causal window")));
        QCOMPARE(view->rowRole(0), int(EvidenceRole::Interesting));

        // An event's evidence opens its file at the line, with the rule-matched span highlighted.
        selection.selectObservation(analysis->primaryObservation(analysis->rootCauseSymptom));
        QVERIFY(view->isFileMode());
        QCOMPARE(view->file(), 0);
        QCOMPARE(view->rowLine(view->currentRow()), qint64(98));
        QVERIFY(view->rowText(view->currentRow()).contains(QStringLiteral("NVRM: Xid")));
        const QList<TextSpan> spans = view->rowSpans(view->currentRow());
        QCOMPARE(spans.size(), 2);
        QCOMPARE(view->rowText(view->currentRow()).mid(spans[1].start, spans[1].length), QStringLiteral("Xid"));
        QCOMPARE(view->rowRole(view->currentRow()), int(EvidenceRole::RootCause));
        QCOMPARE(view->rowRole(0), -1);

        // Clicking an evidence row selects its observation everywhere.
        QSignalSpy changed(&selection, &SelectionModel::selectionChanged);
        view->setCurrentRow(99);
        const int y = static_cast<int>(view->currentRow() - view->firstVisibleRow()) * view->lineHeight() +
            view->lineHeight() / 2;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(200, y));
        QTRY_VERIFY(!changed.isEmpty());
        QCOMPARE(selection.current().focus, Selection::Focus::Observation);

        // A file that cannot be re-read falls back to the lines the analysis kept.
        source.unavailable = 1;
        panel.showFile(1, 209);
        QVERIFY(!view->isFileMode());
        QCOMPARE(view->rowCount(), qint64(2));
        QCOMPARE(view->rowLine(view->currentRow()), qint64(209));
        QVERIFY(view->rowText(view->currentRow()).contains(QStringLiteral("Got completion from peer")));
        QVERIFY(panel.detailText().contains(QStringLiteral("cannot be re-read (gone)")));
    }
};

QTEST_MAIN(TestEvidenceView)
#include "tst_evidence_view.moc"
