// SPDX-License-Identifier: GPL-3.0-or-later
// Tests content sniffing of every supported format, the plain-text fallback and terminal codes; the per-format line
// parsers are tst_line_parsing's.
#include "importers/line_format.h"

#include "engine/safe_text.h"

#include "importers/timestamps.h"

#include <QtTest>

using namespace attrib::importers;
using attrib::engine::NoTime;

Q_DECLARE_METATYPE(attrib::engine::SourceKind)

namespace {

std::string_view view(const QByteArray& bytes)
{
    return std::string_view(bytes.constData(), bytes.size());
}
QString str(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

void sniffRow(const char* name, const QByteArray& head, const char* path, SourceKind kind, const char* format,
              const char* reason = "")
{
    QTest::newRow(name) << head << QString::fromLatin1(path) << kind << QString::fromLatin1(format)
                        << QString::fromLatin1(reason);
}

QByteArray repeatLines(const QByteArray& line, int count)
{
    QByteArray out;
    for (int i = 0; i < count; ++i)
        out += line + '\n';
    return out;
}

}  // namespace

class TestLineFormat : public QObject {
    Q_OBJECT

private slots:
    void sniffing_data();
    void sniffing();
    void sniffLooksOnlyAtHead();
    void unknownFormatGetsPlainParser();
    void sniffThenParseSlurmSample();
    void terminalCodesStripped_data();
    void terminalCodesStripped();
    void colouredStampedLinesSniffedByTheirForm();
};

namespace {

constexpr const char* Xid = "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
constexpr const char* Watchdog = "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580)";
/// Kernel ring buffer and syslog files.
void addLogSniffRows()
{
    sniffRow("dmesg raw",
             "[    0.000000] Linux version 6.1.0\n[  171167.620236] NVRM: Xid (PCI:0009:01:00): 149, NETIR_LINK_EVT\n"
             "[171167.700000] NVRM: GPU at PCI:0009:01:00: GPU-1234\n",
             "x.txt", SourceKind::Kernel, "dmesg-raw", "3 of 3");
    sniffRow("dmesg -x", "kern  :err   : [ 12.000001] mlx5_core 0000:3b:00.0: link down\nkern  :info  : [ 13.5] ok\n",
             "", SourceKind::Kernel, "dmesg-raw");
    // talosctl dmesg: the node's address, facility and right-aligned level, an ISO stamp in brackets and a colon
    sniffRow(
        "talosctl dmesg",
        "192.168.11.119: kern: warning: [2026-04-22T21:25:20.458998481Z]: NVRM: GPU at PCI:0000:48:00: GPU-5f\n"
        "192.168.11.119: kern:     err: [2026-04-22T21:25:20.466440686Z]: nvidia-nvswitch1: SXid (PCI:0000:aa:00.0)"
        ": 24007, Severity 1\n",
        "", SourceKind::Kernel, "dmesg-T");
    sniffRow("dmesg raw with priority", "<4>[ 12.000001] mlx5_core 0000:3b:00.0: link down\n<6>[ 13.5] ok\n", "",
             SourceKind::Kernel, "dmesg-raw");
    sniffRow("dmesg -T naming nvidia-bug-report.sh is still a kernel log",
             "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, GPU has fallen off the bus.\n"
             "[Wed Apr 22 21:34:20 2026] NVRM: A GPU crash dump has been created. If possible, please run\n"
             "[Wed Apr 22 21:34:20 2026] NVRM: nvidia-bug-report.sh as root to collect this data before\n",
             "", SourceKind::Kernel, "dmesg-T");
    sniffRow("dmesg -T",
             "[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380\n"
             "[Sun Feb 23 16:24:19 2025] NVRM: GPU4 GSP RPC timeout\n   continuation of the record\n",
             "", SourceKind::Kernel, "dmesg-T", "2 of 3");
    sniffRow("kern.log (RFC 3164, kernel)",
             "Apr 22 21:34:20 node-01 kernel: [12345.678] NVRM: Xid (PCI:0000:3b:00): 79\n"
             "Apr 22 21:34:21 node-01 kernel: NVRM: GPU has fallen off the bus.\n"
             "Apr 22 21:34:22 node-01 systemd[1]: Started x.\n",
             "", SourceKind::Kernel, "rfc3164");
    sniffRow("syslog (RFC 3164, daemons)",
             "Dec  6 19:25:33 at7tj000004 systemd-networkd[2385]: ib1: Lost carrier\n"
             "Dec  6 19:25:34 at7tj000004 CRON[1]: (root) CMD (true)\n"
             "Dec  6 19:25:35 at7tj000004 kernel: mlx5_core: link down\n",
             "messages", SourceKind::Syslog, "rfc3164");
    sniffRow("journal short-iso kernel",
             "2026-04-22T21:34:20.123456+00:00 node-07 kernel: NVRM: Xid (PCI:0000:3b:00): 48\n"
             "2026-04-22T21:34:21+00:00 node-07 kernel: NVRM: DBE\n",
             "", SourceKind::Kernel, "iso8601");
    sniffRow("ISO syslog daemons",
             "2023-06-22T21:55:31.352446+08:00 host sshd[12]: Accepted key\n"
             "2023-06-22T21:55:32.352446+08:00 host nvidia-persistenced[3]: started\n",
             "", SourceKind::Syslog, "iso8601");
}

/// Application, Slurm and Fabric Manager files.
void addAppSniffRows()
{
    sniffRow("NCCL app log",
             "node-02:4321:4400 [3] NCCL INFO Bootstrap : Using ib0:10.0.0.2<0>\n"
             "node-02:4321:4400 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer\n",
             "", SourceKind::App, "app", "application");
    sniffRow("PyTorch rank glog",
             "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective\n"
             "[rank0]:[E1206 18:44:12.765298746 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception\n",
             "", SourceKind::App, "app");
    sniffRow("torch elastic python logging",
             "[2024-05-08 08:47:31,261] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending SIGTERM\n"
             "[2024-05-08 08:47:31,877] torch.distributed.elastic.multiprocessing.api: [ERROR] failed\n",
             "", SourceKind::App, "app");
    sniffRow("python traceback",
             "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
             "RuntimeError: CUDA error: an illegal memory access was encountered\n",
             "", SourceKind::App, "app");
    sniffRow("mpirun tagged output", "[1,0]<stdout>:epoch 1\n[1,1]<stderr>:warning\n", "", SourceKind::App, "app");
    sniffRow("srun --label", " 0: step 100 loss 2.1\n 1: step 100 loss 2.2\n12: step 100 loss 2.0\n", "",
             SourceKind::App, "app");
    sniffRow("slurm job stderr",
             "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\nsrun: got SIGCONT\n"
             "slurmstepd-vm: error: *** JOB 6 ON vm CANCELLED AT 2026-11-29T08:46:57 ***\n"
             "srun: error: vm: task 0: Terminated\n",
             "cancel.err.txt", SourceKind::Slurm, "slurm-out", "srun/slurmstepd");
    sniffRow("job .out mixing app and srun lines",
             "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] Watchdog\n"
             "[rank1]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] Watchdog\n"
             "node-02:4321:4400 [3] NCCL WARN x\nsrun: error: node-02: task 3: Exited with exit code 1\n",
             "slurm-1234.out", SourceKind::Slurm, "slurm-out");
    sniffRow("banner only", "*** JOB 494583 ON n1 CANCELLED AT 2024-04-20T09:09:37 DUE TO TIME LIMIT ***\n", "",
             SourceKind::Slurm, "slurm-out");
    sniffRow("slurm daemon log",
             "[2026-11-29T08:46:38.003] slurmctld version 22.05.8 started on cluster ci\n"
             "[2026-11-29T08:46:38.020] error:  mpi/pmix_v4: init: can not load PMIx library\n",
             "slurmctld.log", SourceKind::Slurm, "slurm-daemon");
    sniffRow("slurm daemon log with an rfc3339 offset",
             "[2026-11-29T08:46:38+01:00] slurmd version 23.02.7 started\n"
             "[2026-11-29T08:46:39+01:00] error: Unable to register: Zero Bytes were transmitted or received\n",
             "slurmd.log", SourceKind::Slurm, "slurm-daemon");
    sniffRow("determined trial log (bracketed UTC microseconds: not slurm)",
             "[2024-02-29T17:27:44.291612Z] fa88a9df [rank=4] || [E ProcessGroupNCCL.cpp:475] [Rank 4] Watchdog "
             "caught collective operation timeout\n"
             "[2024-02-29T17:27:44.292017Z] fa88a9df [rank=3] || Traceback (most recent call last):\n",
             "trial-logs.txt", SourceKind::App, "app");
    sniffRow("fabric manager",
             "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034 on fid 0\n"
             "detected number of NVSwitches don't match with any supported system topology\n"
             "[Feb 25 2025 14:01:18] [INFO] [tid 1808] successfully setup multicast team\n",
             "", SourceKind::FabricManager, "fabricmanager");
}

/// Binary, empty, JSON, unrecognized content and path tie-breaks.
void addEdgeSniffRows()
{
    sniffRow("CRLF line endings", "[ 1.000000] a\r\n[ 2.000000] b\r\n", "", SourceKind::Kernel, "dmesg-raw");
    sniffRow("UTF-8 text is not binary", "[ 1.000000] gr\xc3\xbc\xc3\x9f \xe2\x9c\x93\n", "", SourceKind::Kernel,
             "dmesg-raw");
    sniffRow("NUL byte", QByteArray("[ 1.000000] a\n\0\0\0", 17), "", SourceKind::Unknown, "", "binary content");
    sniffRow("mostly control bytes",
             "\x01\x02\x03\x04\x05\x06\x07\x08"
             "abc\n",
             "", SourceKind::Unknown, "", "binary content");
    sniffRow("invalid UTF-8",
             "\xff\xfe\xfa\xfb\xfc\xfd\x80\x81\x82"
             "ab",
             "", SourceKind::Unknown, "", "binary content");
    sniffRow("empty", "", "", SourceKind::Unknown, "", "empty file");
    sniffRow("only whitespace", "\n\n   \r\n\t\n", "", SourceKind::Unknown, "", "empty file");
    sniffRow("json object", "{\"job\": {\"id\": 1}}\n", "workload.json", SourceKind::Text, "plain", "JSON");
    sniffRow("json lines", "{\"a\":1}\n{\"a\":2}\n", "", SourceKind::Text, "plain", "JSON");
    sniffRow("json array", "\n  [\n  {\"a\": 1}\n]\n", "", SourceKind::Text, "plain", "JSON");
    sniffRow("plain job output", "about to fail\ntask 0 on vm\ntask 1 on vm\n", "fail.out.txt", SourceKind::Text,
             "plain", "read as plain text");
    sniffRow("mixed forms", "[ 1.000000] a\n[ 2.000000] b\nDec  1 10:00:00 h kernel: c\nDec  1 10:00:01 h kernel: d\n",
             "", SourceKind::Text, "plain", "several formats");
    sniffRow("tie: path says dmesg", "[ 1.000000] a\n[rank0]:b\n", "node1/dmesg.txt", SourceKind::Kernel, "dmesg-raw");
    sniffRow("tie: path says rank log", "[ 1.000000] a\n[rank0]:b\n", "logs/rank0.log", SourceKind::App, "app");
    sniffRow("path alone does not decide", "[ 1.000000] a\n[ 2.000000] b\n[rank0]:c\n", "rank0.log", SourceKind::Kernel,
             "dmesg-raw");
}

}  // namespace

void TestLineFormat::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("path");
    QTest::addColumn<SourceKind>("kind");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("reason");
    addLogSniffRows();
    addAppSniffRows();
    addEdgeSniffRows();
}

