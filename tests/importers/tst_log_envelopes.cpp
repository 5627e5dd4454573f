// SPDX-License-Identifier: GPL-3.0-or-later
// Lines stored by a container runtime, a log shipper or a log platform are read as the message the job printed:
// CRI's stream tag, Loki's labels, a syslog line inside a platform's line, Docker's json-file, a pretty-printed
// CloudWatch event, torchelastic's error file, fluent-bit's `=>` record; the record's time and host are kept for
// lines without their own. A line holding several lines in escaped form (`\n`, rsyslog's `#012`) is read as them. What
// only looks like such a record (JSON without a message, invalid or hostile JSON) stays a line of text.
#include "importer_test_util.h"

#include "engine/stamp_fields.h"
#include "importers/multiline.h"
#include "importers/pasted_text.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using engine::NoTime;
using engine::SourceKind;

namespace {

engine::TimeNs at(std::string_view iso)
{
    const auto stamp = engine::parseIsoStamp(iso);
    return stamp ? stamp->time : NoTime;
}

bool hasFact(const engine::AnalysisResult& r, const std::string& path, const std::string& fact)
{
    const auto* cov = tests::fileCoverage(r, path);
    if (cov == nullptr)
        return false;
    for (const auto& e : cov->errors)
        if (e.find(fact) != std::string::npos)
            return true;
    return false;
}

const char* const RecordFact = "of a log platform or runtime read as the message it holds";

}  // namespace

class TestLogEnvelopes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void criStreamTagRemoved();
    void syslogLineInsidePlatformLine();
    void lokiLabelsNameTheHost();
    void stampColumnBeforeATab();
    void dockerJsonFileLines();
    void cloudWatchEventHoldsATraceback();
    void torchelasticErrorFile();
    void fluentBitRecord();
    void logfmtLines();
    void logExportCsvRows();
    void metricsCsvStaysMetrics();
    void notARecordStaysText_data();
    void notARecordStaysText();
    void escapedLinesReadAsLines();
    void syslogEscapesJoined();
};

void TestLogEnvelopes::criStreamTagRemoved()
{
    const auto read = tests::readAll("2026-12-01T10:11:10.100000000Z stdout F Epoch 3 step 1200 loss 2.31\n"
                                     "2026-12-01T10:11:13.345678901Z stderr F gpu-node-7:2841:3012 [3] NCCL WARN "
                                     "NET/IB : Got completion from peer 10.0.0.8<46913> with status=12\n"
                                     "2026-12-01T10:11:14.000000000Z stderr F   indented output stays indented\n",
                                     "trainer-0.log");
    QCOMPARE(read.records.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(read.records[0].text), QStringLiteral("Epoch 3 step 1200 loss 2.31"));
    const auto* nccl = tests::findText(read.records, "gpu-node-7:2841:3012 [3] NCCL WARN");
    QVERIFY(nccl);
    QCOMPARE(QString::fromStdString(nccl->host), QStringLiteral("gpu-node-7"));
    QCOMPARE(nccl->gpu, 3);
    QCOMPARE(nccl->time, at("2026-12-01T10:11:13.345678901Z"));
    QCOMPARE(QString::fromStdString(read.records[2].text), QStringLiteral("  indented output stays indented"));
}

