// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline replot time with 1,000 nodes and 1,000,000 events: the whole hour (dense lanes aggregated per
// pixel column), zoomed in (sparse markers), and every GPU lane expanded. Run with -median N.
#include "result_fixture.h"

#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class BenchTimelineReplot : public QObject {
    Q_OBJECT

private:
    SelectionModel m_selection;
    std::unique_ptr<TimelineView> m_view;
    SelectionModel m_denseSelection;
    std::unique_ptr<TimelineView> m_denseView;

    static std::unique_ptr<TimelineView> load(SelectionModel& selection, int nodes, int perNode)
    {
        const AnalysisPtr analysis = AnalysisData::build(tests::generatedResult(nodes, perNode));
        selection.setAnalysis(analysis);
        auto view = std::make_unique<TimelineView>(&selection);
        view->resize(1600, 900);
        view->show();
        view->setTimelineData(TimelineData::build(*analysis));
        view->plot()->replot(QCustomPlot::rpImmediateRefresh);
        return view;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_view = load(m_selection, 1000, 1000);
        m_denseView = load(m_denseSelection, 10, 100'000);  // every event on screen at once
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QVERIFY(QTest::qWaitForWindowExposed(m_denseView.get()));
    }

    void replot_data()
    {
        QTest::addColumn<QString>("view");
        QTest::newRow("whole hour, 1000 nodes") << QStringLiteral("full");
        QTest::newRow("zoomed to 20 s") << QStringLiteral("zoomed");
        QTest::newRow("all GPU lanes expanded") << QStringLiteral("expanded");
        QTest::newRow("10 nodes x 100,000 events, all visible") << QStringLiteral("dense");
    }

    void replot()
    {
        QFETCH(QString, view);
        TimelinePlot* plot = (view == QStringLiteral("dense") ? m_denseView : m_view)->plot();
        plot->setAllExpanded(view == QStringLiteral("expanded"));
        plot->resetView();
        if (view == QStringLiteral("zoomed"))
            plot->xAxis->setRange(1800, 1820);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QBENCHMARK
        {
            plot->replot(QCustomPlot::rpImmediateRefresh);
        }
        const FrameStats& f = plot->lanes()->lastFrame();
        static QStringList reported;  // once per row, not once per median run
        if (reported.contains(view))
            return;
        reported << view;
        qInfo("%s: %zu lanes drawn, %zu marks visited, %zu markers, %zu columns", qPrintable(view), f.lanesDrawn,
              f.marksVisited, f.markersDrawn, f.columnsDrawn);
    }
};

QTEST_MAIN(BenchTimelineReplot)
#include "bench_timeline_replot.moc"
