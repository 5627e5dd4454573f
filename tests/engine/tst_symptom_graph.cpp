// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph structure, tested as text (hotspot's callgraph generator test is the model).
#include "../common/test_catalog.h"

#include "engine/catalog_cases.h"
#include "engine/symptom_graph.h"
#include "importers/analyzer.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::engine;

namespace {

Symptom symptom(const std::string& id, const std::string& domain, double at,
                SymptomStatus status = SymptomStatus::Active, const std::string& rule = {},
                const std::string& cause = {})
{
    Symptom s;
    s.id = id;
    std::string node;
    splitSymptomId(id, s.name, node, s.gpu);
    s.node = node;
    s.domain = domain;
    s.count = 1;
    s.firstSeen = at < 0 ? NoTime : CaseEpoch + static_cast<TimeNs>(at * 1e9);
    s.timeSource = at < 0 ? TimeSource::None : TimeSource::Absolute;
    s.origin = s.firstSeen;
    s.status = status;
    s.statusRule = rule;
    s.causedBy = cause;
    return s;
}

TraceStep step(TracePhase phase, const std::string& rule, SymptomChange::Kind kind, const std::string& id,
               SymptomStatus to, const std::string& cause = {})
{
    TraceStep s;
    s.phase = phase;
    s.rule = rule;
    s.changes.push_back({kind, id, SymptomStatus::Active, to, "because"});
    if (!cause.empty())
        s.details["cause"] = cause;
    return s;
}

/// A small NVLink cascade: root cause, a scrubbed follow-up, two effects, a teardown without a time.
AnalysisSnapshot cascade()
{
    auto r = std::make_shared<AnalysisResult>();
    const std::string root = "nvlink_signal_integrity@n2/gpu3";
    r->symptoms = {
        symptom("gpu_channel_teardown@n2/gpu3", "gpu", 0.3, SymptomStatus::Scrubbed, "ScrubSympatheticEvents", root),
        symptom("nccl_remote_error@n3", "comm_library", 6, SymptomStatus::Demoted, "Xid149AndNvlinkFiltering", root),
        symptom(root, "nvlink", 0),
        symptom("slurm_task_exit@n2", "scheduler", -1, SymptomStatus::Demoted, "DefaultPriorityRootCause", root),
        symptom("torchrun_child_failed@n3", "application", 6.5, SymptomStatus::Demoted, "TerminationIsEffect", root)};
    for (const auto& s : r->symptoms)
        r->trace.push_back(
            step(TracePhase::Symptoms, "BuildNodeSymptoms", SymptomChange::Kind::Added, s.id, SymptomStatus::Active));
    r->trace.push_back(step(TracePhase::Scrub, "ScrubSympatheticEvents", SymptomChange::Kind::Scrubbed,
                            "gpu_channel_teardown@n2/gpu3", SymptomStatus::Scrubbed, root));
    r->trace.push_back(step(TracePhase::Refine, "Xid149AndNvlinkFiltering", SymptomChange::Kind::Demoted,
                            "nccl_remote_error@n3", SymptomStatus::Demoted, root));
    r->trace.push_back(step(TracePhase::Refine, "TerminationIsEffect", SymptomChange::Kind::Demoted,
                            "torchrun_child_failed@n3", SymptomStatus::Demoted, root));
    r->trace.push_back(step(TracePhase::Priority, "DefaultPriorityRootCause", SymptomChange::Kind::Demoted,
                            "slurm_task_exit@n2", SymptomStatus::Demoted));
    TraceStep outcome;
    outcome.phase = TracePhase::Outcome;
    outcome.rule = "OutcomeMapping";
    r->trace.push_back(outcome);
    for (std::size_t i = 0; i < r->trace.size(); ++i)
        r->trace[i].index = static_cast<std::uint32_t>(i);
    RootCause rc;
    rc.symptomId = root;
    r->verdict.rootCause = rc;
    r->verdict.terminalState = "hardware_failure";
    return r;
}

}  // namespace

class TestSymptomGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void finalGraphAsText()
    {
        const auto r = cascade();
        const auto graph = buildSymptomGraph(*r);
        const std::string expected =
            "rank 0 00:00:00.000 (+0.000s)\n"
            "  gpu_channel_teardown@n2/gpu3 gpu scrubbed [ScrubSympatheticEvents]\n"
            "  nvlink_signal_integrity@n2/gpu3 nvlink active root-cause\n"
            "rank 1 00:00:06.000 (+6.000s)\n"
            "  nccl_remote_error@n3 comm_library demoted [Xid149AndNvlinkFiltering]\n"
            "  torchrun_child_failed@n3 application demoted [TerminationIsEffect]\n"
            "rank 2 time unknown\n"
            "  slurm_task_exit@n2 scheduler demoted [DefaultPriorityRootCause]\n"
            "edge caused-by nvlink_signal_integrity@n2/gpu3 -> gpu_channel_teardown@n2/gpu3 (ScrubSympatheticEvents)\n"
            "edge caused-by nvlink_signal_integrity@n2/gpu3 -> nccl_remote_error@n3 (Xid149AndNvlinkFiltering)\n"
            "edge caused-by nvlink_signal_integrity@n2/gpu3 -> torchrun_child_failed@n3 (TerminationIsEffect)\n"
            "edge demoted-by nvlink_signal_integrity@n2/gpu3 -> slurm_task_exit@n2 (DefaultPriorityRootCause)\n"
            "edge same-node gpu_channel_teardown@n2/gpu3 -> slurm_task_exit@n2\n"
            "edge same-node nccl_remote_error@n3 -> torchrun_child_failed@n3\n"
            "edge same-node nvlink_signal_integrity@n2/gpu3 -> gpu_channel_teardown@n2/gpu3\n";
        QCOMPARE(graph.toText(), expected);
    }

    void graphAtAStepShowsOnlyWhatHappenedSoFar()
    {
        const auto r = cascade();
        const TraceReplay replay(r);
        const std::size_t afterNccl = 6;  // 5 adds, the scrub, then the NCCL demotion
        QCOMPARE(replay.step(afterNccl).rule, std::string("Xid149AndNvlinkFiltering"));
        const auto states = replay.stateAt(afterNccl);
        const auto graph = buildSymptomGraph(*r, &states, false);
        const std::string text = graph.toText();
        QVERIFY(text.find("nccl_remote_error@n3 comm_library demoted [Xid149AndNvlinkFiltering]") != std::string::npos);
        QVERIFY(text.find("torchrun_child_failed@n3 application active\n") != std::string::npos);
        QVERIFY(text.find("slurm_task_exit@n2 scheduler active\n") != std::string::npos);
        QVERIFY(text.find("root-cause") == std::string::npos);
        QVERIFY(text.find("-> torchrun_child_failed@n3 (TerminationIsEffect)") == std::string::npos);
        QVERIFY(text.find("edge caused-by nvlink_signal_integrity@n2/gpu3 -> nccl_remote_error@n3") !=
                std::string::npos);
        const auto early = replay.stateAt(1);
        QCOMPARE(buildSymptomGraph(*r, &early, false).nodes.size(), std::size_t(2));
    }

    void dotRanksLeftToRightInTime()
    {
        const auto graph = buildSymptomGraph(*cascade());
        const std::string dot = toDot(graph, [](const GraphNode&) { return std::make_pair(2.0, 0.5); });
        QVERIFY(dot.find("rankdir=LR") != std::string::npos);
        QVERIFY(dot.find("r0 -> r1 [style=invis, weight=100];") != std::string::npos);
        QVERIFY(dot.find("r1 -> r2 [style=invis, weight=100];") != std::string::npos);
        QVERIFY(dot.find("{ rank=same; r0; n0; n1; }") != std::string::npos);
        QVERIFY(dot.find("{ rank=same; r2; n4; }") != std::string::npos);
        QVERIFY(dot.find("n1 [id=\"nvlink_signal_integrity@n2/gpu3\", width=2.000, height=0.500") != std::string::npos);
        QVERIFY(dot.find("constraint=false") != std::string::npos);  // explanation edges do not rank
    }

    void sampleGraph()
    {
        const auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const auto graph = buildSymptomGraph(*outcome.result);
        QCOMPARE(graph.nodes.size(), outcome.result->symptoms.size());
        const GraphNode* root = graph.node("nvlink_signal_integrity@node-02/gpu3");
        QVERIFY(root && root->rootCause);
        const GraphNode* early = graph.node("nccl_ib_completion_error@node-03/gpu1");
        const GraphNode* late = graph.node("collective_timeout@node-01");
        QVERIFY(early && late);
        QVERIFY(early->rank < root->rank);  // NCCL noticed 2 s before the Xid line
        QVERIFY(root->rank < late->rank);
        const std::string text = graph.toText();
        QVERIFY(text.find("edge caused-by nvlink_signal_integrity@node-02/gpu3 -> nccl_remote_error@node-03 "
                          "(Xid149AndNvlinkFiltering)") != std::string::npos);
        QVERIFY(text.find("edge caused-by nvlink_signal_integrity@node-02/gpu3 -> gpu_channel_teardown@node-02/gpu3 "
                          "(ScrubSympatheticEvents)") != std::string::npos);
        QVERIFY(text.find("edge same-node ") != std::string::npos);
        for (std::size_t i = 1; i < graph.ranks.size(); ++i)
            QVERIFY(graph.ranks[i].start == NoTime || graph.ranks[i].start > graph.ranks[i - 1].start);
    }
};

QTEST_APPLESS_MAIN(TestSymptomGraph)
#include "tst_symptom_graph.moc"
