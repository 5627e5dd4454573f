// SPDX-License-Identifier: GPL-3.0-or-later
// Any readable text is evidence: plain-text reading with per-line stamps and prefixes, dmesg -H / --reltime,
// journalctl -k, stampless `kernel:` lines, framework stamps, launcher prefixes, the node a line names for itself, and
// files whose first line is a 100 KiB progress bar.
#include "importer_test_util.h"

#include "importers/bundle.h"
#include "importers/timestamps.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using engine::NoTime;
using engine::SourceKind;
using engine::TimeSource;

namespace {

constexpr qint64 Ms = 1'000'000;

/// One line of a plain-text file and what the plain parser should make of it.
struct Line {
    const char* text;
    qint64 time;
    TimeSource source;
    const char* host;
    const char* body;
    int rank = -1;
    int gpu = -1;
};

QString str(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// Parses `lines` in order with one plain-text parser (year 2026) and compares every field.
void checkPlain(const std::vector<Line>& lines)
{
    auto parser = makeParser(Sniffed{SourceKind::Text, Format::Plain, {}}, TimeHints{2026, NoTime});
    for (const auto& l : lines) {
        ParsedLine parsed;
        QVERIFY2(parser->parse(l.text, parsed), l.text);
        QCOMPARE(str(parsed.text), QString::fromUtf8(l.body));
        QCOMPARE(parsed.time, l.time);
        QCOMPARE(int(parsed.timeSource), int(l.source));
        QCOMPARE(str(parsed.host), QString::fromUtf8(l.host));
        QCOMPARE(parsed.rank, l.rank);
        QCOMPARE(parsed.gpu, l.gpu);
    }
}

std::string progressBar(std::size_t bytes)
{
    std::string bar;
    for (int step = 0; bar.size() < bytes; ++step)
        bar += "\rEpoch 0:  " + std::to_string(step % 100) + "%|#####     | " + std::to_string(step) +
            "/100000 [00:01<00:10, 9.5it/s, loss=2.31]";
    return bar;
}

const char* const Xid79 =
    "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.";

}  // namespace

class TestPlainText : public QObject {
    Q_OBJECT

private slots:
    void sniffing_data();
    void sniffing();
    void dmesgHumanAndReltime();
    void dmesgIsoStamps();
    void journalctlAndSyslogWithoutYear();
    void kernelLinesWithoutStamp();
    void frameworkStamps();
    void launcherPrefixes();
    void nodeNamedByLine();
    void mixedFormsKeepEachLinesStamp();
    void carriageReturnSegmentsSplit();
    void hugeFirstLineDoesNotHideFile();
};

void TestPlainText::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("format");
    QTest::newRow("excerpt pasted into a ticket")
        << QByteArray("we saw this on the node before the job died:\n") + Xid79 + "\nthen it hung\n"
        << int(SourceKind::Text) << "plain";
    QTest::newRow("key: value tool output (ibstat), no exposition samples")
        << QByteArray("CA 'mlx4_0'\n\t\tState: Down\n\t\tRate: 10\n\t\tBase lid: 0\n\t\tLMC: 0\n\t\tSM lid: 0\n")
        << int(SourceKind::Text) << "plain";
    QTest::newRow("json of no known schema")
        << QByteArray("{\"x\": [1, 2], \"msg\": \"hello\"}\n") << int(SourceKind::Text) << "plain";
    QTest::newRow("dmesg -H") << QByteArray("[Dec 1 10:00] a\n[  +0.000123] b\n[  +1.5] c\n") << int(SourceKind::Kernel)
                              << "dmesg-reltime";
    QTest::newRow("kernel: lines") << QByteArray("kernel: a\nkernel: b\ngpu-n07 kernel: [ 1.5] c\n")
                                   << int(SourceKind::Kernel) << "kernel-bare";
    QTest::newRow("journalctl -k short")
        << QByteArray("Dec 01 10:00:00 gpu-n07 kernel: a\nDec 01 10:00:01 gpu-n07 kernel: b\n")
        << int(SourceKind::Kernel) << "rfc3164";
    QTest::newRow("journalctl -k short-iso")
        << QByteArray("2026-12-01T10:00:00+0000 gpu-n07 kernel: a\n2026-12-01T10:00:01+0000 gpu-n07 kernel: b\n")
        << int(SourceKind::Kernel) << "iso8601";
    QTest::newRow("dmesg --time-format iso")
        << QByteArray("2024-03-04T13:33:58,470412+01:00 amdgpu 0000:04:00.0: device lost from bus!\n"
                      "2024-03-04T13:33:59,000001+01:00 NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n")
        << int(SourceKind::Kernel) << "dmesg-iso";
    QTest::newRow("progress bar first line")
        << QByteArray::fromStdString(progressBar(std::size_t{100} * 1024) + "\n[rank0]:a\n[rank0]:b\n")
        << int(SourceKind::App) << "app";
}

