// SPDX-License-Identifier: GPL-3.0-or-later
// Any readable text is evidence, at the level of a bundle: an excerpt without a nodes folder, metadata and notes,
// kernel lines inside an application log and application output inside the journal, a context line naming the
// device, pasted text after kernel lines, the innermost lines of a traceback, a later line deciding a record, and
// glog's source location.
#include "importer_test_util.h"

#include "engine/report.h"
#include "importers/bundle.h"
#include "importers/pasted_text.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using engine::NoTime;
using engine::SourceKind;

namespace {

QString str(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

const char* const Xid79 =
    "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.";

}  // namespace

class TestPlainTextBundles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void excerptWithoutNodesFolder();
    void metadataIsNeitherEvidenceNorSkipped();
    void notesWithoutACaseAreEvidence();
    void kernelLinesInsideAnApplicationLog();
    void applicationOutputInTheJournal();
    void journalInAnotherLocale();
    void aFaultOfSeveralNodesNamesThem();
    void colouredLinesReadWithoutTheirCodes();
    void quotedLinesReadWithoutTheirMarkers();
    void retypedLinesReadAsTheProgramWroteThem();
    void dmesgLinesAmongApplicationLines();
    void contextLineNamesTheDevice();
    void pastedTextAfterKernelLinesIsItsOwnRecord();
    void tracebackInnermostLinesReachTheRules();
    void laterLineDecidesTheRecord();
    void glogSourceLocationReachesTheRules();
};

void TestPlainTextBundles::excerptWithoutNodesFolder()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "ticket.txt",
                     std::string("Pasted from the node:\n") + "gpu-n21 kernel: " + Xid79 + "\n" +
                         "gpu-n21 kernel: NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n" +
                         "and from the job output:\n" +
                         "gpu-n04:811:902 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.21<55012> with "
                         "error 12, opcode 0, len 0, vendor err 129 (Recv)\n" +
                         "srun: error: gpu-n04: task 9: Exited with exit code 1\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto* cov = tests::fileCoverage(*outcome.result, "ticket.txt");
    QVERIFY(cov);
    QCOMPARE(int(cov->kind), int(SourceKind::Text));
    QCOMPARE(int(cov->status), int(engine::CoverageStatus::Ok));
    QVERIFY(!cov->errors.empty());
    QVERIFY2(cov->errors.front().find("read as plain text: 6 lines") != std::string::npos, cov->errors[0].c_str());
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n21"));
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("gpu"));
}

void TestPlainTextBundles::metadataIsNeitherEvidenceNorSkipped()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "SOURCE", std::string("https://example.org/thread/1 ") + Xid79 + "\n");
    tests::writeFile(root / "README.md", std::string("# Case\n") + Xid79 + "\n");
    tests::writeFile(root / "expected.json", "{\"terminal_state\": \"unknown\"}\n");
    tests::writeFile(root / "job.log", "nothing interesting happened\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    for (const auto& f : outcome.result->fileCoverage) {
        QVERIFY2(f.status != engine::CoverageStatus::Skipped, f.path.c_str());
        QVERIFY2(f.errors.empty() || f.path == "job.log", f.path.c_str());
        QCOMPARE(f.role, f.path == "job.log" ? engine::FileRole::Evidence : engine::FileRole::Metadata);
    }
    QVERIFY(outcome.result->symptoms.empty());
    for (const auto& c : outcome.result->coverage)
        QVERIFY(c.status != engine::CoverageStatus::Skipped);
}