void TestLineFormat::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, path);
    QFETCH(SourceKind, kind);
    QFETCH(QString, format);
    QFETCH(QString, reason);
    const Sniffed sniffed = sniff(view(head), path.toStdString());
    QCOMPARE(int(sniffed.kind), int(kind));
    QCOMPARE(QString::fromUtf8(toString(sniffed.format)), format);
    QVERIFY2(QString::fromStdString(sniffed.reason).contains(reason), sniffed.reason.c_str());
    QVERIFY(!sniffed.reason.empty());
}

void TestLineFormat::sniffLooksOnlyAtHead()
{
    const QByteArray head = repeatLines("[rank0]:hello", 50) + repeatLines("[ 1.000000] kernel", 100);
    const Sniffed sniffed = sniff(view(head), "");
    QCOMPARE(int(sniffed.kind), int(SourceKind::App));
    QVERIFY2(sniffed.reason.find("50 of 50") != std::string::npos, sniffed.reason.c_str());
}

void TestLineFormat::unknownFormatGetsPlainParser()
{
    for (const Format format : {Format::None, Format::JournalJson, Format::NvidiaSmiCsv}) {
        auto parser = makeParser(Sniffed{SourceKind::Unknown, format, "x"}, TimeHints{});
        QVERIFY(parser);
        ParsedLine parsed;
        QVERIFY(parser->parse("[ 1.000000] hello", parsed));
        QCOMPARE(str(parsed.text), QStringLiteral("[ 1.000000] hello"));
        QCOMPARE(parsed.time, NoTime);
        QCOMPARE(int(parsed.timeSource), int(TimeSource::None));
        QVERIFY(!parser->parse(std::string_view("\0\0", 2), parsed));
    }
}

