// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's maths without widgets: time <-> pixel mapping, zoom and pan, lanes, tick steps and
// labels, per-pixel-column aggregation and hit testing.
#include "views/glossary.h"
#include "views/presentation.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_layout.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::views;

namespace {

std::vector<Mark> marksAt(std::initializer_list<double> xs, std::uint8_t role = 0)
{
    std::vector<Mark> out;
    std::uint32_t i = 0;
    for (double x : xs)
        out.push_back({x, i++, 0, role});
    return out;
}

}  // namespace

class TestTimelineLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mapping_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("pixel");
        QTest::newRow("origin") << 0.0 << 10.0 << 0.0 << 1000.0 << 0.0 << 0.0;
        QTest::newRow("middle") << 0.0 << 10.0 << 0.0 << 1000.0 << 5.0 << 500.0;
        QTest::newRow("offset axis") << 100.0 << 110.0 << 50.0 << 500.0 << 102.0 << 150.0;
        QTest::newRow("negative") << -4.0 << 4.0 << 0.0 << 800.0 << -2.0 << 200.0;
        QTest::newRow("microseconds") << 0.0 << 1e-5 << 0.0 << 1000.0 << 5e-6 << 500.0;
    }
    void mapping()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(double, left);
        QFETCH(double, width);
        QFETCH(double, seconds);
        QFETCH(double, pixel);
        const TimeMapping m{start, end, left, width};
        QCOMPARE(m.toPixel(seconds), pixel);
        QVERIFY(qFuzzyCompare(1 + m.toSeconds(pixel), 1 + seconds));
    }

    void zoomKeepsAnchor()
    {
        const TimeMapping m{0, 100, 10, 1000};
        const double anchor = 260;  // 25 s
        const TimeMapping z = m.zoomed(anchor, 4);
        QCOMPARE(z.span(), 25.0);
        QCOMPARE(z.toSeconds(anchor), m.toSeconds(anchor));
        const TimeMapping out = z.zoomed(anchor, 0.25);
        QCOMPARE(out.start, m.start);
        QCOMPARE(out.end, m.end);
    }

    void panMovesContent()
    {
        const TimeMapping m{0, 100, 0, 1000};
        const TimeMapping p = m.panned(100);  // drag right by 100 px = 10 s earlier
        QCOMPARE(p.start, -10.0);
        QCOMPARE(p.end, 90.0);
        QCOMPARE(p.toPixel(0), 100.0);
    }

    void clampedSpan()
    {
        const TimeMapping m{0, 1e-9, 0, 1000};
        const TimeMapping c = m.clampedSpan(1e-6, 3600);
        QVERIFY(qFuzzyCompare(c.span(), 1e-6));
        QVERIFY(qFuzzyCompare(1 + (c.start + c.end) / 2, 1 + 0.5e-9));
        const TimeMapping wide = TimeMapping{0, 1e6, 0, 10}.clampedSpan(1, 3600);
        QCOMPARE(wide.span(), 3600.0);
    }

    void columns()
    {
        const TimeMapping m{0, 10, 100, 100};  // 10 px per second
        QCOMPARE(m.column(0), 0L);
        QCOMPARE(m.column(0.099), 0L);
        QCOMPARE(m.column(0.1), 1L);
        QCOMPARE(m.column(9.95), 99L);
        QCOMPARE(m.column(-5), -2L);  // clamped outside
        QCOMPARE(m.column(1e12), 102L);
    }

    void laneLayout()
    {
        LaneLayout l;
        l.setNodes({"node-01", "node-02", "node-03"}, {{0, 1}, {3}, {}});
        QCOMPARE(l.laneCount(), 3);
        QCOMPARE(l.laneOf(1, 3), 1);  // collapsed: GPU events on the node lane
        QCOMPARE(l.label(0), QStringLiteral("node-01 \u25B8"));
        QCOMPARE(l.label(2), QStringLiteral("node-03"));  // no GPUs: nothing to expand
        l.setExpanded(0, true);
        QCOMPARE(l.laneCount(), 5);
        QCOMPARE(l.label(0), QStringLiteral("node-01 \u25BE"));
        QCOMPARE(l.label(1), QStringLiteral("GPU 0"));
        QCOMPARE(l.laneOf(0, 1), 2);
        QCOMPARE(l.laneOf(0, 7), 0);  // unknown GPU: node lane
        QCOMPARE(l.laneOf(1, 3), 3);
        QCOMPARE(l.laneOf(2, -1), 4);
        l.setExpanded(2, true);  // cannot expand
        QVERIFY(!l.isExpanded(2));
        l.setAllExpanded(true);
        QCOMPARE(l.laneCount(), 6);
        QCOMPARE(l.laneOf(1, 3), 4);
        QCOMPARE(l.lane(4).gpu, 3);
        QCOMPARE(l.laneAt(4.99), 4);
        QCOMPARE(l.laneAt(-0.1), -1);
        QCOMPARE(l.laneAt(6), -1);
        l.setAllExpanded(false);
        QCOMPARE(l.laneCount(), 3);
    }

    void laneViewport()
    {
        const LaneViewport v{20};
        QCOMPARE(v.visibleLanes(400), 20.0);
        QCOMPARE(v.clampTop(-3, 100, 400), 0.0);
        QCOMPARE(v.clampTop(95, 100, 400), 80.0);
        QCOMPARE(v.clampTop(10, 100, 400), 10.0);
        QCOMPARE(v.clampTop(5, 10, 400), 0.0);  // everything fits
    }

    void niceSteps_data()
    {
        QTest::addColumn<double>("span");
        QTest::addColumn<int>("ticks");
        QTest::addColumn<double>("step");
        QTest::newRow("hour in 8") << 3600.0 << 8 << 600.0;
        QTest::newRow("minute in 6") << 60.0 << 6 << 10.0;
        QTest::newRow("45 s in 5") << 45.0 << 5 << 10.0;
        QTest::newRow("2 s in 8") << 2.0 << 8 << 0.5;
        QTest::newRow("ms") << 0.008 << 8 << 0.001;
        QTest::newRow("µs") << 3e-6 << 6 << 5e-7;
        QTest::newRow("day") << 86400.0 << 8 << 10800.0;
        QTest::newRow("week") << 7 * 86400.0 << 4 << 2 * 86400.0;
    }
    void niceSteps()
    {
        QFETCH(double, span);
        QFETCH(int, ticks);
        QFETCH(double, step);
        QVERIFY2(qFuzzyCompare(niceTimeStep(span, ticks), step),
                 qPrintable(QString::number(niceTimeStep(span, ticks))));
    }

    void utcLabels_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("label");
        QTest::newRow("whole") << 0.0 << 60.0 << QStringLiteral("21:34:20");
        QTest::newRow("later") << 100.0 << 10.0 << QStringLiteral("21:36:00");
        QTest::newRow("ms") << 0.25 << 0.05 << QStringLiteral("21:34:20.25");
        QTest::newRow("µs") << 0.000125 << 0.000005 << QStringLiteral("21:34:20.000125");
        QTest::newRow("before") << -0.5 << 0.5 << QStringLiteral("21:34:19.5");
        QTest::newRow("days") << 86400.0 << 86400.0 << QStringLiteral("04-23 21:34");
    }
    void utcLabels()
    {
        QFETCH(double, seconds);
        QFETCH(double, step);
        QFETCH(QString, label);
        const engine::TimeNs origin = 1'776'893'660LL * engine::NsPerSec;  // 2026-04-22T21:34:20Z
        QCOMPARE(formatUtcTick(origin, seconds, step), label);
    }

    void whenTextSaysHowTheTimeIsKnown()
    {
        QCOMPARE(whenText(engine::NoTime, engine::TimeSource::None), QStringLiteral("time unknown"));
        QCOMPARE(whenText(12345678000000, engine::TimeSource::BootRelative), QStringLiteral("+12345.678 s since boot"));
        QCOMPARE(whenText(1776893660118000000, engine::TimeSource::Absolute),
                 QStringLiteral("2026-04-22 21:34:20.118 UTC"));
        // A time still boot-relative after the analysis is one whose boot time was not found (converted ones read
        // as stamped): the words must not claim a conversion.
        QCOMPARE(timeSourceText(engine::TimeSource::BootRelative),
                 QStringLiteral("seconds since boot; boot time unknown"));
        QVERIFY(!glossary(Term::BootRelative).contains(QStringLiteral("was converted")));
    }

    void relativeLabels_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("label");
        QTest::newRow("zero") << 0.0 << 1.0 << QStringLiteral("0 s");
        QTest::newRow("plus") << 12.0 << 2.0 << QStringLiteral("+12 s");
        QTest::newRow("minus fraction") << -1.5 << 0.5 << QStringLiteral("\u22121.5 s");
        QTest::newRow("minutes") << 120.0 << 60.0 << QStringLiteral("+2 min");
        QTest::newRow("mixed") << -5430.0 << 600.0 << QStringLiteral("\u22121 h 30 min 30 s");
        QTest::newRow("float noise") << 1e-12 << 0.001 << QStringLiteral("0 s");
    }
    void relativeLabels()
    {
        QFETCH(double, seconds);
        QFETCH(double, step);
        QFETCH(QString, label);
        QCOMPARE(formatRelativeTick(seconds, step), label);
    }

    void visibleRangeIsBinarySearch()
    {
        const auto marks = marksAt({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        const TimeMapping m{2.5, 6.5, 0, 40};  // 10 px per second
        auto [first, last] = visibleRange(marks, m, 0);
        QCOMPARE(first, std::size_t(3));
        QCOMPARE(last, std::size_t(7));
        std::tie(first, last) = visibleRange(marks, m, 5);  // half a second of margin
        QCOMPARE(first, std::size_t(2));
        QCOMPARE(last, std::size_t(8));
    }

    void aggregationPerColumn()
    {
        // 1 px per second: three marks in column 0, one in column 5, strongest role wins per column.
        std::vector<Mark> marks = marksAt({0.1, 0.5, 0.9, 5.2, 200});
        marks[1].role = 4;
        const TimeMapping m{0, 100, 0, 100};
        const auto bins = aggregateColumns(marks, m);
        QCOMPARE(bins.size(), std::size_t(2));
        QCOMPARE(bins[0].column, 0L);
        QCOMPARE(bins[0].count, 3u);
        QCOMPARE(bins[0].strongest, 1u);
        QCOMPARE(bins[1].column, 5L);
        QCOMPARE(bins[1].count, 1u);
    }

    void aggregationOfAMillionIsBounded()
    {
        std::vector<Mark> marks(1'000'000);
        for (std::size_t i = 0; i < marks.size(); ++i)
            marks[i] = {static_cast<double>(i) * 3600.0 / 1e6, static_cast<std::uint32_t>(i), 0, 0};
        const TimeMapping m{0, 3600, 0, 1200};
        const auto bins = aggregateColumns(marks, m);
        QCOMPARE(bins.size(), std::size_t(1200));  // one bin per pixel column, never one per event
        std::size_t total = 0;
        for (const auto& b : bins)
            total += b.count;
        QCOMPARE(total, marks.size());
    }

    void aggregationWithBlocksMatchesTheScan()
    {
        // Random roles and clustered times: per-block strongest marks must give the very bins of a full scan,
        // the first mark with the highest role included, at any zoom and with columns left and right of view.
        std::vector<Mark> marks(200'000);
        std::uint32_t seed = 12345;
        const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
        double x = 0;
        for (std::size_t i = 0; i < marks.size(); ++i) {
            x += (next() % 100 == 0) ? 5.0 : 0.0005 * (next() % 7);
            marks[i] = {x, static_cast<std::uint32_t>(i), 0, static_cast<std::uint8_t>(next() % 6), 0};
        }
        const auto blocks = summarizeBlocks(marks);
        QCOMPARE(blocks.size(), (marks.size() + MarkBlock - 1) / MarkBlock);
        for (const TimeMapping& m : {TimeMapping{0, x, 0, 1200}, TimeMapping{-50, x / 3, 10, 700},
                                     TimeMapping{x / 2, x / 2 + 3, 0, 1600}, TimeMapping{x * 2, x * 3, 0, 100}}) {
            const auto scanned = aggregateColumns(marks, m);
            const auto indexed = aggregateColumns(marks, m, blocks);
            QCOMPARE(indexed.size(), scanned.size());
            for (std::size_t i = 0; i < scanned.size(); ++i) {
                QCOMPARE(indexed[i].column, scanned[i].column);
                QCOMPARE(indexed[i].count, scanned[i].count);
                QCOMPARE(indexed[i].strongest, scanned[i].strongest);
            }
            std::vector<ColumnBin> naive;  // and both against a plain walk over every mark
            const long width = static_cast<long>(std::ceil(m.width));
            for (std::size_t i = 0; i < marks.size(); ++i) {
                const long col = marks[i].x < m.start || marks[i].x > m.end ? -1 : m.column(marks[i].x);
                if (col < 0 || col >= width)
                    continue;
                if (naive.empty() || naive.back().column != col)
                    naive.push_back({col, 0, static_cast<std::uint32_t>(i)});
                ++naive.back().count;
                if (marks[i].role > marks[naive.back().strongest].role)
                    naive.back().strongest = static_cast<std::uint32_t>(i);
            }
            QCOMPARE(scanned.size(), naive.size());
            for (std::size_t i = 0; i < naive.size(); ++i) {
                QCOMPARE(scanned[i].column, naive[i].column);
                QCOMPARE(scanned[i].count, naive[i].count);
                QCOMPARE(scanned[i].strongest, naive[i].strongest);
            }
        }
    }

    void nearest()
    {
        auto marks = marksAt({1.0, 1.02, 5.0});
        marks[0].role = 5;
        const TimeMapping m{0, 10, 0, 1000};  // 100 px per second
        QCOMPARE(nearestMark(marks, m, 100.5, 6), 0L);
        QCOMPARE(nearestMark(marks, m, 102.5, 6), 1L);
        QCOMPARE(nearestMark(marks, m, 300, 6), -1L);
        QCOMPARE(nearestMark(marks, m, 498, 6), 2L);
    }

    void naturalOrder()
    {
        QVERIFY(naturalLess("node-2", "node-10"));
        QVERIFY(!naturalLess("node-10", "node-2"));
        QVERIFY(naturalLess("node-02", "node-3"));
        QVERIFY(naturalLess("a", "b"));
        QVERIFY(naturalLess("node", "node-1"));
        QVERIFY(!naturalLess("node-1", "node-1"));
    }
};

QTEST_APPLESS_MAIN(TestTimelineLayout)
#include "tst_timeline_layout.moc"