void TestPlainTextBundles::notesWithoutACaseAreEvidence()
{
    // A user's bundle (no expected.json): the README holding the pasted log is evidence.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "README.md", std::string("# What happened on gpu-n21\n") + Xid79 + "\n");
    tests::writeFile(root / "job.log", "nothing interesting happened\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    for (const auto& f : outcome.result->fileCoverage)
        QCOMPARE(f.role, engine::FileRole::Evidence);
    QVERIFY(!outcome.result->symptoms.empty());
}

void TestPlainTextBundles::kernelLinesInsideAnApplicationLog()
{
    auto parser = makeParser(Sniffed{SourceKind::App, Format::App, {}}, TimeHints{2026, NoTime});
    struct Case {
        const char* line;
        SourceKind kind;
        const char* host;
        const char* body;
    };
    const std::vector<Case> cases = {
        {"2016-05-20 10:22:31 +0000 UTC kern.alert kernel: BUG: unable to handle kernel NULL pointer dereference",
         SourceKind::Kernel, "", "BUG: unable to handle kernel NULL pointer dereference"},
        {"2026-03-01T10:00:00Z gpu-n07 kernel: [ 12.500000] NVRM: Xid 79", SourceKind::Kernel, "gpu-n07",
         "NVRM: Xid 79"},
        {"kernel: NVRM: a", SourceKind::Kernel, "", "NVRM: a"},
        {"daemon.err gpu-n07 kernel: c", SourceKind::Kernel, "gpu-n07", "c"},
        {"CUDA kernel: launch failed", SourceKind::Unknown, "", "CUDA kernel: launch failed"},
        {"2026-03-01 10:00:00,123 INFO step 5 loss 2.1", SourceKind::Unknown, "", "INFO step 5 loss 2.1"},
    };
    for (const auto& c : cases) {
        ParsedLine parsed;
        QVERIFY2(parser->parse(c.line, parsed), c.line);
        QCOMPARE(int(parsed.kind), int(c.kind));
        QCOMPARE(str(parsed.host), QString::fromUtf8(c.host));
        QCOMPARE(str(parsed.text), QString::fromUtf8(c.body));
    }

    // End to end: the kernel extractors read the pasted kernel lines of a file the sniffer calls an app log.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "nodes" / "gpu-n21" / "train.log",
                     std::string("2026-03-01 10:00:00,100 INFO step 1 loss 2.3\n") +
                         "2026-03-01 10:00:01 +0000 UTC kern.err kernel: " + Xid79 + "\n" +
                         "2026-03-01 10:00:02,100 INFO step 2 loss 2.2\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("gpu"));
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n21"));
}

/// A service or a job run under systemd writes its stdout to the journal: those syslog lines (a program other than
/// the kernel) are read by the extractors written for application output.
void TestPlainTextBundles::applicationOutputInTheJournal()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "nodes" / "gpu-n22" / "syslog",
                     "Mar  1 10:00:00 gpu-n22 systemd[1]: Started vllm.service - vLLM server.\n"
                     "Mar  1 10:00:05 gpu-n22 vllm[4242]: ValueError: Bfloat16 is only supported on GPUs with compute "
                     "capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 "
                     "instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.\n"
                     "Mar  1 10:00:06 gpu-n22 systemd[1]: vllm.service: Main process exited, code=exited, "
                     "status=1/FAILURE\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("configuration"));
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n22"));
}

void TestPlainTextBundles::journalInAnotherLocale()
{
    // journalctl prints strftime's %b in the machine's locale: a French journal reads `nov. 11`. Its lines are
    // syslog lines all the same: the host and the time come from the header, and the kernel's Xid names its node.
    const auto outcome = tests::analyzeOneFile(
        "journal.txt",
        "nov. 11 20:28:56 gpu-n07 kernel: thermal_sys: Registered thermal governor 'step_wise'\n"
        "nov. 11 20:29:02 gpu-n07 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n"
        "d\xc3\xa9"
        "c. 02 08:00:00 gpu-n07 systemd[1]: Started nvidia-persistenced.service.\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n07"));
    QVERIFY(outcome.result->verdict.rootCause->time != engine::NoTime);
    const auto* cov = tests::fileCoverage(*outcome.result, "journal.txt");
    QVERIFY(cov);
    QVERIFY(cov->kind != SourceKind::Text);
    QCOMPARE(cov->skipped, std::uint64_t(0));
}

