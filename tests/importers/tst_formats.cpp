// SPDX-License-Identifier: GPL-3.0-or-later
// Every structured and newly supported log format: sniffed from content, read into records (fixture files
// under tests/fixtures/importers/).
#include "importer_test_util.h"

#include "importers/timestamps.h"

#include <QtTest>

#include <cstring>

using namespace attrib;
using namespace attrib::importers;
using attrib::engine::NoTime;
using attrib::engine::SourceKind;
using attrib::engine::TimeSource;

namespace {

constexpr qint64 Us = 1000;
constexpr qint64 Sec = 1'000'000'000;

qint64 iso(const char* s)
{
    return isoTime(s);
}

/// `journalctl -o export` bytes: text fields, and binary fields for values with newlines.
std::string exportField(const std::string& key, const std::string& value)
{
    if (value.find('\n') == std::string::npos)
        return key + "=" + value + "\n";
    std::string out = key + "\n";
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((value.size() >> (8 * i)) & 0xff);
    return out + value + "\n";
}

}  // namespace

class TestFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void journalJson()
    {
        const auto r = tests::readAll(tests::fixture("journal.json"), "logs/j.json");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("journal-json"));
        QCOMPARE(r.sniffed.kind, SourceKind::Kernel);
        QCOMPARE(r.records.size(), std::size_t(4));
        QCOMPARE(r.stats.skipped, std::uint64_t(1));  // MESSAGE null
        QCOMPARE(r.records[0].time, qint64(1776890404641971) * Us);
        QCOMPARE(r.records[0].uptime, qint64(2641971) * Us);
        QCOMPARE(r.records[0].host, std::string("node-03"));
        QCOMPARE(r.records[0].kind, SourceKind::Kernel);
        QCOMPARE(r.records[1].text,
                 std::string("NVRM: The NVIDIA GPU 0000:b3:00.0 (PCI ID: 10de:26b5) installed in this "
                             "system has fallen off the bus and is not responding to commands."));
        QCOMPARE(r.records[2].kind, SourceKind::Syslog);
        QCOMPARE(r.records[2].text, std::string("systemd-networkd[2385]: ib1: Lost carrier"));
        QVERIFY(r.records[3].text.rfind("NVRM: Xid (PCI:0000:b3:00): 79, GPU has fallen off the bus.", 0) == 0);
        QCOMPARE(r.records[1].line, std::uint64_t(2));
    }

    void journalExport()
    {
        std::string data = exportField("__CURSOR", "s=1;i=1") +
            exportField("__REALTIME_TIMESTAMP", "1776893660118251") +
            exportField("__MONOTONIC_TIMESTAMP", "3258118251") + exportField("_TRANSPORT", "kernel") +
            exportField("_HOSTNAME", "node-03") +
            exportField("MESSAGE",
                        "NVRM: The NVIDIA GPU 0000:b3:00.0\n  NVRM: (PCI ID: 10de:26b5) "
                        "installed in this system has\n  NVRM: fallen off the bus.") +
            "\n";
        const std::size_t second = data.size();
        data += exportField("__CURSOR", "s=1;i=2") + exportField("__REALTIME_TIMESTAMP", "1776893661000000") +
            exportField("_TRANSPORT", "syslog") + exportField("SYSLOG_IDENTIFIER", "systemd-networkd") +
            exportField("_PID", "2385") + exportField("MESSAGE", "ib1: Lost carrier") + "\n";
        const auto r = tests::readAll(data, "journal.export", 2026, 7);
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("journal-export"));
        QCOMPARE(r.records.size(), std::size_t(2));
        QCOMPARE(r.records[0].text,
                 std::string("NVRM: The NVIDIA GPU 0000:b3:00.0 (PCI ID: 10de:26b5) installed in this system has "
                             "fallen off the bus."));
        QCOMPARE(r.records[0].time, qint64(1776893660118251) * Us);
        QCOMPARE(r.records[0].kind, SourceKind::Kernel);
        QCOMPARE(r.records[1].offset, std::uint64_t(second));
        QCOMPARE(r.records[1].text, std::string("systemd-networkd[2385]: ib1: Lost carrier"));
        // Cut inside the binary field: the complete entries before it survive, the cut is noted.
        const auto cut = tests::readAll(data.substr(0, second - 30), "journal.export");
        QVERIFY(cut.records.size() <= 1);
        QVERIFY(!cut.stats.notes.empty());
    }

    void rfc5424()
    {
        const auto r = tests::readAll(tests::fixture("syslog-rfc5424.log"), "messages");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("rfc5424"));
        QCOMPARE(r.records.size(), std::size_t(4));
        QVERIFY(r.records[0].text.rfind("NVRM: Xid (PCI:0000:61:00): 149", 0) == 0);
        QCOMPARE(r.records[0].host, std::string("node-02"));
        QCOMPARE(r.records[0].time, iso("2026-04-22T21:34:20.118251Z"));
        QCOMPARE(r.records[1].text, std::string("systemd-networkd[2385]: ib1: Lost carrier"));
        QCOMPARE(r.records[2].uptime, qint64(3262500000000));
        QVERIFY(r.records[2].text.rfind("mlx5_core 0000:5c:00.0", 0) == 0);
        QCOMPARE(r.records[3].time, NoTime);  // NILVALUE stamp: inherits later, in the collector
        QCOMPARE(r.records[3].text, std::string("sshd[999]: Accepted publickey for admin"));  // BOM dropped
    }

    void kernelLinesWithHostnames()
    {
        const auto r = tests::readAll(tests::fixture("kernel-hosts.log"), "all-dmesg.txt");
        QCOMPARE(r.sniffed.kind, SourceKind::Kernel);
        QCOMPARE(r.records.size(), std::size_t(4));
        QCOMPARE(r.records[1].host, std::string("node-02"));
        QVERIFY(r.records[1].text.rfind("NVRM: Xid (PCI:0000:61:00): 79", 0) == 0);
        QCOMPARE(r.records[1].time, iso("2026-04-22T21:34:20Z"));
        QCOMPARE(r.records[2].host, std::string("node-03"));
        QCOMPARE(r.records[2].timeSource, TimeSource::BootRelative);
        QCOMPARE(r.records[2].uptime, qint64(3258118251000));
        QCOMPARE(r.records[3].host, std::string("node-01.cluster.example"));
    }

    void nvidiaBugReport()
    {
        const auto r = tests::readAll(tests::fixture("nvidia-bug-report.log"), "nvidia-bug-report.log");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("nvidia-bug-report"));
        std::vector<std::string> inventory, kernel;
        int slowdownGpu = -2;
        for (const auto& rec : r.records) {
            if (rec.kind == SourceKind::Kernel)
                kernel.push_back(rec.text);
            if (rec.text.rfind("nvidia-smi -q GPU", 0) == 0)
                inventory.push_back(rec.text);
            if (rec.text.find("HW Thermal Slowdown") != std::string::npos &&
                rec.text.find(": Active") != std::string::npos)
                slowdownGpu = rec.gpu;
            if (rec.kind != SourceKind::Unknown)
                QCOMPARE(rec.host, std::string("node-02"));
        }
        QCOMPARE(inventory.size(), std::size_t(4));
        QCOMPARE(inventory[3],
                 std::string("nvidia-smi -q GPU 3 pci 00000000:61:00.0 serial 1654925215539 uuid "
                             "GPU-c259a791-a2ad-0f8a-0e11-3ae1dea80389 minor 3 product NVIDIA_B200"));
        QCOMPARE(slowdownGpu, 3);
        QVERIFY(std::any_of(kernel.begin(), kernel.end(),
                            [](const auto& t) { return t.rfind("NVRM: Xid (PCI:0000:61:00): 79", 0) == 0; }));
    }

    void jobOutputWithAnNvidiaSmiListing()
    {
        // A job script that runs `nvidia-smi -q` first: the banner makes the file look like a report, but the job's
        // own lines around the listing stay application lines (a CUDA OOM after it must be read).
        const std::string text = "Job 1234 starting on gpu-n07\n"
                                 "\n"
                                 "==============NVSMI LOG==============\n"
                                 "\n"
                                 "Timestamp                                 : Mon Dec  1 10:00:00 2025\n"
                                 "Attached GPUs                             : 1\n"
                                 "GPU 00000000:18:00.0\n"
                                 "    Product Name                          : NVIDIA H100 80GB HBM3\n"
                                 "\n"
                                 "[rank0]: Traceback (most recent call last):\n"
                                 "[rank0]:   File \"/opt/train.py\", line 40, in <module>\n"
                                 "[rank0]:     main()\n"
                                 "[rank0]:   File \"/opt/train.py\", line 31, in main\n"
                                 "[rank0]:     x = torch.empty(n, device=\"cuda\")\n"
                                 "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n";
        const auto r = tests::readAll(text, "slurm-1234.out");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("nvidia-bug-report"));
        std::vector<std::string> app;
        bool listed = false;
        for (const auto& rec : r.records) {
            if (rec.kind == SourceKind::App)
                app.push_back(rec.text);
            listed = listed || rec.text.rfind("nvidia-smi -q GPU 0 pci 00000000:18:00.0", 0) == 0;
        }
        QVERIFY(listed);
        QCOMPARE(app.size(), std::size_t(2));
        QCOMPARE(app[0], std::string("Job 1234 starting on gpu-n07"));
        QVERIFY(app[1].rfind("torch.OutOfMemoryError: CUDA out of memory.", 0) == 0);
        // Its traceback is one exception record, as in an application log: frames as a label, not five more lines.
        const auto oom = std::find_if(r.records.begin(), r.records.end(), [](const auto& rec) {
            return rec.text.find("OutOfMemoryError") != std::string::npos;
        });
        QVERIFY(oom->labels.count("traceback") == 1);
        QVERIFY(oom->labels.at("traceback").find("/opt/train.py") != std::string::npos);
        QCOMPARE(oom->line, std::uint64_t(10));
        QCOMPARE(oom->textLine, std::uint64_t(15));
        // A real report keeps its sections: no application line comes out of the fixture.
        const auto report = tests::readAll(tests::fixture("nvidia-bug-report.log"), "nvidia-bug-report.log");
        QVERIFY(std::none_of(report.records.begin(), report.records.end(),
                             [](const auto& rec) { return rec.kind == SourceKind::App; }));
    }

    void sacctParsable()
    {
        const auto r = tests::readAll(tests::fixture("slurm/timeout.sacct.P.txt"), "sacct.txt");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("sacct-parsable"));
        QCOMPARE(r.sniffed.kind, SourceKind::Accounting);
        QCOMPARE(r.records.size(), std::size_t(3));
        const auto& job = r.records[0];
        QVERIFY2(job.text.rfind("sacct job 5 state=TIMEOUT exit=0:0", 0) == 0, job.text.c_str());
        QCOMPARE(job.time, iso("2026-11-29T08:48:08"));
        QCOMPARE(job.labels.at("context.scheduler"), std::string("slurm"));
        QCOMPARE(job.labels.at("context.job"), std::string("5"));
        QCOMPARE(job.labels.at("context.nodes"), std::string("vm"));
        QVERIFY(r.records[1].text.rfind("sacct step 5.batch state=CANCELLED exit=0:15", 0) == 0);
        QVERIFY(r.records[1].labels.empty());
        const auto cancel = tests::readAll(tests::fixture("slurm/cancel.sacct.P.txt"), "x");
        QVERIFY(cancel.records[0].text.find("state=CANCELLED cancelled_by=0") != std::string::npos);
        const auto fail = tests::readAll(tests::fixture("slurm/fail.sacct.P.txt"), "x");
        QVERIFY(fail.records[0].text.rfind("sacct job 3 state=FAILED exit=1:0", 0) == 0);  // the real exit code
        const auto plain = tests::readAll(tests::fixture("slurm/timeout.sacct.parsable2-default.txt"), "x");
        QCOMPARE(plain.records.size(), std::size_t(3));
        QCOMPARE(plain.records[0].time, NoTime);  // default columns carry no times
    }

    void sacctJson()
    {
        const std::string text = tests::fixture("slurm/timeout.sacct.json");
        const auto r = tests::readAll(text, "sacct.json");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("sacct-json"));
        QCOMPARE(r.records.size(), std::size_t(3));
        QVERIFY2(r.records[0].text.rfind("sacct job 5 state=TIMEOUT", 0) == 0, r.records[0].text.c_str());
        QCOMPARE(r.records[0].time, qint64(1795942088) * Sec);
        QCOMPARE(r.records[0].labels.at("context.start"), std::string("2026-11-29T08:46:50Z"));
        QVERIFY(r.records[1].text.rfind("sacct step 5.batch state=CANCELLED exit=0:15", 0) == 0);
        QVERIFY(r.records[2].text.rfind("sacct step 5.0 state=CANCELLED", 0) == 0);
        for (const auto& rec : r.records) {  // each record points at its own JSON object
            QCOMPARE(text[rec.offset], '{');
            QCOMPARE(text[rec.offset + rec.length - 1], '}');
            QVERIFY(rec.line > 1);
        }
        const auto fail = tests::readAll(tests::fixture("slurm/fail.sacct.json"), "sacct.json");
        QVERIFY(fail.records[0].text.rfind("sacct job 3 state=FAILED exit=0:0", 0) == 0);  // the 22.05 trap, as is
    }

    void kubernetesEvents()
    {
        const auto r = tests::readAll(tests::fixture("k8s-events.json"), "events.json");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("k8s-events"));
        QCOMPARE(r.records.size(), std::size_t(3));
        QCOMPARE(r.records[0].time, iso("2026-04-22T21:00:02.118251Z"));  // eventTime when the stamps are null
        QCOMPARE(r.records[1].text,
                 std::string("k8s event Warning Evicted Pod/train/llm-worker-3: The node was low "
                             "on resource: memory. Threshold quantity: 100Mi, available: 52Mi. "
                             "(on node-02)"));
        QCOMPARE(r.records[1].host, std::string("node-02"));
        QCOMPARE(r.records[2].host, std::string("node-03"));  // a Node object names its node
    }

    void kueueWorkloads()
    {
        const auto r = tests::readAll(tests::fixture("kueue-workload.json"), "wl.json");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("kueue-workload"));
        QCOMPARE(r.records.size(), std::size_t(6));
        QCOMPARE(r.records[3].text,
                 std::string("kueue workload team-a/job-llm-pretrain-7f3c condition Evicted=True "
                             "reason=Preempted: Preempted to accommodate a workload (UID: 42c1) due "
                             "to prioritization in the ClusterQueue"));
        QCOMPARE(r.records[3].labels.at("context.scheduler"), std::string("kueue"));
        QCOMPARE(r.records[3].time, iso("2026-04-22T21:40:10Z"));
        const auto list = tests::readAll(tests::fixture("kueue-workload-list.json"), "wl.json");
        QCOMPARE(list.records.size(), std::size_t(2));
        QVERIFY(list.records[1].text.find("Evicted=True reason=PodsReadyTimeout") != std::string::npos);
        // `kubectl get events -o json` about Workload objects: events, though each names a Kueue Workload.
        const auto events = tests::readAll(
            "{\"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Event\", "
            "\"involvedObject\": {\"apiVersion\": \"kueue.x-k8s.io/v1beta1\", \"kind\": \"Workload\", \"name\": "
            "\"job-llm-7f3c\", \"namespace\": \"team-a\"}, \"reason\": \"Preempted\", \"type\": \"Normal\", "
            "\"lastTimestamp\": \"2026-04-22T21:40:10Z\", \"message\": \"Preempted to accommodate a workload (UID: "
            "42c1) due to prioritization in the ClusterQueue\"}], \"kind\": \"List\"}\n",
            "events.json");
        QCOMPARE(std::string(toString(events.sniffed.format)), std::string("k8s-events"));
        QCOMPARE(events.records.size(), std::size_t(1));
        QVERIFY2(events.records[0].text.find("Preempted to accommodate a workload") != std::string::npos,
                 events.records[0].text.c_str());
    }

    void prometheusText()
    {
        const auto r = tests::readAll(tests::fixture("dcgm.prom"), "metrics.txt");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("prometheus"));
        QCOMPARE(r.sniffed.kind, SourceKind::Metrics);
        QCOMPARE(r.records.size(), std::size_t(12));
        QCOMPARE(r.stats.skipped, std::uint64_t(1));
        const auto& first = r.records[0];
        QVERIFY(first.isMetric);
        QCOMPARE(first.metric, std::string("DCGM_FI_DEV_XID_ERRORS"));
        QCOMPARE(first.time, iso("2026-04-22T20:59:50Z"));  // from the `# <stamp>` comment above it
        QCOMPARE(first.host, std::string("node-02"));
        QCOMPARE(first.gpu, 3);
        QCOMPARE(first.labels.at("modelName"), std::string("NVIDIA B200"));
        QCOMPARE(r.records[4].host, std::string("node-02"));  // instance="node-02:9100"
        QCOMPARE(r.records[5].time, iso("2026-04-22T21:34:30Z"));
        QCOMPARE(r.records[5].value, 149.0);
        QCOMPARE(r.records[11].time, qint64(1776893690000) * 1'000'000);  // an explicit millisecond stamp
    }

    void metricCsv()
    {
        const auto ib = tests::readAll(tests::fixture("ib-counters.csv"), "ib.csv");
        QCOMPARE(std::string(toString(ib.sniffed.format)), std::string("metrics-csv"));
        QCOMPARE(ib.records.size(), std::size_t(4));
        QCOMPARE(ib.records[2].metric, std::string("link_downed"));
        QCOMPARE(ib.records[2].value, 3.0);
        QCOMPARE(ib.records[2].host, std::string("node-03"));
        QCOMPARE(ib.records[2].labels.at("device"), std::string("mlx5_0"));
        QCOMPARE(ib.records[2].labels.at("port"), std::string("1"));
        const auto smi = tests::readAll(tests::fixture("nvidia-smi-query.csv"), "gpus.csv");
        QCOMPARE(std::string(toString(smi.sniffed.format)), std::string("metrics-csv"));
        std::vector<std::string> names;
        for (const auto& rec : smi.records)
            names.push_back(rec.metric + "@" + std::to_string(rec.gpu));
        QCOMPARE(smi.records.size(), std::size_t(11));  // the [N/A] cell is not a sample
        QCOMPARE(names[0], std::string("temperature.gpu@0"));
        QCOMPARE(names[1], std::string("power.draw@0"));
        QCOMPARE(smi.records[0].time, iso("2026-04-22T21:00:05.113"));
        QCOMPARE(smi.records[9].value, 96.0);
        const auto listing = tests::readAll(tests::fixture("nvidia-smi-listing.csv"), "gpus.csv");
        QCOMPARE(std::string(toString(listing.sniffed.format)), std::string("nvidia-smi-csv"));
        QCOMPARE(listing.sniffed.kind, SourceKind::Inventory);
        QCOMPARE(listing.records[2].text, std::string("3, 00000000:61:00.0"));
    }

    void observationsJsonl()
    {
        const auto r = tests::readAll(tests::fixture("observations.jsonl"), "observations.jsonl");
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("observations-jsonl"));
        QCOMPARE(r.records.size(), std::size_t(4));
        QCOMPARE(r.stats.skipped, std::uint64_t(2));  // unknown source kind, not an object
        QCOMPARE(r.records[0].labels.at("context.job"), std::string("job-88"));
        QCOMPARE(r.records[0].labels.at("context.nodes"), std::string("gpu-a01,gpu-a02"));
        QCOMPARE(r.records[1].kind, SourceKind::Kernel);
        QCOMPARE(r.records[1].host, std::string("gpu-a02"));
        QCOMPARE(r.records[1].labels.at("origin.line"), std::string("812"));
        QCOMPARE(r.records[2].rank, 3);
        QCOMPARE(r.records[2].gpu, 3);
        QCOMPARE(r.records[2].time, qint64(1776893720) * Sec);
        QVERIFY(r.records[3].isMetric);
        QCOMPARE(r.records[3].metric, std::string("DCGM_FI_DEV_XID_ERRORS"));
    }

    void jsonThatIsNoKnownFormatIsReadAsPlainText()
    {
        const auto r = tests::readAll("{\"hello\": \"world\"}\n", "misc.json");
        QCOMPARE(r.sniffed.kind, SourceKind::Text);
        QCOMPARE(std::string(toString(r.sniffed.format)), std::string("plain"));
        QCOMPARE(r.records.size(), std::size_t(1));
        QCOMPARE(r.records[0].text, std::string("{\"hello\": \"world\"}"));
    }
};

QTEST_APPLESS_MAIN(TestFormats)
#include "tst_formats.moc"
