// SPDX-License-Identifier: GPL-3.0-or-later
// Tests the per-format line parsers: stamps (with and without a year), hosts, ranks, devices and message bodies.
#include "importers/line_format.h"

#include "importers/timestamps.h"

#include <QtTest>

using namespace attrib::importers;
using attrib::engine::NoTime;

Q_DECLARE_METATYPE(attrib::engine::TimeSource)

namespace {

constexpr qint64 Sec = 1'000'000'000;

std::string_view view(const QByteArray& bytes)
{
    return std::string_view(bytes.constData(), bytes.size());
}
QString str(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// What one parsed line should look like.
struct Expect {
    qint64 time = NoTime;
    TimeSource source = TimeSource::None;
    const char* host = "";
    int rank = -1;
    int gpu = -1;
    const char* text = "";
    bool ok = true;
};

void parseRow(const char* name, const char* format, const QByteArray& line, const Expect& e, int year = 2026,
              qint64 boot = NoTime)
{
    QTest::newRow(name) << QString::fromLatin1(format) << year << boot << line << e.ok << e.time << e.source
                        << QString::fromUtf8(e.host) << e.rank << e.gpu << QString::fromUtf8(e.text);
}

/// Parses `lines` with one parser and returns the times it gave.
QList<qint64> times(const char* format, const QList<QByteArray>& lines, int year)
{
    const auto known = formatFrom(format);
    if (!known)
        qFatal("no format named %s", format);
    auto parser = makeParser(Sniffed{SourceKind::Unknown, *known, {}}, TimeHints{year, NoTime});
    QList<qint64> out;
    for (const auto& line : lines) {
        ParsedLine parsed;
        parser->parse(view(line), parsed);
        out << parsed.time;
    }
    return out;
}

constexpr const char* Xid = "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
constexpr const char* Watchdog = "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580)";
// glog's `file:line]` stays before the message: rules written from framework sources anchor on the file.
constexpr const char* GlogWatchdog =
    "ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580)";
constexpr qint64 Apr22 = 1776893660 * Sec;  // 2026-04-22T21:34:20Z

QByteArray glogLine()
{
    return QByteArray("[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] ") + Watchdog;
}

/// Kernel ring buffer and syslog files.
void addKernelParseRows()
{
    using TS = TimeSource;
    const qint64 boot = makeTime(2026, 4, 22, 0, 0, 0);

    parseRow("raw, boot unknown", "dmesg-raw", QByteArray("[ 1843.308145] ") + Xid,
             {.time = 1843 * Sec + 308145000, .source = TS::BootRelative, .text = Xid});
    parseRow("raw, boot known", "dmesg-raw", QByteArray("[ 1843.308145] ") + Xid,
             {.time = boot + 1843 * Sec + 308145000, .source = TS::Absolute, .text = Xid}, 2026, boot);
    parseRow("raw with priority", "dmesg-raw", "<4>[ 12.500000] x",
             {.time = 12 * Sec + 500000000, .source = TS::BootRelative, .text = "x"});
    parseRow("raw continuation", "dmesg-raw", "   Call Trace:", {.text = "   Call Trace:"});
    parseRow("dmesg -T", "dmesg-T", QByteArray("[Sun Feb 23 16:24:18 2025] ") + Xid,
             {.time = 1740327858 * Sec, .source = TS::Absolute, .text = Xid});
    // dmesg -x decodes facility and level before the stamp; CONFIG_PRINTK_CALLER adds a caller id after it
    parseRow("dmesg -x", "dmesg-raw", QByteArray("kern  :err   : [ 1843.308145] ") + Xid,
             {.time = 1843 * Sec + 308145000, .source = TS::BootRelative, .text = Xid});
    parseRow("dmesg -xT", "dmesg-T", QByteArray("daemon:warn  : [Sun Feb 23 16:24:18 2025] ") + Xid,
             {.time = 1740327858 * Sec, .source = TS::Absolute, .text = Xid});
    parseRow("caller id", "dmesg-raw", QByteArray("[ 1843.308145] [  T129] ") + Xid,
             {.time = 1843 * Sec + 308145000, .source = TS::BootRelative, .text = Xid});
    parseRow("CPU caller id", "dmesg-T", QByteArray("[Sun Feb 23 16:24:18 2025] [    C3] ") + Xid,
             {.time = 1740327858 * Sec, .source = TS::Absolute, .text = Xid});
    parseRow("talosctl dmesg", "dmesg-T",
             QByteArray("10.0.20.203: kern:     err: [2022-09-02T19:03:16.922855Z]: ") + Xid,
             {.time = makeTime(2022, 9, 2, 19, 3, 16) + 922855000,
              .source = TS::Absolute,
              .host = "10.0.20.203",
              .text = Xid});
    parseRow("talosctl dmesg, no node", "dmesg-T", QByteArray("user: warning: [2023-04-02T08:28:32.661330Z]: ") + Xid,
             {.time = makeTime(2023, 4, 2, 8, 28, 32) + 661330000, .source = TS::Absolute, .text = Xid});
    parseRow("not a decoded level", "dmesg-raw", "kern  :oops  : [ 1.000000] x",
             {.text = "kern  :oops  : [ 1.000000] x"});
    parseRow("binary garbage", "dmesg-raw", QByteArray("\x01\x02\x03\x04x", 5), {.text = "", .ok = false});
    parseRow("embedded NUL", "dmesg-raw", QByteArray("[ 1.000000] a\0b", 15), {.text = "", .ok = false});

    // Syslog
    parseRow("RFC 3164 kernel with uptime", "rfc3164", QByteArray("Apr 22 21:34:20 node-01 kernel: [12345.678] ") + Xid,
             {.time = Apr22, .source = TS::YearInferred, .host = "node-01", .text = Xid});
    parseRow("RFC 3164 kernel, no uptime", "rfc3164", "Sep 24 11:08:03 bvr-sql18 kernel: EDAC MC1: 5 CE error",
             {.time = makeTime(2026, 9, 24, 11, 8, 3),
              .source = TS::YearInferred,
              .host = "bvr-sql18",
              .text = "EDAC MC1: 5 CE error"});
    parseRow("RFC 3164 daemon keeps its tag", "rfc3164",
             "Dec  6 19:25:33 at7tj000004 systemd-networkd[2385]: ib1: Lost carrier",
             {.time = makeTime(2024, 12, 6, 19, 25, 33),
              .source = TS::YearInferred,
              .host = "at7tj000004",
              .text = "systemd-networkd[2385]: ib1: Lost carrier"},
             2024);
    parseRow("RFC 3164 without a year", "rfc3164", "Apr 22 21:34:20 node-01 kernel: NVRM: x",
             {.host = "node-01", .text = "NVRM: x"}, 0);
    parseRow("RFC 3164 no tag", "rfc3164", "Apr 22 21:34:20 node-01 free text here",
             {.time = Apr22, .source = TS::YearInferred, .host = "node-01", .text = "free text here"});
    parseRow("syslog line without stamp", "rfc3164", "  continued", {.text = "  continued"});
    parseRow("ISO kernel", "iso8601", QByteArray("2026-04-22T21:34:20.123456+00:00 node-07 kernel: ") + Xid,
             {.time = Apr22 + 123456000, .source = TS::Absolute, .host = "node-07", .text = Xid});
    parseRow("ISO with offset and uptime", "iso8601", "2023-06-22T21:55:31.352446+08:00 host kernel: [1.500000] x",
             {.time = 1687442131 * Sec + 352446000, .source = TS::Absolute, .host = "host", .text = "x"});
    // a collector's stamp (`kubectl logs --timestamps`) before a program's own words: no host, no tag
    parseRow("ISO before Python logging", "iso8601",
             "2026-04-22T21:34:20Z ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9)",
             {.time = Apr22,
              .source = TS::Absolute,
              .text = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9)"});
    parseRow("ISO before a level word as tag", "iso8601", "2026-04-22T21:34:20Z CUDA error: out of memory",
             {.time = Apr22, .source = TS::Absolute, .text = "CUDA error: out of memory"});
    parseRow("ISO before a failed call", "iso8601", "2026-04-22T21:34:20Z write failed: No space left on device",
             {.time = Apr22, .source = TS::Absolute, .text = "write failed: No space left on device"});
    parseRow("ISO before a bracketed rank", "iso8601", "2026-04-22T21:34:20Z [rank0] PMIX_Init returned -25",
             {.time = Apr22, .source = TS::Absolute, .text = "[rank0] PMIX_Init returned -25"});
    parseRow("ISO with an IPv6 host", "iso8601", "2026-04-22T21:34:20Z fe80::1 kernel: x",
             {.time = Apr22, .source = TS::Absolute, .host = "fe80::1", .text = "x"});
}

void addAppParseRows()
{
    using TS = TimeSource;
    // Application logs
    const char* nccl = "node-02:4321:4400 [3] NCCL WARN NET/IB : Got completion from peer";
    parseRow("NCCL keeps whole line", "app", nccl, {.host = "node-02", .gpu = 3, .text = nccl});
    // Pasted NCCL lines: pid:tid cut out (an NCCL message must follow), and a redacted host (no node).
    parseRow("NCCL without pid:tid", "app", "gpu-server320 [5] misc/socket.cc:46 NCCL WARN Net : Connect failed",
             {.host = "gpu-server320",
              .gpu = 5,
              .text = "gpu-server320 [5] misc/socket.cc:46 NCCL WARN Net : Connect failed"});
    parseRow("not NCCL without its message", "app", "epoch3 [5] loss 0.1", {.text = "epoch3 [5] loss 0.1"});
    parseRow("a rank tag is no host", "app", "rank3 [3] NCCL INFO x", {.text = "rank3 [3] NCCL INFO x"});
    parseRow("quoted NCCL line names its host, not a quote", "app", "\"node-02:4321:4400 [3] NCCL WARN x\",",
             {.host = "node-02", .gpu = 3, .text = "\"node-02:4321:4400 [3] NCCL WARN x\","});
    // NCCL's prefix behind another program's: loguru, Python logging; the text is kept whole. Compose's service
    // prefix is a launcher's and goes.
    parseRow("NCCL behind Compose", "app", "trainer-1  | gpu-node-7:1234:5678 [0] NCCL WARN x",
             {.host = "gpu-node-7", .gpu = 0, .text = "gpu-node-7:1234:5678 [0] NCCL WARN x"});
    parseRow("NCCL behind loguru", "app", "12:00:01.123 | ERROR    | train:step:42 - gpu-node-7:12:34 [5] NCCL WARN x",
             {.host = "gpu-node-7",
              .gpu = 5,
              .text = "12:00:01.123 | ERROR    | train:step:42 - gpu-node-7:12:34 [5] NCCL WARN x"});
    parseRow("NCCL behind Python logging", "app", "INFO:root:dgx-a:1:2 [7] NCCL INFO x",
             {.host = "dgx-a", .gpu = 7, .text = "INFO:root:dgx-a:1:2 [7] NCCL INFO x"});
    parseRow("NCCL behind a wrapper, host an address", "app", "worker 3 says 10.1.2.3:1:2 [1] NCCL INFO x",
             {.host = "10.1.2.3", .gpu = 1, .text = "worker 3 says 10.1.2.3:1:2 [1] NCCL INFO x"});
    parseRow("NCCL WARN with its source file behind Compose", "app",
             "trainer-1  | gpu-node-7:1234:5678 [2] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion",
             {.host = "gpu-node-7",
              .gpu = 2,
              .text = "gpu-node-7:1234:5678 [2] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion"});
    parseRow("a clock before NCCL is no host", "app", "at 12:30:45 [0] NCCL INFO x",
             {.text = "at 12:30:45 [0] NCCL INFO x"});
    parseRow("redacted NCCL host", "app", "<cluster_name>:922:1149 [3] NCCL WARN x",
             {.host = "<cluster_name>", .gpu = 3, .text = "<cluster_name>:922:1149 [3] NCCL WARN x"});
    parseRow(
        "rank + NCCL with file", "app", "[rank3]:node-02:4321:4400 [3] transport/net_ib.cc:1295 NCCL WARN x",
        {.host = "node-02", .rank = 3, .gpu = 3, .text = "node-02:4321:4400 [3] transport/net_ib.cc:1295 NCCL WARN x"});
    parseRow("rank + glog", "app", glogLine(),
             {.time = makeTime(2024, 12, 6, 18, 44, 12, 715298746),
              .source = TS::YearInferred,
              .rank = 0,
              .text = GlogWatchdog},
             2024);
    parseRow("rank + glog, no year", "app", glogLine(), {.rank = 0, .text = GlogWatchdog}, 0);
    parseRow("unpadded glog month", "app", "[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] x",
             {.time = makeTime(2025, 3, 21, 2, 7, 8, 408271257),
              .source = TS::YearInferred,
              .rank = 0,
              .text = "ProcessGroupNCCL.cpp:607] x"},
             2025);
    // torchtitan's logger puts its name before the stamp (torchtitan/tools/logging.py); a bracketed word alone stays.
    parseRow("logger tag before stamp", "app",
             "[rank0]:[titan] 2025-03-01 10:00:00,123 - root - INFO - Saving the checkpoint",
             {.time = makeTime(2025, 3, 1, 10, 0, 0, 123000000),
              .source = TS::Absolute,
              .rank = 0,
              .text = "- root - INFO - Saving the checkpoint"});
    parseRow("bracketed word without stamp", "app", "[titan] loss 0.1", {.text = "[titan] loss 0.1"});
    // SGLang's `[%(asctime)s{prefix}] ` with the process's parallel ranks as the prefix (sglang/srt/utils.py
    // configure_logger); a bracket holding a stamp and a word that is no rank tag stays.
    parseRow(
        "stamp with rank tags", "app", "[2025-03-29 18:18:34 DP0 TP1] Scheduler hit an exception: x",
        {.time = makeTime(2025, 3, 29, 18, 18, 34), .source = TS::Absolute, .text = "Scheduler hit an exception: x"});
    parseRow("stamp with a word", "app", "[2025-03-29 18:18:34 Scheduler] x",
             {.text = "[2025-03-29 18:18:34 Scheduler] x"});
    // Metaflow's task prefix after its stamp (metaflow/runtime.py); a bracketed path of another kind stays.
    parseRow("metaflow task", "app", "2019-11-29 02:43:39.689 [5/start/21975 (pid 83812)] MemoryError",
             {.time = makeTime(2019, 11, 29, 2, 43, 39, 689000000), .source = TS::Absolute, .text = "MemoryError"});
    parseRow("metaflow runtime message", "app", "[1734/train/7] Task is starting.", {.text = "Task is starting."});
    parseRow("bracketed path", "app", "[src/models/bert] loading", {.text = "[src/models/bert] loading"});
    parseRow("old c10 without stamp", "app", "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught",
             {.text = "ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught"});
    parseRow("glog without fraction", "app", "[rank1]:[E1111 17:10:53] ProcessGroupNCCL's watchdog got stuck",
             {.time = makeTime(2026, 11, 11, 17, 10, 53),
              .source = TS::YearInferred,
              .rank = 1,
              .text = "ProcessGroupNCCL's watchdog got stuck"});
    parseRow("python logging", "app",
             "[2024-05-08 08:47:31,877] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1)",
             {.time = makeTime(2024, 5, 8, 8, 47, 31, 877000000),
              .source = TS::Absolute,
              .text = "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1)"});
    parseRow("bare glog (torch elastic)", "app",
             "E0325 20:57:27.620000 2606 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] "
             "failed (exitcode: -9) local_rank: 5",
             {.time = makeTime(2025, 3, 25, 20, 57, 27, 620000000),
              .source = TS::YearInferred,
              .text = "site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) "
                      "local_rank: 5"},
             2025);
    parseRow("mpirun stdout", "app", "[1,2]<stdout>:RuntimeError: CUDA error",
             {.rank = 2, .text = "RuntimeError: CUDA error"});
    parseRow("mpirun + rank + glog", "app",
             "[1,12]<stderr>:[rank12]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] x",
             {.time = makeTime(2026, 3, 21, 2, 7, 8, 408271257),
              .source = TS::YearInferred,
              .rank = 12,
              .text = "ProcessGroupNCCL.cpp:607] x"});
    parseRow("srun label", "app",
             " 3: Traceback (most recent call last):", {.rank = 3, .text = "Traceback (most recent call last):"});
    parseRow("srun label + NCCL", "app", "12: node-05:1:2 [7] NCCL INFO x",
             {.host = "node-05", .rank = 12, .gpu = 7, .text = "node-05:1:2 [7] NCCL INFO x"});
    parseRow("collector ISO + rank", "app", "2026-04-22T21:34:20.123Z [rank5]: x",
             {.time = Apr22 + 123000000, .source = TS::Absolute, .rank = 5, .text = "x"});
    parseRow("collector stamp is not an NCCL host", "app", "2026-04-22T21:34:20 [3] x",
             {.time = Apr22, .source = TS::Absolute, .text = "[3] x"});
    parseRow("collector bracket + label", "app", "[2026-04-22 21:34:20] 3: hello",
             {.time = Apr22, .source = TS::Absolute, .rank = 3, .text = "hello"});
    parseRow("collector stamp wins over glog", "app", "2026-04-22T21:34:20Z [rank0]:[E1206 18:44:12.7 X.cpp:1] y",
             {.time = Apr22, .source = TS::Absolute, .rank = 0, .text = "X.cpp:1] y"}, 2024);
    parseRow("rank prefix keeps indentation", "app", "[rank0]:   File \"train.py\", line 12",
             {.rank = 0, .text = "  File \"train.py\", line 12"});
    parseRow("traceback frame untouched", "app", "  File \"train.py\", line 12, in <module>",
             {.text = "  File \"train.py\", line 12, in <module>"});
    parseRow("elastic summary entry", "app", "[0]:", {.text = "[0]:"});
    parseRow("elastic summary time", "app", "  time      : 2024-03-05_07:01:51",
             {.text = "  time      : 2024-03-05_07:01:51"});
    parseRow("label needs a space", "app", "12:34:56 not a label", {.text = "12:34:56 not a label"});
    parseRow("empty line", "app", "", {.text = ""});
    parseRow("app garbage", "app", QByteArray("\x01\x02\x03\x04\x05", 5), {.text = "", .ok = false});
}

void addSlurmAndFabricParseRows()
{
    using TS = TimeSource;
    // Slurm
    parseRow("slurmstepd with host", "slurm-out",
             "slurmstepd-vm: error: *** JOB 6 ON vm CANCELLED AT 2026-11-29T08:46:57 ***",
             {.host = "vm", .text = "error: *** JOB 6 ON vm CANCELLED AT 2026-11-29T08:46:57 ***"});
    parseRow("slurmstepd without host", "slurm-out",
             "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.batch.",
             {.text = "error: Detected 1 oom-kill event(s) in StepId=7.batch."});
    parseRow("srun line kept", "slurm-out", "srun: error: vm: tasks 0-1: Exited with exit code 1",
             {.host = "vm", .text = "srun: error: vm: tasks 0-1: Exited with exit code 1"});
    parseRow("app line in job output", "slurm-out", glogLine(),
             {.time = makeTime(2026, 12, 6, 18, 44, 12, 715298746),
              .source = TS::YearInferred,
              .rank = 0,
              .text = GlogWatchdog});
    parseRow("labelled slurmstepd", "slurm-out", "0: slurmstepd-node3: error: x",
             {.host = "node3", .rank = 0, .text = "error: x"});
    parseRow("daemon log", "slurm-daemon",
             "[2026-04-29T23:36:37.809] error: *** STEP 52222788.0 ON nid002888 CANCELLED AT 2026-04-29T23:36:37 ***",
             {.time = makeTime(2026, 4, 29, 23, 36, 37, 809000000),
              .source = TS::Absolute,
              .text = "error: *** STEP 52222788.0 ON nid002888 CANCELLED AT 2026-04-29T23:36:37 ***"});
    parseRow("daemon continuation", "slurm-daemon", "more text", {.text = "more text"});

    // Fabric Manager
    parseRow("fabric manager", "fabricmanager",
             "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034 on fid 0",
             {.time = 1721721235 * Sec,
              .source = TS::Absolute,
              .text = "[ERROR] [tid 841] detected NVSwitch fatal error 20034 on fid 0"});
    parseRow("fabric manager unstamped", "fabricmanager", "detected number of NVSwitches don't match",
             {.text = "detected number of NVSwitches don't match"});
}

}  // namespace

class TestLineParsing : public QObject {
    Q_OBJECT

private slots:
    void parsing_data();
    void parsing();
    void yearWrapsFromDecemberToJanuary();
    void yearNotBumpedBySmallBackwardJump();
};

void TestLineParsing::parsing_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("year");
    QTest::addColumn<qint64>("boot");
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<TimeSource>("source");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("text");

    addKernelParseRows();
    addAppParseRows();
    addSlurmAndFabricParseRows();
}

void TestLineParsing::parsing()
{
    QFETCH(QString, format);
    QFETCH(int, year);
    QFETCH(qint64, boot);
    QFETCH(QByteArray, line);
    QFETCH(bool, ok);
    const auto known = formatFrom(format.toStdString());
    QVERIFY2(known, qPrintable(format));
    const Sniffed sniffed{SourceKind::Unknown, *known, {}};
    auto parser = makeParser(sniffed, TimeHints{year, boot});
    QVERIFY(parser);
    ParsedLine parsed;
    parsed.rank = 99;  // stale values from a previous line must not survive
    parsed.host = "stale";
    QCOMPARE(parser->parse(view(line), parsed), ok);
    if (!ok)
        return;
    QFETCH(qint64, time);
    QFETCH(TimeSource, source);
    QFETCH(QString, host);
    QFETCH(int, rank);
    QFETCH(int, gpu);
    QFETCH(QString, text);
    QCOMPARE(str(parsed.text), text);
    QCOMPARE(parsed.time, time);
    QCOMPARE(int(parsed.timeSource), int(source));
    QCOMPARE(str(parsed.host), host);
    QCOMPARE(parsed.rank, rank);
    QCOMPARE(parsed.gpu, gpu);
}

void TestLineParsing::yearWrapsFromDecemberToJanuary()
{
    const QList<QByteArray> syslog = {"Dec 31 23:59:59 h kernel: a", "Jan  1 00:00:01 h kernel: b",
                                      "Jan  1 00:00:02 h kernel: c"};
    QCOMPARE(times("rfc3164", syslog, 2024),
             QList<qint64>(
                 {makeTime(2024, 12, 31, 23, 59, 59), makeTime(2025, 1, 1, 0, 0, 1), makeTime(2025, 1, 1, 0, 0, 2)}));
    const QList<QByteArray> glog = {"[rank0]:[E1231 23:59:59.5 X.cpp:1] a", "node:1:2 [0] NCCL INFO b",
                                    "[rank0]:[E0101 00:00:01.0 X.cpp:1] c"};
    QCOMPARE(times("app", glog, 2024),
             QList<qint64>({makeTime(2024, 12, 31, 23, 59, 59, 500000000), NoTime, makeTime(2025, 1, 1, 0, 0, 1)}));
}

void TestLineParsing::yearNotBumpedBySmallBackwardJump()
{
    const QList<QByteArray> lines = {"Mar  1 00:00:00 h kernel: a", "Feb 28 23:59:00 h kernel: b"};
    QCOMPARE(times("rfc3164", lines, 2025),
             QList<qint64>({makeTime(2025, 3, 1, 0, 0, 0), makeTime(2025, 2, 28, 23, 59, 0)}));
}

QTEST_APPLESS_MAIN(TestLineParsing)
#include "tst_line_parsing.moc"