// A job log captured from a coloured terminal or CI console: the escape codes would hide NCCL's prefix (host,
// GPU) and stay in the summary; the lines are read without them and coverage says so.
void TestPlainTextBundles::quotedLinesReadWithoutTheirMarkers()
{
    // A ticket quoting the job's output and the node's dmesg the way mail clients and issue trackers do.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "ticket.md",
                     std::string("Hi team, our job died last night. Here is what I see:\n\n") +
                         "> [rank3]: torch.distributed.DistBackendError: NCCL error in: "
                         "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error\n" +
                         "> gpu-n04:811:902 [1] NCCL WARN Cuda failure 'an illegal memory access was encountered'\n" +
                         ">\n" + "and dmesg on gpu-n21:\n" + "```\n" + ">> [Mon Dec  1 10:11:12 2026] " + Xid79 + "\n" +
                         "```\n" + ">not a quote marker: kept\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto* cov = tests::fileCoverage(*outcome.result, "ticket.md");
    QVERIFY(cov);
    bool fact = false;
    for (const auto& e : cov->errors)
        fact = fact || e.find("4 lines read without the quote markers (>) before them") != std::string::npos;
    QVERIFY(fact);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("gpu"));
    const auto* nccl = tests::findSymptom(*outcome.result, "app_cuda_kernel_fault@gpu-n04/gpu1");
    QVERIFY2(nccl, "the NCCL prefix behind the quote marker names the node and GPU");
    QCOMPARE(std::string(stripQuoteMarkers(">not a quote marker: kept")), std::string(">not a quote marker: kept"));
    QCOMPARE(std::string(stripQuoteMarkers("  > > nested")), std::string("nested"));
    QCOMPARE(std::string(stripQuoteMarkers(">>> import torch")), std::string(">>> import torch"));  // Python's prompt
    QCOMPARE(std::string(stripQuoteMarkers(">> >>> import torch")), std::string(">>> import torch"));
}

void TestPlainTextBundles::retypedLinesReadAsTheProgramWroteThem()
{
    // The same lines copied from a rendered web page and a chat client: no-break spaces, HTML entities, curly
    // quotes; a line with none of them is read untouched.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "from-the-forum.txt",
                     std::string("gpu-n04:811:902\xc2\xa0[1] NCCL WARN Cuda failure &#39;an illegal memory access was "
                                 "encountered&#39;\n") +
                         "[rank3]:\xc2\xa0RuntimeError: CUDA error: an illegal memory access was encountered\n" +
                         "srun: error: gpu-n04: task 9: Exited with exit code 1\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto* nccl = tests::findSymptom(*outcome.result, "app_cuda_kernel_fault@gpu-n04/gpu1");
    QVERIFY2(nccl, "the NCCL prefix behind a no-break space names the node and GPU");
    QVERIFY(!nccl->evidence.empty());
    const auto* obs = outcome.result->observation(nccl->evidence.front());
    QVERIFY(obs);
    QVERIFY2(str(obs->text).contains(QStringLiteral("Cuda failure 'an illegal memory")), obs->text.c_str());
    const auto* cov = tests::fileCoverage(*outcome.result, "from-the-forum.txt");
    QVERIFY(cov);
    const bool noted = std::any_of(cov->errors.begin(), cov->errors.end(), [](const std::string& e) {
        return e.find("2 lines read with no-break spaces, curly quotes or HTML entities as plain characters") !=
            std::string::npos;
    });
    QVERIFY(noted);

    std::string buffer;
    const std::string_view plain = "NCCL WARN Call to connect returned Connection refused";
    QCOMPARE(detail::plainTypography(plain, buffer).data(), plain.data());  // nothing retyped: the line itself
    QCOMPARE(std::string(detail::plainTypography("\xe2\x80\x9cNCCL_SOCKET_IFNAME\xe2\x80\x9d isn\xe2\x80\x99t "
                                                 "set\xe2\x80\xa6",
                                                 buffer)),
             std::string("\"NCCL_SOCKET_IFNAME\" isn't set..."));
    QCOMPARE(std::string(detail::plainTypography("a &lt;b&gt; &amp;quot; &foo; & c", buffer)),
             std::string("a <b> &quot; &foo; & c"));  // one level of escaping; unknown entities kept
    QCOMPARE(std::string(detail::plainTypography("\xef\xbb\xbfx\xe2\x80\x8by \xe2\x80\x94 z\xe2\x80\x93w", buffer)),
             std::string("xy \xe2\x80\x94 z-w"));  // an em dash may stand for one or two hyphens: kept
}