void TestLineFormat::sniffThenParseSlurmSample()
{
    // cancel.err.txt of the real Slurm 22.05 samples.
    const QByteArray head = "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n"
                            "srun: got SIGCONT\n"
                            "slurmstepd-vm: error: *** JOB 6 ON vm CANCELLED AT 2026-11-29T08:46:57 ***\n"
                            "srun: forcing job termination\n"
                            "slurmstepd-vm: error: *** STEP 6.0 ON vm CANCELLED AT 2026-11-29T08:46:57 ***\n"
                            "srun: error: vm: task 0: Terminated\n";
    const Sniffed sniffed = sniff(view(head), "cancel.err.txt");
    QCOMPARE(QString::fromUtf8(toString(sniffed.format)), QStringLiteral("slurm-out"));
    auto parser = makeParser(sniffed, TimeHints{2026, NoTime});
    QStringList hosts;
    for (const auto& line : head.split('\n')) {
        ParsedLine parsed;
        QVERIFY(parser->parse(view(line), parsed));
        if (!parsed.host.empty())
            hosts << str(parsed.host);
    }
    QCOMPARE(hosts, QStringList({"vm", "vm", "vm"}));  // slurmstepd-vm twice, then `srun: error: vm: task 0`
}

void TestLineFormat::terminalCodesStripped_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QByteArray>("plain");
    QTest::newRow("none") << QByteArray("NCCL WARN Call to connect returned Connection refused")
                          << QByteArray("NCCL WARN Call to connect returned Connection refused");
    // Python 3.13's coloured traceback and a rich/loguru level tag
    QTest::newRow("sgr") << QByteArray("\x1b[1;35mOutOfMemoryError\x1b[0m: \x1b[35mCUDA out of memory.\x1b[0m")
                         << QByteArray("OutOfMemoryError: CUDA out of memory.");
    QTest::newRow("erase to end") << QByteArray("\x1b[2K\x1b[1G100%|##########| 10/10")
                                  << QByteArray("100%|##########| 10/10");
    QTest::newRow("osc hyperlink") << QByteArray("see \x1b]8;;https://x.org/a\x1b\\link\x1b]8;;\x07 here")
                                   << QByteArray("see link here");
    QTest::newRow("charset") << QByteArray("\x1b(Bplain\x1b[m") << QByteArray("plain");
    QTest::newRow("cut CSI at end") << QByteArray("text \x1b[0;3") << QByteArray("text ");
    QTest::newRow("lone ESC at end") << QByteArray("text\x1b") << QByteArray("text");
    QTest::newRow("unknown two-byte") << QByteArray("a\x1bMb") << QByteArray("ab");
}

