// SPDX-License-Identifier: GPL-3.0-or-later
// Raw dmesg seconds-since-boot become wall time when the node's boot time is known: from workload.json, the
// journal, syslog lines with forwarded printk stamps, the rtc_cmos line, or lines seen in both logs.
#include "analyze_files.h"

#include "importers/boot_times.h"
#include "importers/timestamps.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using attrib::engine::NoTime;
using attrib::engine::TimeSource;
namespace fs = std::filesystem;

namespace {

/// The observation of the Xid line in `file`, or nullptr.
const engine::Observation* xidIn(const engine::AnalysisResult& r, const std::string& file)
{
    for (const auto& o : r.observations)
        if (r.files[o.source.file].path == file && o.text.rfind("NVRM: Xid", 0) == 0)
            return &o;
    return nullptr;
}

const std::string Bare = "nodes/node-04/dmesg.txt";

}  // namespace

class TestBootTimes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fromWorkload()
    {
        const auto r = tests::analyzeFiles(
            {{"workload.json", "{\"id\": \"1\", \"boot_times\": {\"node-04\": \"2026-04-22T20:40:00Z\"}}"},
             {Bare, tests::fixture("dmesg-raw-bare.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::Absolute);
        QCOMPARE(xid->time, isoTime("2026-04-22T21:34:18.118251Z"));
        const auto* cov = tests::fileCoverage(r, Bare);
        QCOMPARE(cov->first, isoTime("2026-04-22T20:40:00Z"));
        QVERIFY(cov->errors.empty());
    }

    void fromRtcLine()
    {
        const auto r = tests::analyzeFiles({{Bare, tests::fixture("dmesg-raw-rtc.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::Absolute);
        // rtc_cmos set the clock to 20:40:02 at 2.641971 s after boot.
        QCOMPARE(xid->time, isoTime("2026-04-22T21:34:17.476280Z"));
    }

    void fromJournal()
    {
        const auto r = tests::analyzeFiles({{"nodes/node-04/journal.json", tests::fixture("journal.json")},
                                            {Bare, tests::fixture("dmesg-raw-bare.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->time, isoTime("2026-04-22T21:34:20.118251Z"));  // realtime - monotonic = 20:40:02
    }

    void fromForwardedPrintkStamps()
    {
        const auto r = tests::analyzeFiles({{"nodes/node-04/kern.log", tests::fixture("kern-forwarded-uptime.log")},
                                            {Bare, tests::fixture("dmesg-raw-bare.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->time, isoTime("2026-04-22T21:34:20.118251Z"));
    }

    void fromPairedLines()
    {
        // The same `NVRM: GPU at PCI` line, once with a wall-clock stamp and once with seconds since boot.
        const std::string dmesgT = "[Wed Apr 22 20:40:26 2026] NVRM: GPU at PCI:0000:61:00: "
                                   "GPU-c259a791-a2ad-0f8a-0e11-3ae1dea80389\n";
        const auto r =
            tests::analyzeFiles({{"nodes/node-04/dmesg-T.txt", dmesgT}, {Bare, tests::fixture("dmesg-raw-bare.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::Absolute);
        QCOMPARE(xid->time, isoTime("2026-04-22T21:34:19.170281Z"));  // 20:40:26 - 24.947970 + 3258.118251
    }

    void unknownBootStaysRelative()
    {
        const auto r = tests::analyzeFiles({{Bare, tests::fixture("dmesg-raw-bare.txt")}});
        const auto* xid = xidIn(r, Bare);
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::BootRelative);
        QCOMPARE(xid->time, qint64(3258118251000));
        const auto* cov = tests::fileCoverage(r, Bare);
        QCOMPARE(cov->status, engine::CoverageStatus::Partial);
        QCOMPARE(cov->errors.size(), std::size_t(1));
        QVERIFY(cov->errors[0].find("no boot time known for node-04") != std::string::npos);
    }

    void clockCombinesEstimates()
    {
        BootClock clock;
        const qint64 s = 1'000'000'000;
        clock.offer("n1", 1000 * s, 10 * s, BootClock::Source::Syslog);
        clock.offer("n1", 1001 * s, 10 * s, BootClock::Source::Syslog);  // same boot, finer: kept
        QCOMPARE(clock.bootOf("n1"), 991 * s);
        clock.offer("n1", 9000 * s, 5 * s, BootClock::Source::Syslog);  // a later boot wins
        QCOMPARE(clock.bootOf("n1"), 8995 * s);
        clock.offer("n1", 100 * s, 5 * s, BootClock::Source::Journal);  // a more trusted source wins
        QCOMPARE(clock.bootOf("n1"), 95 * s);
        clock.offerPairs("n1", {1 * s});  // less trusted: ignored
        QCOMPARE(clock.bootOf("n1"), 95 * s);
        QVERIFY(!clock.offerRtcLine("n2", "usb 1-1: new device", 5 * s));
        QVERIFY(clock.offerRtcLine("n2", "rtc_cmos 00:00: setting system clock to 2026-04-22T20:40:02 UTC (1776890402)",
                                   2 * s));
        QCOMPARE(clock.bootOf("n2"), isoTime("2026-04-22T20:40:00Z"));
        QCOMPARE(clock.bootOf("n3"), NoTime);
        QVERIFY(clock.describe("n2").find("rtc_cmos") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestBootTimes)
#include "tst_boot_times.moc"