void TestPlainTextBundles::dmesgLinesAmongApplicationLines()
{
    // Lines of an application log (its form decides the file's) with dmesg lines pasted among them.
    auto parser = makeParser(Sniffed{SourceKind::App, Format::App, {}}, TimeHints{2026, NoTime});
    const std::string humanLine = std::string("[Mon Dec  1 10:11:12 2026] ") + Xid79;
    const std::string uptimeLine = std::string("[ 1234.567890] ") + Xid79;
    ParsedLine humanStamp;
    QVERIFY(parser->parse(humanLine, humanStamp));
    QCOMPARE(int(humanStamp.kind), int(SourceKind::Kernel));
    QCOMPARE(str(humanStamp.text), QString::fromUtf8(Xid79));
    QVERIFY(humanStamp.time != NoTime);
    ParsedLine uptime;
    QVERIFY(parser->parse(uptimeLine, uptime));
    QCOMPARE(int(uptime.kind), int(SourceKind::Kernel));
    QCOMPARE(str(uptime.text), QString::fromUtf8(Xid79));
    QCOMPARE(uptime.uptime, engine::TimeNs(1234567890000));
    ParsedLine elapsed;  // an application's own elapsed-time bracket
    QVERIFY(parser->parse("[ 12.5] step 3 done", elapsed));
    QCOMPARE(int(elapsed.kind), int(SourceKind::Unknown));
    QCOMPARE(str(elapsed.text), QStringLiteral("[ 12.5] step 3 done"));
}

void TestPlainTextBundles::colouredLinesReadWithoutTheirCodes()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "job.out",
                     std::string("\x1b[33mgpu-n04:811:902 [1] NCCL WARN NET/IB : Got completion from peer "
                                 "10.0.0.21<55012> with error 12, opcode 0, len 0, vendor err 129 (Recv)\x1b[0m\n") +
                         "\x1b[31msrun: error: gpu-n04: task 9: Exited with exit code 1\x1b[0m\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& verdict = outcome.result->verdict;
    QVERIFY(verdict.rootCause);
    QCOMPARE(QString::fromStdString(verdict.rootCause->node), QStringLiteral("gpu-n04"));
    QCOMPARE(verdict.rootCause->gpu, 1);
    QVERIFY2(verdict.rootCause->summary.find('\x1b') == std::string::npos, verdict.rootCause->summary.c_str());
    const auto* cov = tests::fileCoverage(*outcome.result, "job.out");
    QVERIFY(cov);
    QCOMPARE(int(cov->status), int(engine::CoverageStatus::Ok));
    const bool noted = std::any_of(cov->errors.begin(), cov->errors.end(), [](const std::string& e) {
        return e.find("2 lines read without their terminal colour codes") != std::string::npos;
    });
    QVERIFY(noted);
}