void TestLogEnvelopes::syslogLineInsidePlatformLine()
{
    const auto read = tests::readAll(
        "2026-12-01T10:11:11Z stderr F starting step 12\n"
        "2026-12-01T10:11:12.345Z stderr F Dec  1 10:11:12 gpu-node-7 kernel: [12345.678901] NVRM: Xid "
        "(PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n"
        "2026-12-01T10:11:13Z stderr F Dec  1 10:11:13 gpu-node-7 nvidia-persistenced[812]: device 0000:3b:00.0 "
        "lost\n",
        "node-problems.log");
    const auto* xid = tests::findText(read.records, "NVRM: Xid");
    QVERIFY(xid);
    QCOMPARE(int(xid->kind), int(SourceKind::Kernel));
    QCOMPARE(QString::fromStdString(xid->host), QStringLiteral("gpu-node-7"));
    QCOMPARE(xid->time, at("2026-12-01T10:11:12.345Z"));  // the platform's stamp, which has the year
    const auto* daemon = tests::findText(read.records, "nvidia-persistenced[812]: device");
    QVERIFY(daemon);
    QCOMPARE(int(daemon->kind), int(SourceKind::Syslog));
    QCOMPARE(QString::fromStdString(daemon->host), QStringLiteral("gpu-node-7"));

    const auto outcome = tests::analyzeOneFile("node-problems.log",
                                               "2026-12-01T10:11:11Z stderr F starting\n"
                                               "2026-12-01T10:11:12.345Z stderr F Dec  1 10:11:12 "
                                               "gpu-node-7 kernel: NVRM: Xid (PCI:0000:3b:00): "
                                               "79, pid=1234, GPU has fallen off the bus.\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("gpu"));
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-node-7"));
}

void TestLogEnvelopes::lokiLabelsNameTheHost()
{
    const auto read =
        tests::readAll("2026-12-01T10:11:12Z {container=\"trainer\", node=\"gpu-node-3\", pod=\"job-0\"} RuntimeError: "
                       "CUDA error: an illegal memory access was encountered\n"
                       "2026-12-01T10:11:13Z {instance=\"gpu-node-4:9100\"} step 12\n"
                       "2026-12-01T10:11:14Z {not labels} stays whole\n",
                       "loki.txt");
    QCOMPARE(read.records.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(read.records[0].text),
             QStringLiteral("RuntimeError: CUDA error: an illegal memory access was encountered"));
    QCOMPARE(QString::fromStdString(read.records[0].host), QStringLiteral("gpu-node-3"));
    QCOMPARE(QString::fromStdString(read.records[1].host), QStringLiteral("gpu-node-4"));
    QCOMPARE(QString::fromStdString(read.records[2].text), QStringLiteral("{not labels} stays whole"));
    QCOMPARE(QString::fromStdString(read.records[2].host), QString());
}

void TestLogEnvelopes::stampColumnBeforeATab()
{
    const auto read = tests::readAll("2026-12-01T10:11:12.345Z\tsrun: error: gpu-node-5: task 3: Exited with exit "
                                     "code 1\n",
                                     "console.txt");
    QCOMPARE(read.records.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(read.records[0].text),
             QStringLiteral("srun: error: gpu-node-5: task 3: Exited with exit code 1"));
    QCOMPARE(read.records[0].time, at("2026-12-01T10:11:12.345Z"));
}

void TestLogEnvelopes::dockerJsonFileLines()
{
    const std::string text =
        "{\"log\":\"Epoch 3 step 1200 loss 2.31\\n\",\"stream\":\"stdout\",\"time\":\"2026-12-01T10:11:10.1Z\"}\n"
        "{\"log\":\"gpu-node-7:2841:3012 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.8\\u003c46913\\u003e "
        "with status=12 opcode=0 len=0 vendor err 129 (Recv)\\n\",\"stream\":\"stderr\",\"time\":"
        "\"2026-12-01T10:11:13.345678901Z\"}\n"
        "{\"log\":\"\\u001b[31mTraceback (most recent call last):\\u001b[0m\\n\",\"stream\":\"stderr\",\"time\":"
        "\"2026-12-01T10:11:14Z\"}\n"
        "{\"log\":\"  File \\\"/app/train.py\\\", line 9, in \\u003cmodule\\u003e\\n\",\"stream\":\"stderr\",\"time\":"
        "\"2026-12-01T10:11:14Z\"}\n"
        "{\"log\":\"ValueError: bad batch\\n\",\"stream\":\"stderr\",\"time\":\"2026-12-01T10:11:14Z\"}\n";
    const auto read = tests::readAll(text, "container-json.log");
    const auto* nccl = tests::findText(read.records,
                                       "gpu-node-7:2841:3012 [3] NCCL WARN NET/IB : Got completion "
                                       "from peer 10.0.0.8<46913>");
    QVERIFY(nccl);
    QCOMPARE(QString::fromStdString(nccl->host), QStringLiteral("gpu-node-7"));
    QCOMPARE(nccl->gpu, 3);
    QCOMPARE(nccl->time, at("2026-12-01T10:11:13.345678901Z"));
    // One line per record still makes one traceback: the exception line spans it, colour codes removed.
    const auto* exception = tests::findText(read.records, "ValueError: bad batch");
    QVERIFY(exception);
    QCOMPARE(exception->line, std::uint64_t(3));
    QVERIFY(!tests::findText(read.records, "Traceback"));
    QCOMPARE(read.stats.enveloped, std::uint64_t(5));

    const auto outcome = tests::analyzeOneFile("container-json.log", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(hasFact(*outcome.result, "container-json.log", std::string("5 records ") + RecordFact));
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-node-7"));
}

void TestLogEnvelopes::cloudWatchEventHoldsATraceback()
{
    const std::string text =
        "{\n"
        "    \"events\": [\n"
        "        {\n"
        "            \"timestamp\": 1764583872345,\n"
        "            \"message\": \"Traceback (most recent call last):\\n  File \\\"/app/train.py\\\", line 42, in "
        "<module>\\n    loss.backward()\\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
        "GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\",\n"
        "            \"ingestionTime\": 1764583873000\n"
        "        }\n"
        "    ]\n"
        "}\n";
    const auto read = tests::readAll(text, "events.json");
    const auto* oom = tests::findText(read.records, "torch.OutOfMemoryError: CUDA out of memory.");
    QVERIFY(oom);
    QCOMPARE(oom->line, std::uint64_t(5));
    QVERIFY2(oom->text.find("ingestionTime") == std::string::npos, oom->text.c_str());  // the message ended
    QVERIFY(!oom->innerLines.empty());
    QVERIFY(tests::findText(read.records, "            \"ingestionTime\": 1764583873000"));

    const auto outcome = tests::analyzeOneFile("events.json", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("oom"));
}

void TestLogEnvelopes::torchelasticErrorFile()
{
    const std::string text =
        "{\"message\": {\"message\": \"RuntimeError: CUDA error: an illegal memory access was encountered\", "
        "\"extraInfo\": {\"py_callstack\": \"Traceback (most recent call last):\\n  File \\\"/workspace/train.py\\\", "
        "line 88, in step\\n    torch.cuda.synchronize()\\nRuntimeError: CUDA error: an illegal memory access was "
        "encountered\\n\", \"timestamp\": \"1764583872\"}}}\n";
    const auto read = tests::readAll(text, "error.json");
    QCOMPARE(read.records.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(read.records[0].text),
             QStringLiteral("RuntimeError: CUDA error: an illegal memory access was encountered"));
    QCOMPARE(read.records[0].time, at("2025-12-01T10:11:12Z"));
    QVERIFY(!read.records[0].innerLines.empty());
}

void TestLogEnvelopes::fluentBitRecord()
{
    const std::string text =
        "[0] kube.var.log.containers.trainer-0.log: [1764583872.345678, {\"log\"=>\"Dec  1 10:11:12 gpu-node-9 "
        "kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, An uncorrectable double bit error (DBE) has been detected "
        "on GPU in the framebuffer at partition 0, subpartition 0.\", \"stream\"=>\"stderr\"}]\n"
        "[1] kube.var.log.containers.trainer-0.log: [1764583873.5, {\"log\"=>\"step \\\"12\\\" => done\"}]\n";
    const auto read = tests::readAll(text, "fluent-bit.out");
    QCOMPARE(read.records.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(read.records[0].host), QStringLiteral("gpu-node-9"));
    QVERIFY(read.records[0].text.rfind("NVRM: Xid (PCI:0000:3b:00): 48,", 0) == 0);
    QCOMPARE(QString::fromStdString(read.records[1].text), QStringLiteral("step \"12\" => done"));
    QCOMPARE(read.records[1].time, at("2025-12-01T10:11:13.5Z"));
}

void TestLogEnvelopes::logfmtLines()
{
    // logrus (containerd, dcgm-exporter, the container toolkit) and Go's slog TextHandler.
    const std::string text =
        "time=\"2021-05-12T17:31:12Z\" level=error msg=\"Failed to collect metrics with error: Host engine connection "
        "invalid/disconnected\"\n"
        "time=2024-03-04T10:11:12.500Z level=ERROR msg=\"RunPodSandbox failed\" error=\"nvidia-container-cli: "
        "initialization error: nvml error: driver not loaded: \\\"unknown\\\"\" pod=trainer-0 host=gpu-node-7\n"
        "level=info ts=2024-03-04T10:11:13Z caller=main.go:42 msg=\"starting\"\n"
        "time=\"2021-05-12T17:31:12Z\" level=error the message is not a pair\n";
    const auto read = tests::readAll(text, "containerd.log");
    QCOMPARE(read.stats.enveloped, std::uint64_t(3));
    const auto find = [&](std::string_view part) -> const Record* {
        for (const auto& r : read.records)
            if (r.text.find(part) != std::string::npos)
                return &r;
        return nullptr;
    };
    const Record* dcgm = find("Host engine connection");
    QVERIFY(dcgm);
    QCOMPARE(QString::fromStdString(dcgm->text),
             QStringLiteral("Failed to collect metrics with error: Host engine connection invalid/disconnected"));
    QCOMPARE(dcgm->time, at("2021-05-12T17:31:12Z"));
    const Record* sandbox = find("RunPodSandbox");
    const Record* error = find("nvidia-container-cli");  // the error pair, unescaped, after the message
    const Record* rest = find("pod=trainer-0");          // other pairs beside the message, as printed
    QVERIFY(sandbox && error && rest);
    QCOMPARE(QString::fromStdString(sandbox->text), QStringLiteral("RunPodSandbox failed pod=trainer-0"));
    QCOMPARE(QString::fromStdString(error->text),
             QStringLiteral("nvidia-container-cli: initialization error: nvml error: driver not loaded: \"unknown\""));
    QCOMPARE(QString::fromStdString(error->host), QStringLiteral("gpu-node-7"));
    QCOMPARE(error->time, at("2024-03-04T10:11:12.5Z"));
    QVERIFY(rest->text.find("host=") == std::string::npos);
    const Record* started = find("starting");
    QVERIFY(started);
    QCOMPARE(QString::fromStdString(started->text), QStringLiteral("starting"));
    QCOMPARE(started->time, at("2024-03-04T10:11:13Z"));
    QVERIFY(read.records.back().text.rfind("time=", 0) == 0);  // not every token a pair: the line as it is
}

void TestLogEnvelopes::logExportCsvRows()
{
    // CloudWatch Logs Insights: a quoted message cell spans the lines of a traceback.
    const std::string insights =
        "@timestamp,@logStream,@message\n"
        "2026-12-01 10:11:13.345,train/i-0abc,\"gpu-node-7:2841:3012 [3] NCCL WARN NET/IB : Got completion from peer "
        "10.0.0.8<46913> with status=12\"\n"
        "\n"
        "2026-12-01 10:11:14.000,train/i-0abc,\"Traceback (most recent call last):\n"
        "  File \"\"/app/train.py\"\", line 9, in <module>\n"
        "    loss.backward()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\"\n"
        "2026-12-01 10:11:15.000,train/i-0abc,done\n";
    const auto read = tests::readAll(insights, "logs-insights-results.csv");
    QCOMPARE(int(read.sniffed.format), int(Format::Plain));
    const auto* nccl = tests::findText(read.records, "gpu-node-7:2841:3012 [3] NCCL WARN");
    QVERIFY(nccl);
    QCOMPARE(QString::fromStdString(nccl->host), QStringLiteral("gpu-node-7"));
    QCOMPARE(nccl->gpu, 3);
    QCOMPARE(nccl->time, at("2026-12-01T10:11:13.345Z"));
    const auto* oom = tests::findText(read.records, "torch.OutOfMemoryError: CUDA out of memory.");
    QVERIFY(oom);
    QCOMPARE(oom->line, std::uint64_t(4));  // the row's first line
    QVERIFY(!oom->innerLines.empty());
    QCOMPARE(oom->time, at("2026-12-01T10:11:14Z"));
    const auto* done = tests::findText(read.records, "done");
    QVERIFY(done);
    QCOMPARE(done->line, std::uint64_t(8));
    QCOMPARE(read.stats.enveloped, std::uint64_t(3));

    // Datadog: the Host column names the node; Azure: a cell holding a JSON record is that record. One row each,
    // after the header: its text, host and time.
    const auto oneRow = [](const std::string& csv, const std::string& name, const std::string& text,
                           const std::string& host) {
        const auto row = tests::readAll(csv, name);
        QCOMPARE(row.records.size(), std::size_t(2));
        QCOMPARE(row.records[1].text, text);
        QCOMPARE(row.records[1].host, host);
        QCOMPARE(row.records[1].time, at("2026-12-01T10:11:12.345Z"));
    };
    oneRow("Date,Host,Service,Message\n"
           "2026-12-01T10:11:12.345Z,gpu-node-5,trainer,\"RuntimeError: CUDA error: an illegal memory access was "
           "encountered\"\n",
           "extract-2026-12-01.csv", "RuntimeError: CUDA error: an illegal memory access was encountered",
           "gpu-node-5");
    oneRow("TimeGenerated [UTC],Computer,LogMessage\n"
           "\"12/1/2026, 10:11:12.345 AM\",gpu-node-2,\"{\"\"log\"\":\"\"srun: error: gpu-node-2: task 3: Exited "
           "with exit code 1\\n\"\"}\"\n",
           "query_data.csv", "srun: error: gpu-node-2: task 3: Exited with exit code 1", "gpu-node-2");
    const auto consoles = tests::readAll("\"@timestamp\",\"host.name\",message\n"
                                         "\"Dec 1, 2026 @ 22:11:12.345\",gpu-node-3,\"NCCL WARN x\"\n"
                                         "\"Dec 1, 2026 @ 25:11:12.345\",gpu-node-3,\"no time\"\n",
                                         "kibana-export.csv");
    QCOMPARE(consoles.records.size(), std::size_t(3));
    QCOMPARE(consoles.records[1].time, at("2026-12-01T22:11:12.345Z"));
    QCOMPARE(consoles.records[2].text, std::string("no time"));
    QCOMPARE(consoles.records[2].time, NoTime);  // a bad stamp: no time of its own
    const auto pm =
        tests::readAll("TimeGenerated [UTC],Computer,LogMessage\n"
                       "\"12/1/2026, 12:05:00 AM\",gpu-node-2,a\n\"12/1/2026, 1:05:00.5 PM\",gpu-node-2,b\n",
                       "query_data.csv");
    QCOMPARE(pm.records.size(), std::size_t(3));
    QCOMPARE(pm.records[1].time, at("2026-12-01T00:05:00Z"));
    QCOMPARE(pm.records[2].time, at("2026-12-01T13:05:00.5Z"));

    const auto outcome = tests::analyzeOneFile("logs-insights-results.csv", insights);
    QVERIFY2(outcome.result, outcome.error.c_str());
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("oom"));
    QVERIFY(hasFact(*outcome.result, "logs-insights-results.csv", std::string("3 records ") + RecordFact));
}

void TestLogEnvelopes::metricsCsvStaysMetrics()
{
    const auto read = tests::readAll("timestamp,gpu,DCGM_FI_DEV_GPU_TEMP\n2026-12-01T10:11:12Z,0,71\n", "dcgm.csv");
    QCOMPARE(int(read.sniffed.format), int(Format::MetricsCsv));
    QCOMPARE(read.stats.enveloped, std::uint64_t(0));
}

void TestLogEnvelopes::notARecordStaysText_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("no message member") << QByteArray("{\"loss\": 2.31, \"step\": 1200}");
    QTest::newRow("python dict repr") << QByteArray("{'loss': 2.31, 'message': 'x'}");
    QTest::newRow("unterminated") << QByteArray("{\"log\": \"NCCL WARN cut here");
    QTest::newRow("empty message") << QByteArray("{\"log\": \"\\n\", \"stream\": \"stdout\"}");
    QTest::newRow("member of another name") << QByteArray("    \"reason\": \"OOMKilled\",");
    QTest::newRow("too deep") << QByteArray(200, '[') + QByteArray("{\"log\": \"x\"}") + QByteArray(200, ']');
    QTest::newRow("array") << QByteArray("[1, 2, 3]");
    // What only looks like a line holding escaped lines stays whole.
    QTest::newRow("windows path") << QByteArray("copying C:\\Users\\nick\\new\\nvidia\\model.bin to cache");
    QTest::newRow("one break") << QByteArray("print('loss is high\\n') in train.py line 3");
    QTest::newRow("pieces without text") << QByteArray("a\\nb\\nc\\nd");
    QTest::newRow("three backslashes") << QByteArray("x y\\\\\\nz w\\\\\\nv u");
}

