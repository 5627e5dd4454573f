// SPDX-License-Identifier: GPL-3.0-or-later
// Clock offsets measured from watchdog anchors.
#include "engine/clock_skew.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fstream>

using namespace attrib::engine;

namespace {

Event watchdog(const std::string& node, int rank, TimeNs t, const std::string& seq = "4211",
               TimeSource source = TimeSource::YearInferred)
{
    Event e;
    e.type = "watchdog_timeout";
    e.node = node;
    e.rank = rank;
    e.time = t;
    e.timeSource = source;
    e.attrs = {{"seq", seq}, {"op", "ALLREDUCE"}};
    return e;
}

/// The anchors of the source catalog's data file (the watchdog timeout of one collective).
std::vector<ClockAnchor> anchors()
{
    std::ifstream in(std::string(ATTRIB_SOURCE_RULES_DIR) + "/data/clock_anchors.json");
    const auto doc = nlohmann::json::parse(in);
    return clockAnchors(&doc);
}

const ClockOffset* offsetOf(const std::vector<ClockOffset>& all, const std::string& node)
{
    for (const auto& o : all)
        if (o.node == node)
            return &o;
    return nullptr;
}

}  // namespace

class TestClockSkew : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void measuresAFastNode()
    {
        const TimeNs t = 1'000'000 * NsPerSec;
        std::vector<Event> events;
        for (int r = 0; r < 4; ++r) {
            events.push_back(watchdog("a", r, t + TimeNs{r} * 20 * NsPerMs));
            events.push_back(watchdog("b", 4 + r, t + 10 * NsPerMs + TimeNs{r} * 15 * NsPerMs));
            events.push_back(watchdog("c", 8 + r, t + 45 * NsPerSec + TimeNs{r} * 10 * NsPerMs));
        }
        Trace trace;
        const auto offsets = estimateClockOffsets(events, anchors(), trace);
        QCOMPARE(offsets.size(), std::size_t(3));
        const auto* c = offsetOf(offsets, "c");
        QVERIFY(c && c->applied);
        QVERIFY(std::llabs(c->offset + 45 * NsPerSec) < 100 * NsPerMs);
        QVERIFY(!offsetOf(offsets, "a")->applied);  // within jitter
        // applying moves node c's events back onto the others' clock
        Event x;
        x.node = "c";
        x.time = t + 60 * NsPerSec;
        x.timeSource = TimeSource::Absolute;
        std::vector<Event> more = {x};
        applyClockOffsets(more, offsets);
        QVERIFY(std::llabs(more[0].time - (t + 15 * NsPerSec)) < 100 * NsPerMs);
        QVERIFY(!trace.steps().empty());
    }

    void repeatedLinesOfOneRankCountOnce()
    {
        const TimeNs t = 5'000 * NsPerSec;
        std::vector<Event> events = {watchdog("a", 0, t), watchdog("a", 0, t + 3 * NsPerSec),  // same rank's echo
                                     watchdog("b", 1, t + 2 * NsPerSec)};
        Trace trace;
        const auto offsets = estimateClockOffsets(events, anchors(), trace);
        // median of {a: t, b: t+2} -> reference is one of them; node a's echo must not drag it
        QCOMPARE(offsets.size(), std::size_t(2));
        QVERIFY(std::llabs(offsetOf(offsets, "a")->offset - offsetOf(offsets, "b")->offset) == 2 * NsPerSec);
    }

    void noAnchorsNoOffsets()
    {
        const TimeNs t = 5'000 * NsPerSec;
        Trace trace;
        // one node only, or times that are not trustworthy (inherited), measure nothing
        QVERIFY(estimateClockOffsets({watchdog("a", 0, t), watchdog("a", 1, t)}, anchors(), trace).empty());
        QVERIFY(estimateClockOffsets({watchdog("a", 0, t), watchdog("b", 1, t + NsPerSec, "1", TimeSource::Inherited)},
                                     anchors(), trace)
                    .empty());
        // different collectives are different anchors
        QVERIFY(
            estimateClockOffsets({watchdog("a", 0, t, "1"), watchdog("b", 1, t + 90 * NsPerSec, "2")}, anchors(), trace)
                .empty());
    }

    void anchorsComeFromTheCatalog()
    {
        // Without anchor data the engine measures nothing: it knows no event of its own.
        const TimeNs t = 1'000'000 * NsPerSec;
        Trace trace;
        QVERIFY(estimateClockOffsets({watchdog("a", 0, t), watchdog("b", 1, t + 90 * NsPerSec)}, {}, trace).empty());
        const auto list = anchors();
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(list.front().jitter, 100 * NsPerMs);
        const auto offsets =
            estimateClockOffsets({watchdog("a", 0, t), watchdog("b", 1, t + 90 * NsPerSec)}, list, trace);
        QCOMPARE(offsets.size(), std::size_t(2));
        QVERIFY(offsets.front().anchor.find("watchdog SeqNum 4211 ALLREDUCE") == 0);
    }
};

QTEST_APPLESS_MAIN(TestClockSkew)
#include "tst_clock_skew.moc"