void TestPlainTextBundles::aFaultOfSeveralNodesNamesThem()
{
    // The same configuration fault on two nodes at once is the cluster's (JobWideBreadth): the symptom has no node of
    // its own, and its summary, action and report line name the nodes that reported it instead of sending the engineer
    // to find "the node that logged this first".
    const auto outcome = tests::analyzeOneFile(
        "slurmctld.log",
        "[2025-01-14T08:12:55.101] error: Setting node dgx-07 state to INVAL with reason:gres/gpu:a100 count too low "
        "(2 < 4)\n"
        "[2025-01-14T08:12:56.204] error: Setting node dgx-08 state to INVAL with reason:gres/gpu:a100 count too low "
        "(2 < 4)\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& v = outcome.result->verdict;
    QVERIFY(v.rootCause);
    QCOMPARE(QString::fromStdString(v.rootCause->symptom), QStringLiteral("slurm_gres_count_low"));
    QVERIFY(v.rootCause->node.empty());
    QVERIFY2(v.rootCause->summary.find("dgx-07,dgx-08") != std::string::npos, v.rootCause->summary.c_str());
    QVERIFY2(v.action.action.rfind("on dgx-07,dgx-08", 0) == 0, v.action.action.c_str());
    const std::string text = engine::reportText(*outcome.result);
    QVERIFY2(text.find("slurm_gres_count_low on dgx-07,dgx-08") != std::string::npos, text.c_str());
}

void TestPlainTextBundles::contextLineNamesTheDevice()
{
    // ibstat prints the device once, in its `CA '...'` header; the port blocks below it do not repeat it. The port
    // rule reads the header as its context: the Polling port is named after the device above it (the next device's
    // active port, 11 lines on, is another rail and does not cancel it), the second device's header names nothing it
    // did not print, and a port state too far below any header is not read: which port it is cannot be told.
    const auto device = [](const char* name, const char* state, const char* physical) {
        return std::string("CA '") + name +
            "'\n\tCA type: MT4123\n\tNumber of ports: 1\n\tFirmware version: 20.28.1002\n" +
            "\tNode GUID: 0x0c42a10300a1b2c3\n\tPort 1:\n\t\tState: " + state + "\n\t\tPhysical state: " + physical +
            "\n\t\tRate: 200\n\t\tBase lid: 12\n\t\tSM lid: 1\n\t\tLink layer: InfiniBand\n";
    };
    std::string text = device("mlx4_0", "Down", "Polling") + device("mlx4_1", "Active", "LinkUp");
    for (int i = 0; i < 30; ++i)
        text += "\tnote line " + std::to_string(i) + " of a long paste\n";
    text += "\t\tPhysical state: LinkErrorRecovery\n";
    const auto outcome = tests::analyzeOneFile("ibstat.txt", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> hcas;
    for (const auto& e : outcome.result->events)
        if (e.rule == "ib_port_physical_down")
            hcas.push_back(e.attrs.count("hca") ? e.attrs.find("hca")->second : std::string("-"));
    QCOMPARE(hcas.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(hcas[0]), QStringLiteral("mlx4_0"));
}

void TestPlainTextBundles::pastedTextAfterKernelLinesIsItsOwnRecord()
{
    // The kernel stamps every line: an unstamped line after a dmesg record that is neither indented nor the rest
    // of a wrapped line is pasted text (another tool's output), not part of the record, and every rule reads it as
    // plain text.
    const auto outcome = tests::analyzeOneFile(
        "dmesg.txt",
        "[ 1843.308145] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n"
        "[ 1843.400000] NVRM: Xid (PCI:0000:3b:00): 94, pid=0, Contained ECC error\n"
        "     with its detail on the next line\n"
        "[ 1843.500000] NVRM: Xid (PCI:0000:3b:00): 63, pid=0, Row remapping event: Row Remapper Err\n"
        "or\n"
        "[ 1843.600000] NVRM: Xid (PCI:0000:3b:00): 63, pid=0, Row remapping event: Row Remapper Error\n"
        "boto3.exceptions.S3UploadFailedError: Failed to upload a to b: An error occurred (ExpiredToken)\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> texts;
    for (const auto& o : outcome.result->observations)
        texts.push_back(o.text);
    QCOMPARE(texts.size(), std::size_t(5));
    QCOMPARE(
        QString::fromStdString(texts[1]),
        QStringLiteral("NVRM: Xid (PCI:0000:3b:00): 94, pid=0, Contained ECC error with its detail on the next line"));
    // A terminal wrap (a wide line, then a piece with no prefix and no `name:`) is glued back.
    QVERIFY(texts[2].find("Row Remapper Error") != std::string::npos);
    QVERIFY(texts[4].rfind("boto3.exceptions.S3UploadFailedError: ", 0) == 0);
    QCOMPARE(outcome.result->observations[4].kind, SourceKind::Text);
    QCOMPARE(QString::fromStdString(outcome.result->observations[4].node), QString());
}

void TestPlainTextBundles::tracebackInnermostLinesReachTheRules()
{
    // A traceback is one record whose text is its exception line; its innermost frames and source lines are
    // matched too: here only the source line tells that the ENOSPC came from a POSIX semaphore in /dev/shm.
    const auto outcome = tests::analyzeOneFile(
        "stderr.log",
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.8/multiprocessing/context.py\", line 73, in RLock\n"
        "    return RLock(ctx=self.get_context())\n"
        "  File \"/usr/local/lib/python3.8/multiprocessing/synchronize.py\", line 57, in __init__\n"
        "    sl = self._semlock = _multiprocessing.SemLock(\n"
        "OSError: [Errno 28] No space left on device\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QCOMPARE(outcome.result->observations.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(outcome.result->observations[0].text),
             QStringLiteral("OSError: [Errno 28] No space left on device"));
    std::vector<std::string> rules;
    for (const auto& e : outcome.result->events)
        rules.push_back(e.rule);
    QVERIFY(std::count(rules.begin(), rules.end(), std::string("multiprocessing_semlock_failed")) == 1);
}

void TestPlainTextBundles::laterLineDecidesTheRecord()
{
    // ParameterServerStrategy names the task its function registration failed on only on the next line: the rule
    // holds the line until then, and keeps it for a parameter server (its own line's place and time, the target
    // from the next line), not for a worker, nor at the end of the file. The TF1 master's waiting line counts only
    // when no session start follows it. Lines from tensorflow#57760 and tensorflow/benchmarks#65.
    const std::string reg = "E tensorflow/core/common_runtime/eager/context.cc:856] Failed to register function "
                            "remotely due to failed to connect to all addresses\n";
    const std::string closed = "E tensorflow/core/common_runtime/eager/context.cc:856] Failed to register function "
                               "remotely due to Socket closed\n";  // lines of one length in a row read as wrapped
    const std::string wait = "I tensorflow/core/distributed_runtime/master.cc:221] CreateSession still waiting for "
                             "response from worker: /job:ps/replica:0/task:";
    const std::string text = "2022-09-20 09:52:30.120000: " + wait + "0\n" +  // 1: a session start follows: none
        "2022-09-20 09:52:30.130000: I tensorflow/core/distributed_runtime/master_session.cc:1192] Start master "
        "session c7c32c7347c2385f with config: intra_op_parallelism_threads: 1\n" +
        "2022-09-20 09:52:31.126506: " + reg +                                                    // 3: kept
        "Additional GRPC error information from remote target /job:ps/replica:0/task:0:\n" +      // 4
        "This could happen if the remote target has been disconnected from the client.\n" +       // 5
        "2022-09-20 09:52:31.136138: " + closed +                                                 // 6: a worker
        "Additional GRPC error information from remote target /job:worker/replica:0/task:1:\n" +  // 7
        "2022-09-20 09:52:41.000000: " + wait + "1\n" +                                           // 8: kept
        "2022-09-20 09:52:51.136138: " + reg;                                                     // 9: the end
    const auto outcome = tests::analyzeOneFile("worker-0.log", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& r = *outcome.result;
    std::vector<std::string> seen;
    for (const auto& e : r.events) {
        if (e.rule != "tf_pss_register_function_ps_unreachable" && e.rule != "tf_createsession_still_waiting")
            continue;
        QCOMPARE(e.observations.size(), std::size_t(1));
        const auto obs = std::find_if(r.observations.begin(), r.observations.end(),
                                      [&](const auto& o) { return o.id == e.observations.front(); });
        QVERIFY(obs != r.observations.end());
        QCOMPARE(obs->time, e.time);  // the line's own time
        seen.push_back(e.rule + "@" + std::to_string(obs->source.line) + ":" +
                       (e.attrs.count("target") ? e.attrs.find("target")->second : std::string("-")));
    }
    const std::vector<std::string> expected{"tf_pss_register_function_ps_unreachable@3:/job:ps/replica:0/task:0",
                                            "tf_createsession_still_waiting@8:/job:ps/replica:0/task:1"};
    QCOMPARE(seen, expected);
    // Observations stay in file order with ids 1..n.
    for (std::size_t i = 0; i < r.observations.size(); ++i) {
        QCOMPARE(r.observations[i].id, std::uint64_t(i + 1));
        if (i > 0 && r.observations[i].source.file == r.observations[i - 1].source.file)
            QVERIFY(r.observations[i].source.line > r.observations[i - 1].source.line);
    }
}

/// glog's `file:line]` stays in the text the extractors read (after the stamp and thread id are taken): XLA's
/// ir_emitter rule anchors on the file, and a rule reading the message still finds it after the location.
void TestPlainTextBundles::glogSourceLocationReachesTheRules()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "jax.log",
                     "I1206 10:11:10.000001  1234 service.cc:145] XLA service initialized\n"
                     "F1206 10:11:12.123456  1234 ir_emitter.cc:3562] Check failed: 1 == assigned_buffers.size() "
                     "(1 vs. 2)\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& r = *outcome.result;
    const auto* s = r.symptom("xla_internal_check_failed@job");
    QVERIFY(s);
    QCOMPARE(s->attrs.at("file"), std::string("ir_emitter.cc"));
    const auto* obs = r.observation(s->evidence.front());
    QVERIFY(obs);
    QCOMPARE(str(obs->text),
             QStringLiteral("ir_emitter.cc:3562] Check failed: 1 == assigned_buffers.size() (1 vs. 2)"));
    QVERIFY(obs->time != NoTime);  // the stamp is still read
}

QTEST_APPLESS_MAIN(TestPlainTextBundles)
#include "tst_plain_text_bundles.moc"
