// SPDX-License-Identifier: GPL-3.0-or-later
// Scheduler history (sacct, slurmctld, job output, Kubernetes events, Kueue workloads) and metrics (DCGM /
// Prometheus text, CSV, observations.jsonl) through the whole pipeline: context, symptoms, verdict.
#include "analyze_files.h"

#include "importers/timestamps.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
namespace fs = std::filesystem;

namespace {

const std::string Workload = "{\"id\": \"4711\", \"scheduler\": \"slurm\", \"start\": \"2026-04-22T21:00:00Z\", "
                             "\"end\": \"2026-04-22T21:44:00Z\", \"nodes\": [\"node-02\", \"node-03\"]}";

}  // namespace

class TestSchedulerMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void slurmTimeLimitFromSacctAndJobOutput()
    {
        const auto r = tests::analyzeFiles({{"sacct.txt", tests::fixture("slurm/timeout.sacct.P.txt")},
                                            {"timeout-5.err", tests::fixture("slurm/timeout.err.txt")},
                                            {"slurmctld.log", tests::fixture("slurm/slurmctld.log")}});
        QCOMPARE(r.verdict.terminalState, std::string("timeout"));
        const auto* limit = tests::findSymptom(r, "slurm_time_limit@job");
        QVERIFY(limit);
        QVERIFY(limit->count >= 3);  // sacct, the slurmstepd banners, slurmctld
        // No workload.json: sacct names the job, its window and nodes.
        QCOMPARE(r.context.scheduler, std::string("slurm"));
        QCOMPARE(r.context.workloadId, std::string("5"));
        QCOMPARE(r.context.start, isoTime("2026-11-29T08:46:50"));
        QCOMPARE(r.context.end, isoTime("2026-11-29T08:48:08"));
        QCOMPARE(r.context.nodes, std::vector<std::string>{"vm"});
        QCOMPARE(r.context.source, std::string("sacct-parsable"));
    }

    void slurmCancelAndFailure()
    {
        const auto cancel = tests::analyzeFiles({{"sacct.json", tests::fixture("slurm/cancel.sacct.json")},
                                                 {"cancel-6.err", tests::fixture("slurm/cancel.err.txt")}});
        QCOMPARE(cancel.verdict.terminalState, std::string("cancelled"));
        QVERIFY(tests::findSymptom(cancel, "slurm_cancelled@job"));
        const auto fail = tests::analyzeFiles({{"sacct.txt", tests::fixture("slurm/fail.sacct.P.txt")}});
        QVERIFY(tests::findSymptom(fail, "slurm_job_failed@job"));
        QCOMPARE(fail.verdict.terminalState, std::string("application_failure"));
    }

    void kueuePreemptionAndPodsNotReady()
    {
        const auto r = tests::analyzeFiles({{"workload.yaml.json", tests::fixture("kueue-workload.json")}});
        QCOMPARE(r.verdict.terminalState, std::string("preempted"));
        const auto* preempted = tests::findSymptom(r, "workload_preempted@job");
        QVERIFY(preempted);
        QCOMPARE(preempted->count, std::uint32_t(2));  // Evicted=True/Preempted and Preempted=True
        QCOMPARE(r.context.scheduler, std::string("kueue"));
        QCOMPARE(r.context.workloadId, std::string("team-a/job-llm-pretrain-7f3c"));
        bool podsNotReady = false;
        for (const auto& e : r.events)
            podsNotReady = podsNotReady || e.type == "kueue_pods_not_ready";
        QVERIFY(podsNotReady);
        const auto list = tests::analyzeFiles({{"workloads.json", tests::fixture("kueue-workload-list.json")}});
        QVERIFY(tests::findSymptom(list, "workload_pods_ready_timeout@job"));
    }

    void kubernetesEvents()
    {
        const auto r = tests::analyzeFiles({{"events.json", tests::fixture("k8s-events.json")}});
        QVERIFY(tests::findSymptom(r, "pod_evicted_node_pressure@node-02"));
        QVERIFY(tests::findSymptom(r, "node_not_ready@node-03"));
        // The kubelet evicted the job's worker pod for low memory (21:34:25) before node-03 went NotReady
        // (21:35:40): the memory eviction is the job's end (since the kubelet eviction rules of the real-log round).
        // Its message names no container over its request, so the node's memory went elsewhere: the node's fault.
        QCOMPARE(r.verdict.rootCause->symptomId, std::string("pod_evicted_node_memory_exhausted@node-02"));
        QCOMPARE(r.verdict.terminalState, std::string("infrastructure_failure"));
        QCOMPARE(r.verdict.subDomain, std::string("oom"));
    }

    void dcgmCountersDuringTheJob()
    {
        const auto r =
            tests::analyzeFiles({{"workload.json", Workload}, {"metrics/dcgm.prom", tests::fixture("dcgm.prom")}});
        const auto* xid = tests::findSymptom(r, "metric_xid@node-02/gpu3");
        QVERIFY(xid);
        QCOMPARE(xid->attrs.at("value"), std::string("149"));
        QVERIFY(!tests::findSymptom(r, "metric_xid@node-02/gpu5"));  // Xid 31 was there before the job
        QVERIFY(tests::findSymptom(r, "metric_ecc_dbe@node-02/gpu3"));
        QVERIFY(tests::findSymptom(r, "metric_gpu_overheat@node-02/gpu3"));
        QVERIFY(tests::findSymptom(r, "metric_nvlink_crc_errors@node-02/gpu3"));
        QVERIFY(!tests::findSymptom(r, "metric_ib_link_flap@node-02"));  // the counter did not move
        // Evidence: the metric samples themselves, kind metrics, readable by offset.
        const auto* dbe = tests::findSymptom(r, "metric_ecc_dbe@node-02/gpu3");
        QCOMPARE(dbe->evidence.size(), std::size_t(2));
        const auto* sample = r.observation(dbe->evidence.back());
        QVERIFY(sample);
        QCOMPARE(sample->kind, engine::SourceKind::Metrics);
        QCOMPARE(sample->sample->metric.str(), std::string("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"));
        QCOMPARE(sample->sample->value, 2.0);
        QCOMPARE(sample->source.line, std::uint64_t(14));
        QCOMPARE(r.verdict.rootCause->symptomId, std::string("metric_ecc_dbe@node-02/gpu3"));
        QCOMPARE(r.verdict.subDomain, std::string("gpu_memory"));
    }

    void infinibandCountersFromCsv()
    {
        const auto r =
            tests::analyzeFiles({{"workload.json", Workload}, {"ib-counters.csv", tests::fixture("ib-counters.csv")}});
        const auto* flap = tests::findSymptom(r, "metric_ib_link_flap@node-03");
        QVERIFY(flap);
        QCOMPARE(flap->attrs.at("device"), std::string("mlx5_0"));
        QCOMPARE(flap->attrs.at("increase"), std::string("1"));
        QCOMPARE(flap->firstSeen, isoTime("2026-04-22T21:33:50Z"));
    }

    void nvidiaSmiQueryCsvOnANode()
    {
        const auto r = tests::analyzeFiles(
            {{"workload.json", Workload}, {"nodes/node-05/nvidia-smi.csv", tests::fixture("nvidia-smi-query.csv")}});
        QVERIFY(tests::findSymptom(r, "metric_gpu_overheat@node-05/gpu1"));
        QVERIFY(!tests::findSymptom(r, "metric_gpu_overheat@node-05/gpu0"));
    }

    void observationsJsonl()
    {
        const auto r = tests::analyzeFiles({{"observations.jsonl", tests::fixture("observations.jsonl")}});
        QCOMPARE(r.context.workloadId, std::string("job-88"));
        QCOMPARE(r.context.platform, std::string("h100"));
        QCOMPARE(r.context.source, std::string("observations.jsonl"));
        QVERIFY(tests::findSymptom(r, "metric_xid@gpu-a02/gpu4"));
        QVERIFY(tests::findSymptom(r, "nccl_ib_completion_error@gpu-a01/gpu3"));
        QCOMPARE(r.verdict.rootCause->node, std::string("gpu-a02"));
        const auto* cov = tests::fileCoverage(r, "observations.jsonl");
        QCOMPARE(cov->skipped, std::uint64_t(2));
        QCOMPARE(cov->errors.size(), std::size_t(1));
        // Coverage follows the records' own collectors: gpu-a02's kernel log and gpu-a01's application log are
        // there (one record each); only the two the document lacks are missing.
        auto collector = [&r](engine::SourceKind kind) -> const engine::CollectorCoverage* {
            for (const auto& c : r.coverage)
                if (c.kind == kind)
                    return &c;
            return nullptr;
        };
        const auto* kernel = collector(engine::SourceKind::Kernel);
        const auto* app = collector(engine::SourceKind::App);
        QVERIFY(kernel && app);
        QCOMPARE(kernel->nodes, std::vector<std::string>{"gpu-a02"});
        QCOMPARE(kernel->lines, std::uint64_t(1));
        QCOMPARE(kernel->files, std::vector<std::string>{"observations.jsonl"});
        QCOMPARE(kernel->errors, std::vector<std::string>{"kernel log of gpu-a01 is missing"});
        QCOMPARE(app->nodes, std::vector<std::string>{"gpu-a01"});
        QCOMPARE(app->errors, std::vector<std::string>{"app log of gpu-a02 is missing"});
        QCOMPARE(r.context.collected.at("gpu-a02"), (std::vector<std::string>{"kernel", "metrics"}));
    }

    void bugReportNamesTheGpu()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        QVERIFY(tests::writeArchive((root / "nodes/node-02/nvidia-bug-report.log.gz").string(),
                                    {{"nvidia-bug-report.log", tests::fixture("nvidia-bug-report.log")}}, "gz"));
        auto outcome = tests::analyze(root.string());
        QVERIFY(outcome.result);
        const auto& r = *outcome.result;
        QCOMPARE(r.context.pciToGpu.at("node-02").at("0000:61:00"), 3);  // learned from nvidia-smi -q
        QVERIFY(r.verdict.rootCause);
        QCOMPARE(r.verdict.rootCause->node, std::string("node-02"));
        QCOMPARE(r.verdict.rootCause->gpu, 3);
        const auto* cov = tests::fileCoverage(r, "nodes/node-02/nvidia-bug-report.log.gz");
        QCOMPARE(cov->kind, engine::SourceKind::Kernel);
        QVERIFY(cov->format.find("nvidia-bug-report") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSchedulerMetrics)
#include "tst_scheduler_metrics.moc"