void TestLineFormat::terminalCodesStripped()
{
    QFETCH(QByteArray, line);
    QFETCH(QByteArray, plain);
    std::string buffer;
    QCOMPARE(QByteArray::fromStdString(std::string(attrib::engine::stripTerminalCodes(view(line), buffer))), plain);
}

// A CI console keeps the colours of a stamped log: the lines still sniff as their form, not as plain text.
void TestLineFormat::colouredStampedLinesSniffedByTheirForm()
{
    const QByteArray head =
        "\x1b[32m2026-11-29 08:46:57.120\x1b[0m | \x1b[1mINFO    \x1b[0m | train:fit:88 - step 100\n"
        "\x1b[32m2026-11-29 08:46:58.007\x1b[0m | \x1b[31m\x1b[1mERROR   \x1b[0m | train:fit:91 - "
        "loss is nan\n";
    const QByteArray plain = "2026-11-29 08:46:57.120 | INFO    | train:fit:88 - step 100\n"
                             "2026-11-29 08:46:58.007 | ERROR   | train:fit:91 - loss is nan\n";
    QCOMPARE(QString::fromUtf8(toString(sniff(view(head), "train.log").format)),
             QString::fromUtf8(toString(sniff(view(plain), "train.log").format)));
}

QTEST_APPLESS_MAIN(TestLineFormat)
#include "tst_line_format.moc"