void TestPlainText::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(int, kind);
    QFETCH(QString, format);
    const Sniffed sniffed = sniff(std::string_view(head.constData(), head.size()), "file.txt");
    QCOMPARE(QString::fromUtf8(toString(sniffed.format)), format);
    QCOMPARE(int(sniffed.kind), kind);
}

void TestPlainText::dmesgHumanAndReltime()
{
    const qint64 t0 = makeTime(2026, 12, 1, 10, 0, 0);
    checkPlain({{"[Dec 1 10:00] a", t0, TimeSource::YearInferred, "", "a"},
                {"[  +0.000123] b", t0 + 123'000, TimeSource::YearInferred, "", "b"},
                {"[<    +2.500000>] c", t0 + 2'500'123'000, TimeSource::YearInferred, "", "c"},
                {"[Dec10 11:30] d", makeTime(2026, 12, 10, 11, 30, 0), TimeSource::YearInferred, "", "d"}});
}

void TestPlainText::dmesgIsoStamps()
{
    // util-linux writes a comma before the fraction; the first word is the driver, not a host.
    checkPlain({{"2024-03-04T13:33:58,470412+01:00 amdgpu 0000:04:00.0: device lost from bus!",
                 makeTime(2024, 3, 4, 12, 33, 58) + 470'412'000, TimeSource::Absolute, "",
                 "amdgpu 0000:04:00.0: device lost from bus!"}});
    // Shortened stamps without host or tag read as a kernel log only in a file named one.
    const QByteArray shortened("2026-09-17T14:25:57Z amdgpu 0000:04:00.0: device lost from bus!\n"
                               "2026-09-17T14:26:37Z amdgpu 0000:04:00.0: ring sdma1 timeout\n");
    const std::string_view head(shortened.constData(), shortened.size());
    const Sniffed dmesg = sniff(head, "node-3/dmesg.txt");
    QCOMPARE(QString::fromUtf8(toString(dmesg.format)), QStringLiteral("dmesg-iso"));
    QCOMPARE(int(dmesg.kind), int(SourceKind::Kernel));
    QCOMPARE(int(sniff(head, "node-3/train.log").kind), int(SourceKind::App));
    auto parser = makeParser(dmesg, TimeHints{2026, NoTime});
    ParsedLine parsed;
    QVERIFY(parser->parse("2026-09-17T14:25:57Z amdgpu 0000:04:00.0: device lost from bus!", parsed));
    QCOMPARE(str(parsed.text), QStringLiteral("amdgpu 0000:04:00.0: device lost from bus!"));
    QCOMPARE(str(parsed.host), QString());
    QCOMPARE(parsed.time, makeTime(2026, 9, 17, 14, 25, 57));
}

void TestPlainText::journalctlAndSyslogWithoutYear()
{
    checkPlain(
        {{"Dec 01 10:00:00 gpu-n07 kernel: NVRM: x", makeTime(2026, 12, 1, 10, 0, 0), TimeSource::YearInferred,
          "gpu-n07", "NVRM: x"},
         {"Dec  1 10:00:00.250000 gpu-n07 kernel: y", makeTime(2026, 12, 1, 10, 0, 0) + 250 * Ms,
          TimeSource::YearInferred, "gpu-n07", "y"},
         {"2026-12-01T10:00:00+0100 gpu-n08 kernel: [ 12.5] z", makeTime(2026, 12, 1, 9, 0, 0), TimeSource::Absolute,
          "gpu-n08", "z"},
         // The kernel tag glued to its forwarded uptime (an rsyslog template without the space).
         {"2026-12-01T10:00:01+0100 gpu-n08 kernel:[ 12.6] NETDEV WATCHDOG: q", makeTime(2026, 12, 1, 9, 0, 1),
          TimeSource::Absolute, "gpu-n08", "NETDEV WATCHDOG: q"},
         {"Jan  2 00:00:01 gpu-n07 systemd[1]: w", makeTime(2027, 1, 2, 0, 0, 1), TimeSource::YearInferred, "gpu-n07",
          "systemd[1]: w"},
         // A wall(1) broadcast of syslogd whose host the poster redacted: no node.
         {"Mar 24 11:12:25 ...", makeTime(2027, 3, 24, 11, 12, 25), TimeSource::YearInferred, "", ""},
         // Written without a host (a forum paste of kern.log): the tag is not a node.
         {"Jan  2 00:00:02 kernel: NVRM: v", makeTime(2027, 1, 2, 0, 0, 2), TimeSource::YearInferred, "", "NVRM: v"},
         {"Jan  2 00:00:03 nvidia-persistenced[812]: u", makeTime(2027, 1, 2, 0, 0, 3), TimeSource::YearInferred, "",
          "nvidia-persistenced[812]: u"},
         // An application's own log (text-generation-launcher, Rust tracing): the level word is no host.
         {"2026-08-17T10:23:27.5Z ERROR text_generation_launcher: Shard 0 failed to start",
          makeTime(2026, 8, 17, 10, 23, 27) + 500 * Ms, TimeSource::Absolute, "",
          "ERROR text_generation_launcher: Shard 0 failed to start"},
         {"Jan  2 00:00:04 [warn] t: s", makeTime(2027, 1, 2, 0, 0, 4), TimeSource::YearInferred, "", "[warn] t: s"},
         // Go's log package (the device plugin, the container toolkit's hooks): year first, slashes, microseconds.
         {"2026/08/17 10:23:29.250000 Failed to initialize NVML: could not load NVML library",
          makeTime(2026, 8, 17, 10, 23, 29) + 250 * Ms, TimeSource::Absolute, "",
          "Failed to initialize NVML: could not load NVML library"},
         {"2026/08/17 10:23:30 main.go:42: shutting down", makeTime(2026, 8, 17, 10, 23, 30), TimeSource::Absolute, "",
          "main.go:42: shutting down"},
         // A console's field name and quoted value after the stamp (a SageMaker/CloudWatch view): no syslog host.
         {"2026-08-17T10:23:28.5Z ErrorMessage \"torch.cuda.OutOfMemoryError: x\"",
          makeTime(2026, 8, 17, 10, 23, 28) + 500 * Ms, TimeSource::Absolute, "",
          "ErrorMessage \"torch.cuda.OutOfMemoryError: x\""},
         // A stamp written with its time zone: the zone is no host (with or without a host after it).
         {"Jan  2 00:00:05 PDT gpu-n09 kernel: NVRM: t", makeTime(2027, 1, 2, 0, 0, 5), TimeSource::YearInferred,
          "gpu-n09", "NVRM: t"},
         {"Jan  2 00:00:06 CEST kernel: NVRM: r", makeTime(2027, 1, 2, 0, 0, 6), TimeSource::YearInferred, "",
          "NVRM: r"}});
}

void TestPlainText::kernelLinesWithoutStamp()
{
    checkPlain({{"kernel: NVRM: a", NoTime, TimeSource::None, "", "NVRM: a"},
                {"gpu-n07 kernel: [ 12.500000] b", 12'500'000'000, TimeSource::BootRelative, "gpu-n07", "b"},
                {"<3>kernel: c", NoTime, TimeSource::None, "", "c"}});
}

void TestPlainText::frameworkStamps()
{
    checkPlain(
        {{"2026-01-02 03:04:05,123 - root - ERROR - boom", makeTime(2026, 1, 2, 3, 4, 5) + 123 * Ms,
          TimeSource::Absolute, "", "- root - ERROR - boom"},
         {"I0102 03:04:05.500000  1234 foo.cc:12] glog", makeTime(2026, 1, 2, 3, 4, 5) + 500 * Ms,
          TimeSource::YearInferred, "", "foo.cc:12] glog"},
         {"2026-01-02T03:04:06.5Z iso", makeTime(2026, 1, 2, 3, 4, 6) + 500 * Ms, TimeSource::Absolute, "", "iso"},
         {"[2026-01-02 03:04:07,000] INFO py", makeTime(2026, 1, 2, 3, 4, 7), TimeSource::Absolute, "", "INFO py"},
         {"[E102 03:04:08.0 ProcessGroupNCCL.cpp:607] c10", makeTime(2026, 1, 2, 3, 4, 8), TimeSource::YearInferred, "",
          "ProcessGroupNCCL.cpp:607] c10"},
         // BMC event-log rows (ipmitool sel list, FreeIPMI ipmi-sel): their date and time columns, the row kept.
         {"   1 | 06/22/2021 | 10:24:13 | Power Supply #0x51 | Failure detected | Asserted",
          makeTime(2021, 6, 22, 10, 24, 13), TimeSource::Absolute, "",
          "   1 | 06/22/2021 | 10:24:13 | Power Supply #0x51 | Failure detected | Asserted"},
         {"57 | Oct-02-2025 | 03:11:47 | PS2 Status | Power Supply | Power Supply Failure detected",
          makeTime(2025, 10, 2, 3, 11, 47), TimeSource::Absolute, "",
          "57 | Oct-02-2025 | 03:11:47 | PS2 Status | Power Supply | Power Supply Failure detected"},
         {"1    | Feb-01-2023 | 10:01:11 | PS2 Status       | Power Supply        | Failure detected",
          makeTime(2023, 2, 1, 10, 1, 11), TimeSource::Absolute, "",
          "1    | Feb-01-2023 | 10:01:11 | PS2 Status       | Power Supply        | Failure detected"},
         {"   3 | Pre-Init  |  0000000012 | System Event #0x83 | Timestamp Clock Sync | Asserted", NoTime,
          TimeSource::None, "",
          "   3 | Pre-Init  |  0000000012 | System Event #0x83 | Timestamp Clock Sync | Asserted"},
         // submitit's Python logging format: the stamp in parentheses, the line kept.
         {"submitit WARNING (2022-07-12 04:18:45,706) - Bypassing signal SIGTERM",
          makeTime(2022, 7, 12, 4, 18, 45) + 706 * Ms, TimeSource::Absolute, "",
          "submitit WARNING (2022-07-12 04:18:45,706) - Bypassing signal SIGTERM"},
         {"root ERROR (no stamp) - x", NoTime, TimeSource::None, "", "root ERROR (no stamp) - x"},
         {"train step (2022-07-12 04:18:45,706) - x", NoTime, TimeSource::None, "",
          "train step (2022-07-12 04:18:45,706) - x"},
         // Slash dates: Python Rich's `[%x %X]` (C locale: month first, two-digit year), Spark's log4j `yy/MM/dd`
         // and a PBS daemon log's `;`-separated record, each kept whole; a first number over 12 is the day.
         {"[12/03/24 14:22:05] ERROR    Step failed", makeTime(2024, 12, 3, 14, 22, 5), TimeSource::Absolute, "",
          "[12/03/24 14:22:05] ERROR    Step failed"},
         {"21/01/15 18:40:27 WARN TaskSetManager: Lost task 8.0 in stage 3.0", makeTime(2021, 1, 15, 18, 40, 27),
          TimeSource::Absolute, "", "21/01/15 18:40:27 WARN TaskSetManager: Lost task 8.0 in stage 3.0"},
         {"06/18/2024 10:22:33;0008;PBS_Server.12345;Job;123.pbs;Exit_status=271", makeTime(2024, 6, 18, 10, 22, 33),
          TimeSource::Absolute, "", "06/18/2024 10:22:33;0008;PBS_Server.12345;Job;123.pbs;Exit_status=271"},
         {"18/06/2024 10:22:33.5 day first", makeTime(2024, 6, 18, 10, 22, 33) + 500 * Ms, TimeSource::Absolute, "",
          "18/06/2024 10:22:33.5 day first"},
         // TensorRT-LLM's Python logger (`datefmt='%m/%d/%Y-%H:%M:%S'`, tensorrt_llm/logger.py).
         {"[12/06/2026-10:11:12] [TRT-LLM] [E] Engine building failed", makeTime(2026, 12, 6, 10, 11, 12),
          TimeSource::Absolute, "", "[12/06/2026-10:11:12] [TRT-LLM] [E] Engine building failed"},
         {"06/18/2024 10:22:33x glued", NoTime, TimeSource::None, "", "06/18/2024 10:22:33x glued"},
         {"[06/18/2024 10:22:33 unclosed", NoTime, TimeSource::None, "", "[06/18/2024 10:22:33 unclosed"},
         {"13/13/2024 10:22:33 no such month", NoTime, TimeSource::None, "", "13/13/2024 10:22:33 no such month"},
         // UCX: Unix time, then `[host:pid:thread]` (not a dmesg uptime of 54 years).
         {"[1701292112.836497] [a670n1:162239:0]          ucp_ep.c:1508 UCX  DIAG  ep 0x7f1e: error",
          makeTime(2023, 11, 29, 21, 8, 32, 836497000), TimeSource::Absolute, "a670n1",
          "ucp_ep.c:1508 UCX  DIAG  ep 0x7f1e: error"}});
}

void TestPlainText::launcherPrefixes()
{
    checkPlain(
        {{"[rank3]: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 3},
         {"[rank5] RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 5},  // retyped, no colon
         // Ray's worker prefix, whatever the actor's name (ray#53407, #59522, #42652): its address names the node
         {"(ServeReplica:llms:LLMDeployment:qwen2_5-7b pid=40568, ip=10.233.118.22) TypeError: x", NoTime,
          TimeSource::None, "10.233.118.22", "TypeError: x"},
         {"(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=74562, ip=192.168.92.185) KeyError: 'text'", NoTime,
          TimeSource::None, "192.168.92.185", "KeyError: 'text'"},
         {"(RayTrainWorker pid=11904, ip=jwb0582i) [rank3]: RuntimeError: x", NoTime, TimeSource::None, "jwb0582i",
          "RuntimeError: x", 3},
         {"(RayWorker pid=1, ip=[fdbd:dccd::30f]) x", NoTime, TimeSource::None, "fdbd:dccd::30f", "x"},
         {"(pid=12) RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x"},
         {"(raylet) Task failed", NoTime, TimeSource::None, "", "(raylet) Task failed"},
         {"(MapWorker(x pid=1) y", NoTime, TimeSource::None, "", "(MapWorker(x pid=1) y"},
         {"[rank5]x", NoTime, TimeSource::None, "", "[rank5]x"},
         {"[1,2]<stderr>:RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 2},
         {"[default0]:RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x"},
         {" 7: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 7},
         {"[pod/trainer-worker-0/pytorch] RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x"},
         {"[default1]:[rank9]: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 9},
         // docker compose: the container name padded to the project's widest, then ` | ` (v2 `-1`, v1 `_1`)
         {"vllm-openai-1  | KeyError: 'x'", NoTime, TimeSource::None, "", "KeyError: 'x'"},
         {"proj_trainer_1   |   File \"t.py\", line 1", NoTime, TimeSource::None, "", "  File \"t.py\", line 1"},
         {"trainer-1  | [rank2]: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 2},
         // a table's first cell is no container: a device name with one underscore, a name without a replica
         {"mlx5_0 | ib0 |  0   |  init", NoTime, TimeSource::None, "", "mlx5_0 | ib0 |  0   |  init"},
         {"GPU0 | X | NV18", NoTime, TimeSource::None, "", "GPU0 | X | NV18"},
         // a runner's stream tag before a command's output; indentation after its space is the output's own
         {"[stderr] ModuleNotFoundError: No module named 'x'", NoTime, TimeSource::None, "",
          "ModuleNotFoundError: No module named 'x'"},
         {"[stdout]: [rank1]: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 1},
         {"[stderr]   File \"t.py\", line 1", NoTime, TimeSource::None, "", "  File \"t.py\", line 1"},
         // the tag right before the text, as a runner pasted it under a `[stderr]  File` frame (pytorch#77737)
         {"[stderr]ModuleNotFoundError: No module named 'x'", NoTime, TimeSource::None, "",
          "ModuleNotFoundError: No module named 'x'"},
         // mpirun output stamped by its collector, the stamp closed by a colon (NCCL issue 230)
         {"2019-06-02T16:13:44.884Z: [1,12]<stdout>:host-e275-01:815:864 [0] NCCL WARN x",
          makeTime(2019, 6, 2, 16, 13, 44) + 884 * Ms, TimeSource::Absolute, "host-e275-01",
          "host-e275-01:815:864 [0] NCCL WARN x", 12, 0},
         // a poster's words in Chinese or Japanese before the line they pasted; prose alone stays whole
         {"执行中报错：RuntimeError: Address already in use", NoTime, TimeSource::None, "",
          "RuntimeError: Address already in use"},
         {"エラー: [rank2]: torch.OutOfMemoryError: CUDA out of memory", NoTime, TimeSource::None, "",
          "torch.OutOfMemoryError: CUDA out of memory", 2},
         {"多机多卡训练，出现了错误", NoTime, TimeSource::None, "", "多机多卡训练，出现了错误"},
         {"错 RuntimeError: x", NoTime, TimeSource::None, "", "错 RuntimeError: x"}});
    // stern: a generated pod name and its container (the namespace first when it tails several), its `--timestamps`
    // stamp then read as the line's own; a sentence starting with an indexed name, a non-generated name and a
    // `kubectl get pods` row stay whole.
    checkPlain(
        {{"vllm-7d4f9c8b6-x2kq9 vllm RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x"},
         {"ml llm-0-1-q8k2n pytorch [rank2]: RuntimeError: x", NoTime, TimeSource::None, "", "RuntimeError: x", 2},
         {"job-5hz7m main 2025-03-04T10:11:12Z x", makeTime(2025, 3, 4, 10, 11, 12), TimeSource::Absolute, "", "x"},
         {"worker-0 crashed with x", NoTime, TimeSource::None, "", "worker-0 crashed with x"},
         {"job-abcde main RuntimeError: x", NoTime, TimeSource::None, "", "job-abcde main RuntimeError: x"},
         {"job-5hz7m   0/1     Error   0   5m", NoTime, TimeSource::None, "", "job-5hz7m   0/1     Error   0   5m"}});
}

void TestPlainText::nodeNamedByLine()
{
    checkPlain(
        {{"gpu-n07:4242:4300 [3] NCCL WARN NET/IB : Got completion with error 12", NoTime, TimeSource::None, "gpu-n07",
          "gpu-n07:4242:4300 [3] NCCL WARN NET/IB : Got completion with error 12", -1, 3},
         {"srun: error: gpu-n09: task 12: Exited with exit code 1", NoTime, TimeSource::None, "gpu-n09",
          "srun: error: gpu-n09: task 12: Exited with exit code 1"},
         {"[gpu-n11:31337] *** Process received signal ***", NoTime, TimeSource::None, "gpu-n11",
          "*** Process received signal ***"},
         {"10.1.2.3:11:12 [0] NCCL INFO ok", NoTime, TimeSource::None, "10.1.2.3", "10.1.2.3:11:12 [0] NCCL INFO ok",
          -1, 0},
         // a program's own `[file.cu:line]` source location is no Open MPI `[host:pid]`
         {"[rulebook.cu:273] (Error) CUDA Runtime error 209", NoTime, TimeSource::None, "",
          "[rulebook.cu:273] (Error) CUDA Runtime error 209"},
         {"[node07.cluster:4711] *** Process received signal ***", NoTime, TimeSource::None, "node07.cluster",
          "*** Process received signal ***"},
         // UCX pads the pid to five columns; its fatal errors' prefix stays for the rules to read
         {"[clx-orion-053:1869 :0] ib_iface.c:746 UCX ERROR send completion with error", NoTime, TimeSource::None,
          "clx-orion-053", "ib_iface.c:746 UCX ERROR send completion with error"},
         {"[gpu-n08:912  ] mpool.c:42 UCX WARN object was not returned", NoTime, TimeSource::None, "gpu-n08",
          "mpool.c:42 UCX WARN object was not returned"},
         // Open MPI pads a pid to five digits; DOCA's driver container stamps its lines `[%d-%b-%y_%H:%M:%S]`
         {"[binf316:04549] Signal: Aborted (6)", NoTime, TimeSource::None, "binf316", "Signal: Aborted (6)"},
         {"[21-Mar-25_03:03:09] Executing command: modprobe mlx5_ib", NoTime, TimeSource::None, "",
          "[21-Mar-25_03:03:09] Executing command: modprobe mlx5_ib"},
         {"[gpu-n07:48213:0:48213] Caught signal 11 (Segmentation fault)", NoTime, TimeSource::None, "",
          "[gpu-n07:48213:0:48213] Caught signal 11 (Segmentation fault)"},
         {"srun: error: Unable to create step", NoTime, TimeSource::None, "", "srun: error: Unable to create step"},
         {"srun: error: Node failure on gpu-n13", NoTime, TimeSource::None, "gpu-n13",
          "srun: error: Node failure on gpu-n13"},
         {"[proxy:0:1@gpu-n14] HYDU_sock_write: write error", NoTime, TimeSource::None, "gpu-n14",
          "HYDU_sock_write: write error"},
         // Intel MPI's bootstrap proxy names the host it runs on the same way (hydra_bstrap_proxy.c)
         {"[bstrap:0:-1@gpu-n16] HYD_sock_connect (hydra_sock_intel.c:207): unable to connect from \"gpu-n16\" to "
          "\"gpu-n01\" (No route to host)",
          NoTime, TimeSource::None, "gpu-n16",
          "HYD_sock_connect (hydra_sock_intel.c:207): unable to connect from \"gpu-n16\" to \"gpu-n01\" (No route to "
          "host)"},
         // pdsh / clush name the node they ran on; it wins over the machine's own name in an NCCL prefix
         {"node01: VM-0-14-centos:106:196 [0] transport/net_ib.cc:73 NCCL WARN NET/IB : Got async event : GID table "
          "change",
          NoTime, TimeSource::None, "node01",
          "VM-0-14-centos:106:196 [0] transport/net_ib.cc:73 NCCL WARN NET/IB : Got async event : GID table change", -1,
          0},
         {"gpu-n15: [rank3]: RuntimeError: x", NoTime, TimeSource::None, "gpu-n15", "RuntimeError: x", 3},
         // a hostfile that lists addresses: pdsh names the node by its IPv4 address; a port or a fifth number is no
         // host
         {"29.162.224.92: [rank30]: RuntimeError: x", NoTime, TimeSource::None, "29.162.224.92", "RuntimeError: x", 30},
         {"10.0.0.5:29500 connect failed", NoTime, TimeSource::None, "", "10.0.0.5:29500 connect failed"},
         {"10.0.0.256: x", NoTime, TimeSource::None, "", "10.0.0.256: x"},
         {"node02: Dec  1 10:00:00 gpu-n16 kernel: NVRM: x", makeTime(2026, 12, 1, 10, 0, 0), TimeSource::YearInferred,
          "node02", "NVRM: x"},
         {"ata1: SATA link up 6.0 Gbps", NoTime, TimeSource::None, "", "ata1: SATA link up 6.0 Gbps"},
         // device and daemon names that start kernel and Ceph lines (catalog cases `attrib rules test` reads as
         // analyze does): no pdsh hosts
         {"nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 10001, Fatal, Unexpected PRI error", NoTime, TimeSource::None, "",
          "nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 10001, Fatal, Unexpected PRI error"},
         {"rxe0: Port: 1 Link DOWN", NoTime, TimeSource::None, "", "rxe0: Port: 1 Link DOWN"},
         {"hermon0: CQE transport retry counter exceeded", NoTime, TimeSource::None, "",
          "hermon0: CQE transport retry counter exceeded"},
         {"mds0: Behind on trimming (73/30)", NoTime, TimeSource::None, "", "mds0: Behind on trimming (73/30)"},
         {"temp1:        +98.0 C  (crit = +97.0 C)", NoTime, TimeSource::None, "",
          "temp1:        +98.0 C  (crit = +97.0 C)"},
         {"in1:           0.00 V  (min =  +0.00 V, max =  +0.00 V)  ALARM", NoTime, TimeSource::None, "",
          "in1:           0.00 V  (min =  +0.00 V, max =  +0.00 V)  ALARM"},
         {"power1:       95.00 W  (interval =   1.00 s)", NoTime, TimeSource::None, "",
          "power1:       95.00 W  (interval =   1.00 s)"},
         {"3VSB:          +3.36 V  (min =  +2.98 V, max =  +3.63 V)", NoTime, TimeSource::None, "",
          "3VSB:          +3.36 V  (min =  +2.98 V, max =  +3.63 V)"},
         {"node07: 3VSB:  +3.36 V", NoTime, TimeSource::None, "node07", "3VSB:  +3.36 V"},
         {"s3fs: could not determine how to establish security credentials", NoTime, TimeSource::None, "",
          "s3fs: could not determine how to establish security credentials"},
         // programs whose names hold a digit, and flux's elapsed times: no pdsh hosts
         {"enroot-aufs2ovlfs: failed to set capabilities: Operation not permitted", NoTime, TimeSource::None, "",
          "enroot-aufs2ovlfs: failed to set capabilities: Operation not permitted"},
         {"python3: can't open file 'train.py'", NoTime, TimeSource::None, "", "python3: can't open file 'train.py'"},
         {"fusermount3: fuse device /dev/fuse not found. Kernel module not loaded?", NoTime, TimeSource::None, "",
          "fusermount3: fuse device /dev/fuse not found. Kernel module not loaded?"},
         {"flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi", NoTime,
          TimeSource::None, "",
          "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"},
         {"1.017s: job.exception type=timeout severity=0", NoTime, TimeSource::None, "",
          "1.017s: job.exception type=timeout severity=0"},
         {"Exception: x", NoTime, TimeSource::None, "", "Exception: x"},
         {"EC2InsufficientCapacityError: Instance type ml.g5.48xlarge is temporarily unavailable", NoTime,
          TimeSource::None, "",
          "EC2InsufficientCapacityError: Instance type ml.g5.48xlarge is temporarily unavailable"},
         // Ascend CANN error codes are no pdsh hosts (a host named like one still is)
         {"EJ0001: Failed to initialize the HCCP process.", NoTime, TimeSource::None, "",
          "EJ0001: Failed to initialize the HCCP process."},
         {"E39999: Inner Error!", NoTime, TimeSource::None, "", "E39999: Inner Error!"},
         {"EJ00012: x", NoTime, TimeSource::None, "EJ00012", "x"},
         // gcc's own program names are no pdsh hosts; its diagnostics keep their file:line:column
         {"cc1: some warnings being treated as errors", NoTime, TimeSource::None, "",
          "cc1: some warnings being treated as errors"},
         // a journal line pasted without its header starts with the systemd unit, no host
         {"session-3.scope: systemd-oomd killed 12 process(es) in this unit.", NoTime, TimeSource::None, "",
          "session-3.scope: systemd-oomd killed 12 process(es) in this unit."},
         // a camel-case program name is no pdsh host; a host in capitals still is
         {"MotionCor3: Util/CSimpleFuncs.cpp:211: Assertion `0' failed", NoTime, TimeSource::None, "",
          "MotionCor3: Util/CSimpleFuncs.cpp:211: Assertion `0' failed"},
         {"GPU-NODE07: x", NoTime, TimeSource::None, "GPU-NODE07", "x"},
         // glibc's failed assertion names its program, not a host; a host's own assertion line keeps the host
         {"yolov5: /home/u/yolov5.cpp:245: int main(): Assertion `engine != nullptr' failed.", NoTime, TimeSource::None,
          "", "yolov5: /home/u/yolov5.cpp:245: int main(): Assertion `engine != nullptr' failed."},
         {"node07: yolo: /src/y.cpp:9: f: Assertion `x' failed.", NoTime, TimeSource::None, "node07",
          "yolo: /src/y.cpp:9: f: Assertion `x' failed."},
         {"/var/lib/dkms/nvidia/580/build/nvidia/nv-caps.c:598:5: error: implicit declaration", NoTime,
          TimeSource::None, "", "/var/lib/dkms/nvidia/580/build/nvidia/nv-caps.c:598:5: error: implicit declaration"},
         // a tqdm bar's description (a run's name) is no pdsh host; a host's own bar still is
         {"lora_v1:   0%|          | 0/9000 [00:00<?, ?it/s]Error running job: x", NoTime, TimeSource::None, "",
          "lora_v1:   0%|          | 0/9000 [00:00<?, ?it/s]Error running job: x"},
         {"node07: epoch 1:  45%|####5     | 9/20", NoTime, TimeSource::None, "node07",
          "epoch 1:  45%|####5     | 9/20"},
         // a Python exception's qualified name is no pdsh host
         {"boto3.exceptions.S3UploadFailedError: Failed to upload a to b", NoTime, TimeSource::None, "",
          "boto3.exceptions.S3UploadFailedError: Failed to upload a to b"},
         {"mpi4py.MPI.Exception: MPI_ERR_UNKNOWN: unknown error", NoTime, TimeSource::None, "",
          "mpi4py.MPI.Exception: MPI_ERR_UNKNOWN: unknown error"},
         {"gpu-n20.cluster.local: x", NoTime, TimeSource::None, "gpu-n20.cluster.local", "x"},
         // a kernel line quoted in an alert or a ticket
         {"Xid errors on instance: gpu-n19, Error: Dec  1 10:00:03 gpu-n19 kernel: [257087.812628] NVRM: Xid 64",
          makeTime(2026, 12, 1, 10, 0, 3), TimeSource::YearInferred, "gpu-n19", "NVRM: Xid 64"},
         // grep over several files: `file:line` as grep found it
         {"messages:Dec  1 10:00:01 gpu-n17 kernel: NVRM: y", makeTime(2026, 12, 1, 10, 0, 1), TimeSource::YearInferred,
          "gpu-n17", "NVRM: y"},
         {"messages-20261201:12:Dec  1 10:00:02 gpu-n18 kernel: NVRM: z", makeTime(2026, 12, 1, 10, 0, 2),
          TimeSource::YearInferred, "gpu-n18", "NVRM: z"}});
    QCOMPARE(shortHost("10.1.2.3"), std::string("10.1.2.3"));
    QCOMPARE(shortHost("GPU-N07.cluster.local"), std::string("gpu-n07"));
    QCOMPARE(shortHost("fe80::1"), std::string("fe80::1"));
    QCOMPARE(shortHost("node-1a.example"), std::string("node-1a"));
    QCOMPARE(shortHost("-worker-1"), std::string());  // the tail of a truncated name is no node
    for (const char* placeholder :
         {"<cluster_name>", "{hostname}", "***", "node-xxx", "XxX.example.com", "ip-xx-xx-x-xx", "gpu-REDACTED",
          "HOSTNAME", "hostname", "PRIVATE_IP", "MASTER_ADDR", "...", "xx.xx.xx.xx", "x.x.x.x", "[HOST]", "[node]"})
        QCOMPARE(shortHost(placeholder), std::string());  // a poster's redaction names no node
    for (const char* name : {"login-node", "head-node", "DESKTOP-QWERTY", "host", "NODE7", "hostname-1"})
        QVERIFY(!shortHost(name).empty());  // words that only look like placeholders are real names
    QCOMPARE(shortHost("box-7"), std::string("box-7"));
    QCOMPARE(shortHost("xx-n1"), std::string("xx-n1"));
    QCOMPARE(shortHost("222"), std::string());  // a bare number is no host name (RFC 1123) and no address
}

void TestPlainText::mixedFormsKeepEachLinesStamp()
{
    const std::string text = std::string("notes from the on-call engineer\n") + "[Tue Dec  1 10:00:00 2026] NVRM: a\n" +
        "Dec  1 10:00:01 gpu-n07 kernel: b\n" + "[2026-12-01 10:00:02,000] ERROR c\n" + "no stamp here\n" +
        "[Dec 1 10:01] d\n" + "[  +0.5] e\n";
    const auto read = tests::readAll(text, "notes.txt");
    QCOMPARE(QString::fromUtf8(toString(read.sniffed.format)), QStringLiteral("plain"));
    QCOMPARE(read.records.size(), std::size_t(7));
    const qint64 t0 = makeTime(2026, 12, 1, 10, 0, 0);
    QCOMPARE(read.records[0].time, NoTime);
    QCOMPARE(read.records[1].time, t0);
    QCOMPARE(read.records[2].time, t0 + 1'000'000'000);
    QCOMPARE(QString::fromStdString(read.records[2].host), QStringLiteral("gpu-n07"));
    QCOMPARE(read.records[3].time, t0 + 2'000'000'000);
    QCOMPARE(read.records[4].time, NoTime);
    QCOMPARE(read.records[5].time, t0 + 60'000'000'000);
    QCOMPARE(read.records[6].time, t0 + 60'500'000'000);
    QCOMPARE(QString::fromStdString(read.records[6].text), QStringLiteral("e"));
}

void TestPlainText::carriageReturnSegmentsSplit()
{
    const std::string text = "[rank0]:start\n\r 10%|#| 1/10\r 20%|##| 2/10\r100%|####| 10/10\n[rank0]:done\r\n";
    const auto read = tests::readAll(text, "rank0.log");
    QStringList texts;
    for (const auto& r : read.records)
        texts << QString::fromStdString(r.text);
    QCOMPARE(texts, QStringList({"start", " 10%|#| 1/10", " 20%|##| 2/10", "100%|####| 10/10", "done"}));
    QCOMPARE(read.records[2].line, std::uint64_t(2));  // segments keep the physical line number
    QCOMPARE(read.records[2].offset, std::uint64_t(text.find(" 20%")));
    QCOMPARE(read.records[4].line, std::uint64_t(3));
}

void TestPlainText::hugeFirstLineDoesNotHideFile()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    const std::string oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                            "total capacity of 79.15 GiB of which 1.06 GiB is free.";
    tests::writeFile(root / "nodes/gpu-n03/rank-5.log",
                     progressBar(std::size_t{100} * 1024) + "\n[rank5]: " + oom + "\n");
    std::string noBreaks(std::size_t{100} * 1024,
                         '=');  // a first line without any `\r`: still read, as plain text at worst
    tests::writeFile(root / "nodes/gpu-n03/rank-6.log", noBreaks + "\n" + oom + "\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    for (const char* path : {"nodes/gpu-n03/rank-5.log", "nodes/gpu-n03/rank-6.log"}) {
        const auto* cov = tests::fileCoverage(*outcome.result, path);
        QVERIFY(cov);
        QVERIFY2(cov->status != engine::CoverageStatus::Skipped, path);
        QVERIFY(cov->kind != SourceKind::Unknown);
    }
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("oom"));
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n03"));
}

QTEST_APPLESS_MAIN(TestPlainText)
#include "tst_plain_text.moc"
