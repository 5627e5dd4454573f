// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline replot time with 1,000 nodes and 1,000,000 events: the whole hour (dense lanes aggregated per
// pixel column), zoomed in (sparse markers), and every GPU lane expanded; and 10 nodes whose events are all on
// screen at once. Run with -median N. ATTRIB_BENCH_EVENTS sets the event count of both results (default
// 1,000,000; 10,000,000 needs about 5 GB: one result is held at a time).
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
    QString m_loaded;  ///< "wide" (1,000 nodes) or "dense" (10 nodes)

    static int events()
    {
        const qint64 n = qEnvironmentVariable("ATTRIB_BENCH_EVENTS").toLongLong();
        return n > 0 ? static_cast<int>(std::min<qint64>(n, 100'000'000)) : 1'000'000;
    }

    /// The view of one result; the other result is dropped first so that only one is in memory.
    TimelinePlot* plotFor(const QString& kind)
    {
        if (m_loaded != kind) {
            m_view.reset();
            m_selection.setAnalysis(nullptr);
            const int nodes = kind == QStringLiteral("dense") ? 10 : 1000;
            m_view = load(m_selection, nodes, events() / nodes);
            m_loaded = kind;
            if (!QTest::qWaitForWindowExposed(m_view.get()))
                qFatal("the timeline window was not exposed");
        }
        return m_view->plot();
    }

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
    void replot_data()
    {
        QTest::addColumn<QString>("view");
        const QByteArray dense = "10 nodes x " + QByteArray::number(events() / 10) + " events, all visible";
        QTest::newRow("whole hour, 1000 nodes") << QStringLiteral("full");
        QTest::newRow("zoomed to 20 s") << QStringLiteral("zoomed");
        QTest::newRow("all GPU lanes expanded") << QStringLiteral("expanded");
        QTest::newRow(dense.constData()) << QStringLiteral("dense");
    }

    void replot()
    {
        QFETCH(QString, view);
        TimelinePlot* plot = plotFor(view == QStringLiteral("dense") ? view : QStringLiteral("wide"));
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
        qInfo("%s (%d events): %zu lanes drawn, %zu marks visited, %zu markers, %zu columns", qPrintable(view),
              events(), f.lanesDrawn, f.marksVisited, f.markersDrawn, f.columnsDrawn);
    }
};

QTEST_MAIN(BenchTimelineReplot)
#include "bench_timeline_replot.moc"