void TestLogEnvelopes::notARecordStaysText()
{
    QFETCH(QByteArray, line);
    const auto read = tests::readAll("first line\n" + line.toStdString() + "\n", "notes.txt");
    QCOMPARE(read.stats.enveloped, std::uint64_t(0));
    QCOMPARE(read.stats.unescaped, std::uint64_t(0));
    QCOMPARE(read.records.size(), std::size_t(2));
    QCOMPARE(QByteArray::fromStdString(read.records[1].text), line);
}

void TestLogEnvelopes::escapedLinesReadAsLines()
{
    // A Ray driver printing a task's exception through its repr, a JSON log whose message was escaped twice, and a
    // `kubectl describe` message: each holds a traceback whose lines are `\n`-separated on one physical line.
    const std::string text =
        "2026-12-01 10:11:12,345\tERROR worker.py:409 -- Unhandled error: ray.exceptions.RayTaskError(RuntimeError): "
        "ray::train_step() (pid=4411, ip=10.0.3.7)\\n  File \"/app/train.py\", line 88, in step\\n    "
        "torch.cuda.synchronize()\\nRuntimeError: CUDA error: an illegal memory access was encountered\\n\n"
        "{\"log\": \"Exception: \\\"XGBoostError('NCCL failure\\\\nStack trace:\\\\n  [bt] (0) "
        "libxgboost.so(+0x45c64d) [0x7ff0cafa964d]\\\\n  [bt] (1) libxgboost.so(+0x45e3f9)')\\\"\\n\"}\n"
        "    Message:  \"Traceback (most recent call last):\\r\\n  File \\\"x.py\\\", line 1\\r\\nValueError: bad "
        "value\"\n";
    const auto read = tests::readAll(text, "driver.log");
    QCOMPARE(read.stats.unescaped, std::uint64_t(2));
    QCOMPARE(read.stats.enveloped, std::uint64_t(1));
    const auto* cuda =
        tests::findText(read.records, "RuntimeError: CUDA error: an illegal memory access was encountered");
    QVERIFY(cuda);
    QCOMPARE(cuda->line, std::uint64_t(1));
    QCOMPARE(cuda->time, at("2026-12-01T10:11:12.345Z"));  // the line's own stamp stands for its pieces
    QVERIFY(tests::findText(read.records, "  [bt] (0) libxgboost.so(+0x45c64d) [0x7ff0cafa964d]") ||
            tests::findText(read.records, "Exception: \"XGBoostError('NCCL failure"));
    const auto* value = tests::findText(read.records, "ValueError: bad value\"");
    QVERIFY(value);
    QCOMPARE(value->line, std::uint64_t(3));

    const auto outcome = tests::analyzeOneFile("driver.log", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(hasFact(*outcome.result, "driver.log", "2 lines holding several lines in escaped form"));
    QCOMPARE(QString::fromStdString(outcome.result->verdict.subDomain), QStringLiteral("application"));
}

void TestLogEnvelopes::syslogEscapesJoined()
{
    // rsyslog writes a message's newline as `#012` and a tab as `#011`; the lines are joined as a journal entry's.
    const std::string text =
        "Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: this "
        "kernel module has the version 530.30.02.  Please#012NVRM: make sure that this kernel module and all NVIDIA "
        "driver#012NVRM: components have the same version.\n"
        "Jun 30 11:07:09 gpu-0 trainer[811]: step failed:#012#011cudaErrorECCUncorrectable#012    at step 12\n"
        "Jun 30 11:07:10 gpu-0 trainer[811]: issue #019 stays\n";
    const auto read = tests::readAll(text, "messages");
    QCOMPARE(read.stats.unescaped, std::uint64_t(2));
    QVERIFY(tests::findText(read.records,
                            "NVRM: API mismatch: the client has the version 535.54.03, but this kernel "
                            "module has the version 530.30.02.  Please make sure that this kernel module "
                            "and all NVIDIA driver components have the same version."));
    QVERIFY(tests::findText(read.records, "trainer[811]: step failed: cudaErrorECCUncorrectable at step 12"));
    QVERIFY(tests::findText(read.records, "trainer[811]: issue #019 stays"));
    std::string buffer;
    QCOMPARE(std::string(detail::joinSyslogEscapes("a#015#012b", buffer)), std::string("a b"));
    const std::string_view hdf5 = "  #012: H5Bcache.c line 181 in H5B__cache_deserialize(): wrong B-tree signature";
    QCOMPARE(detail::joinSyslogEscapes(hdf5, buffer).data(), hdf5.data());  // HDF5's numbered error stack
    const std::string_view plain = "no escapes #01 here";
    QCOMPARE(detail::joinSyslogEscapes(plain, buffer).data(), plain.data());
}

QTEST_GUILESS_MAIN(TestLogEnvelopes)
#include "tst_log_envelopes.moc"
