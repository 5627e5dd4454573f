// SPDX-License-Identifier: GPL-3.0-or-later
// Stamps without a year take the year of their file's modification time when no job start is known; a file whose
// stamps all lack one moves by whole years to the bundle's dated files, with its events and boot estimates.
#include "analyze_files.h"

#include "importers/timestamps.h"

#include <QTemporaryDir>
#include <QtTest>
#include <ctime>

using namespace attrib;
using namespace attrib::importers;
using attrib::engine::TimeSource;
namespace fs = std::filesystem;

namespace {

/// The observation of the first line of `file` that starts with `prefix`, or nullptr.
const engine::Observation* lineIn(const engine::AnalysisResult& r, const std::string& file, const std::string& prefix)
{
    for (const auto& o : r.observations)
        if (r.files[o.source.file].path == file && o.text.rfind(prefix, 0) == 0)
            return &o;
    return nullptr;
}

/// The time of the first event raised from observation `id`.
engine::TimeNs eventTimeOf(const engine::AnalysisResult& r, std::uint64_t id)
{
    for (const auto& e : r.events)
        if (!e.observations.empty() && e.observations.front() == id)
            return e.time;
    return engine::NoTime;
}

int calendarYear(engine::TimeNs t)
{
    const auto secs = static_cast<std::time_t>(t / engine::NsPerSec);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm.tm_year + 1900;
}

const std::string Kern = "nodes/gpu-n07/kern.log";
const std::string Train = "nodes/gpu-n07/train.log";
const std::string Timeout = "2024-03-24 11:12:50,100 - ERROR - [Rank 3] Watchdog caught collective operation timeout: "
                            "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
                            "600012 milliseconds before timing out.\n";
const std::string Xid = "Mar 24 11:12:20 gpu-n07 kernel: NVRM: Xid (PCI:0000:18:00): 79, pid=1234, name=python, GPU "
                        "has fallen off the bus.\n";

}  // namespace

class TestGuessedYears : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shiftKeepsTheCalendarDay()
    {
        QCOMPARE(shiftYears(isoTime("2026-03-24T11:12:20.5Z"), -2), isoTime("2024-03-24T11:12:20.5Z"));
        QCOMPARE(shiftYears(isoTime("2024-02-29T00:00:01Z"), 1), isoTime("2025-03-01T00:00:01Z"));
        QCOMPARE(shiftYears(isoTime("1969-12-31T23:59:59.25Z"), 1), isoTime("1970-12-31T23:59:59.25Z"));
    }

    void yearlessSyslogJoinsTheDatedBundle()
    {
        const auto r = tests::analyzeFiles({{Kern, Xid}, {Train, Timeout}});
        const auto* xid = lineIn(r, Kern, "NVRM: Xid");
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::YearInferred);
        QCOMPARE(xid->time, isoTime("2024-03-24T11:12:20Z"));
        QCOMPARE(eventTimeOf(r, xid->id), isoTime("2024-03-24T11:12:20Z"));
        const auto* cov = tests::fileCoverage(r, Kern);
        QCOMPARE(cov->first, isoTime("2024-03-24T11:12:20Z"));
        QCOMPARE(cov->status, engine::CoverageStatus::Ok);
        QCOMPARE(cov->errors.size(), std::size_t(1));
        QVERIFY(cov->errors[0].find("dated 2024 like the bundle's dated files") != std::string::npos);
        QVERIFY(tests::fileCoverage(r, Train)->errors.empty());
    }

    void lateDecemberGoesBeforeJanuary()
    {
        const std::string dec = "Dec 31 23:59:00 gpu-n07 kernel: NVRM: Xid (PCI:0000:18:00): 79, pid=1234, "
                                "name=python, GPU has fallen off the bus.\n";
        const std::string jan = "2024-01-01 00:05:00,000 - ERROR - [Rank 3] Watchdog caught collective operation "
                                "timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                                "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n";
        const auto r = tests::analyzeFiles({{Kern, dec}, {Train, jan}});
        const auto* xid = lineIn(r, Kern, "NVRM: Xid");
        QVERIFY(xid);
        QCOMPARE(xid->time, isoTime("2023-12-31T23:59:00Z"));
    }

    void bootEstimatesMoveWithTheirLines()
    {
        // The syslog line forwards the printk stamp: boot = its wall time - 24.947970 s, in the dated year.
        const std::string kern = "Apr 22 20:40:26 node-04 kernel: [   24.947970] NVRM: GPU at PCI:0000:61:00: "
                                 "GPU-c259a791-a2ad-0f8a-0e11-3ae1dea80389\n";
        const std::string raw = "[ 3258.118251] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU "
                                "has fallen off the bus.\n";
        const std::string app = "2023-04-22 21:40:00,000 - INFO - step 10\n";
        const auto r = tests::analyzeFiles(
            {{"nodes/node-04/kern.log", kern}, {"nodes/node-04/dmesg.txt", raw}, {"nodes/node-04/train.log", app}});
        const auto* xid = lineIn(r, "nodes/node-04/dmesg.txt", "NVRM: Xid");
        QVERIFY(xid);
        QCOMPARE(xid->timeSource, TimeSource::Absolute);
        QCOMPARE(xid->time, isoTime("2023-04-22T21:34:19.170281Z"));  // 20:40:26 - 24.947970 + 3258.118251
    }

    void glogLinesTakeTheYearOfTheirFile()
    {
        // torchrun's Python logging carries the year, c10's glog header does not.
        const std::string log =
            "[2024-12-06 18:40:00,000] torch.distributed.run: [WARNING] Setting OMP_NUM_THREADS environment "
            "variable for each process\n"
            "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 "
            "milliseconds before timing out.\n";
        const auto r = tests::analyzeFiles({{Train, log}});
        const auto* timeout = lineIn(r, Train, "ProcessGroupNCCL.cpp:616]");
        QVERIFY(timeout);
        QCOMPARE(timeout->timeSource, TimeSource::YearInferred);
        QCOMPARE(timeout->time, isoTime("2024-12-06T18:44:12.715298746Z"));
        QCOMPARE(tests::fileCoverage(r, Train)->last, timeout->time);
    }

    void pastedSyslogTakesTheYearOfThePaste()
    {
        // A ticket's paste: the job's log, then the node's syslog lines (each form read by its own parser).
        const std::string paste = Timeout + Xid;
        const auto r = tests::analyzeFiles({{"issue.txt", paste}});
        const auto* xid = lineIn(r, "issue.txt", "NVRM: Xid");
        QVERIFY(xid);
        QCOMPARE(xid->time, isoTime("2024-03-24T11:12:20Z"));
    }

    void withoutDatedFilesTheFileTimeStands()
    {
        const auto r = tests::analyzeFiles({{Kern, Xid}});
        const auto* xid = lineIn(r, Kern, "NVRM: Xid");
        QVERIFY(xid);
        const auto* cov = tests::fileCoverage(r, Kern);
        QVERIFY(cov->errors.empty());
        // The file was just written: its stamp takes this year (or the last, were Mar 24 still to come).
        const int year = calendarYear(xid->time);
        const int now = calendarYear(static_cast<engine::TimeNs>(std::time(nullptr)) * engine::NsPerSec);
        QVERIFY2(year == now || year == now - 1, std::to_string(year).c_str());
    }
};

QTEST_APPLESS_MAIN(TestGuessedYears)
#include "tst_guessed_years.moc"
