// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline widget: lanes, hover and click, selection in both directions, zoom gestures, UTC and
// relative labels, exports, and a generated 1,000-node / 1,000,000-event result.
#include "result_fixture.h"

#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestTimelineView : public QObject {
    Q_OBJECT

private:
    struct Fixture {
        SelectionModel selection;
        TimelineView view{&selection};
        AnalysisPtr analysis;

        explicit Fixture(std::shared_ptr<const engine::AnalysisResult> result)
        {
            analysis = AnalysisData::build(std::move(result));
            selection.setAnalysis(analysis);
            view.resize(1200, 600);
            view.show();
            view.setTimelineData(TimelineData::build(*analysis));
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        }
        TimelinePlot* plot() const { return view.plot(); }
    };

private Q_SLOTS:
    void lanesFromNodes()
    {
        Fixture f(tests::nvlinkFixture());
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const LaneLayout& lanes = f.plot()->laneLayout();
        // node-01, node-02 with its GPU 3 lane (the root cause's node starts expanded), node-03.
        QCOMPARE(lanes.laneCount(), 4);
        QCOMPARE(lanes.nodeName(0), std::string("node-01"));
        QCOMPARE(lanes.label(1), QStringLiteral("node-02 \u25BE"));
        QCOMPARE(lanes.label(2), QStringLiteral("GPU 3"));
        QVERIFY(f.plot()->timelineData()->hasRoot());
        QCOMPARE(f.plot()->plottableCount(), 1);  // one plottable for all lanes
        QCOMPARE(f.plot()->itemCount(), 0);
        f.plot()->toggleNode(1);
        QCOMPARE(lanes.laneCount(), 3);
        QCOMPARE(lanes.label(1), QStringLiteral("node-02 \u25B8"));
    }

    void clickSelectsEventAndFollowsSelection()
    {
        Fixture f(tests::nvlinkFixture());
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const int xidEvent = 0;
        f.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QPoint at = f.plot()->eventPosition(xidEvent);
        QVERIFY2(at.x() >= 0, "the root-cause event is on screen");
        QCOMPARE(f.plot()->eventAt(at), xidEvent);
        QTest::mouseClick(f.plot(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(f.selection.current().event, xidEvent);
        QCOMPARE(f.selection.current().symptom, f.analysis->rootCauseSymptom);
        const QString tip = f.plot()->toolTipAt(at);
        QVERIFY2(tip.contains(QStringLiteral("nvlink_signal_integrity")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("dmesg.txt:99")));
        // Selecting elsewhere moves the plot's highlight.
        const int demoted = f.analysis->symptomIndex("nccl_ib_completion_error@node-01/gpu3");
        f.selection.selectSymptom(demoted);
        QCOMPARE(f.selection.current().event, 2);
        f.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(f.plot()->eventPosition(2).x() >= 0);
    }

    void zoomGestures()
    {
        Fixture f(tests::nvlinkFixture());
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const QCPRange full = f.plot()->xAxis->range();
        const QRect area = f.plot()->axisRect()->rect();
        // Ctrl+drag zooms to the dragged range.
        const QPoint a(area.left() + area.width() / 4, area.center().y());
        const QPoint b(area.left() + area.width() / 2, area.center().y());
        QTest::mousePress(f.plot(), Qt::LeftButton, Qt::ControlModifier, a);
        QMouseEvent move(QEvent::MouseMove, b, f.plot()->mapToGlobal(b), Qt::NoButton, Qt::LeftButton,
                         Qt::ControlModifier);
        QApplication::sendEvent(f.plot(), &move);
        QTest::mouseRelease(f.plot(), Qt::LeftButton, Qt::ControlModifier, b);
        const QCPRange zoomed = f.plot()->xAxis->range();
        QVERIFY2(zoomed.size() < full.size() / 3, qPrintable(QString::number(zoomed.size())));
        // Wheel zooms in around the cursor.
        QWheelEvent wheel(QPointF(area.center()), f.plot()->mapToGlobal(QPointF(area.center())), QPoint(),
                          QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(f.plot(), &wheel);
        QVERIFY(f.plot()->xAxis->range().size() < zoomed.size());
        // F returns to the opening view (the failure window); 0 shows everything.
        f.plot()->fitFailure();
        QCOMPARE(f.plot()->xAxis->range().size(), full.size());
        f.plot()->resetView();
        QVERIFY(f.plot()->xAxis->range().size() >= full.size());
    }

    void relativeLabels()
    {
        Fixture f(tests::nvlinkFixture());
        QVERIFY(f.plot()->xAxis->label().startsWith(QStringLiteral("UTC")));
        f.view.relativeTimeAction()->setChecked(true);
        QVERIFY(f.plot()->relativeTime());
        QVERIFY(f.plot()->xAxis->label().contains(QStringLiteral("relative to the root cause")));
        f.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QVector<QString> labels = f.plot()->xAxis->tickVectorLabels();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QString& l) { return l == QStringLiteral("0 s"); }));
    }

    void bootRelativeTimesCountFromBoot()
    {
        // dmesg uptimes with no known boot time: the axis must not read as a 1970 date.
        auto r = std::make_shared<engine::AnalysisResult>(*tests::nvlinkFixture());
        const engine::TimeNs shift = tests::FixtureEpoch - 5000 * engine::NsPerSec;  // 5,000 s since boot
        const auto move = [&](engine::TimeNs& t) {
            if (t != engine::NoTime)
                t -= shift;
        };
        for (auto& e : r->events) {
            move(e.time);
            e.timeSource = engine::TimeSource::BootRelative;
        }
        for (auto& s : r->symptoms) {
            move(s.firstSeen);
            move(s.lastSeen);
            move(s.origin);
            s.timeSource = engine::TimeSource::BootRelative;
        }
        move(r->verdict.rootCause->time);
        Fixture f(r);
        QCOMPARE(f.plot()->xAxis->label(), QStringLiteral("time since boot (boot time unknown)"));
        const QVector<QString> labels = f.plot()->xAxis->tickVectorLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString& l : labels)
            QVERIFY2(l.startsWith(QLatin1Char('+')) && !l.contains(QLatin1Char(':')), qPrintable(l));
        f.view.relativeTimeAction()->setChecked(true);
        QVERIFY2(f.plot()->xAxis->label().contains(QStringLiteral("s since boot")),
                 qPrintable(f.plot()->xAxis->label()));
        f.view.relativeTimeAction()->setChecked(false);
        QCOMPARE(f.plot()->xAxis->label(), QStringLiteral("time since boot (boot time unknown)"));

        Fixture utc(tests::nvlinkFixture());  // one wall-clock time is enough for the UTC axis
        QVERIFY(utc.plot()->xAxis->label().startsWith(QStringLiteral("UTC, 2026-04-22")));
    }

    void stepStateIsBuiltOffTheGuiThread()
    {
        Fixture f(tests::nvlinkFixture());
        auto step = std::make_shared<engine::AnalysisResult>(*f.analysis->result);
        step->symptoms.pop_back();  // the analysis as it stood before its last symptom
        f.view.showStepState(step);
        // Built on the jobs' pool: nothing changes until the GUI thread handles the job's result.
        QVERIFY(!f.view.showingStep());
        QTRY_VERIFY(f.view.showingStep());
        QCOMPARE(f.plot()->analysis()->r().symptoms.size(), step->symptoms.size());
        f.view.showStepState(f.analysis->result);  // the final state returns at once
        QVERIFY(!f.view.showingStep());
        QCOMPARE(f.plot()->analysis()->r().symptoms.size(), f.analysis->r().symptoms.size());
    }

    void exports()
    {
        Fixture f(tests::nvlinkFixture());
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("timeline.png"));
        const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
        QVERIFY(f.view.exportPng(png, 800, 400));
        QVERIFY(f.view.exportSvg(svg, 800, 400));
        QCOMPARE(QImage(png).size(), QSize(800, 400));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("node-02"));
    }

    void millionEvents()
    {
        QElapsedTimer timer;
        timer.start();
        const auto result = tests::generatedResult(1000, 1000);
        QCOMPARE(result->events.size(), std::size_t(1'000'000));
        const AnalysisPtr analysis = AnalysisData::build(result);
        const TimelineDataPtr timeline = TimelineData::build(*analysis);
        qInfo("generated and indexed 1,000,000 events in %lld ms", static_cast<long long>(timer.restart()));
        QCOMPARE(timeline->nodes.size(), std::size_t(1000));
        QCOMPARE(timeline->eventCount, std::size_t(1'000'000));
        SelectionModel selection;
        TimelineView view(&selection);
        selection.setAnalysis(analysis);
        view.resize(1400, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTimelineData(timeline);
        view.plot()->resetView();  // the whole range (the view opens on the failure window): every mark in view
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const FrameStats& frame = view.plot()->lanes()->lastFrame();
        qInfo("first replot %lld ms: %zu lanes, %zu marks visited, %zu columns",
              static_cast<long long>(timer.restart()), frame.lanesDrawn, frame.marksVisited, frame.columnsDrawn);
        QVERIFY(frame.lanesDrawn > 10 && frame.lanesDrawn < 100);  // only visible lanes are drawn
        QVERIFY(frame.denseLanes > 0);
        QVERIFY(frame.columnsDrawn <= frame.lanesDrawn * 1400);  // aggregated per pixel column
        QCOMPARE(view.plot()->itemCount(), 0);
        view.plot()->setFirstLane(990);
        view.plot()->setAllExpanded(true);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(view.plot()->laneLayout().laneCount(), 1000 * 9);
        selection.selectEvent(999'999);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(view.plot()->eventPosition(999'999).x() >= 0);  // the view scrolled to the selected event
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timeline_view.moc"
