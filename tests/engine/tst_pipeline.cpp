// SPDX-License-Identifier: GPL-3.0-or-later
// Each pipeline phase on its own: extract, early rules, symptoms, scrub, merge, refine, priority, outcome.
#include "../common/test_catalog.h"

#include "engine/catalog_cases.h"
#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/lazy_regex.h"
#include "engine/pci.h"
#include "engine/pipeline.h"

#include <QtTest>

#include <re2/re2.h>

using namespace attrib;
using namespace attrib::engine;

namespace {

Event makeEvent_(const std::string& symptom, const std::string& node, double at, int gpu = -1)
{
    Event e;
    e.type = "test";
    e.symptom = symptom;
    e.node = node;
    e.gpu = gpu;
    e.time = CaseEpoch + static_cast<TimeNs>(at * 1e9);
    e.timeSource = TimeSource::Absolute;
    return e;
}

}  // namespace

class TestPipeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void extractUsesOneSetPerSourceKind()
    {
        const auto cat = tests::sourceCatalog();
        ExtractorSet set(cat->extractors());
        std::vector<LineMatch> out;
        const std::string xid = "NVRM: Xid (PCI:0000:61:00): 79, pid=1, name=x, GPU has fallen off the bus.";
        QVERIFY(set.match(SourceKind::Kernel, xid, out));
        QCOMPARE(out.front().rule->id, std::string("nvrm_xid"));
        QCOMPARE(out.front().captures.at("xid"), std::string("79"));
        out.clear();
        QVERIFY(!set.match(SourceKind::FabricManager, xid, out));  // Xid rules do not read Fabric Manager's log
        QVERIFY(!set.match(SourceKind::Kernel, "EXT4-fs (nvme0n1p2): mounted filesystem", out));
    }

    void makeEventTakesNodeAndTimeFromCaptures()
    {
        const auto cat = tests::sourceCatalog();
        ExtractorSet set(cat->extractors());
        std::vector<LineMatch> out;
        Observation obs;
        obs.id = 7;
        obs.node = "";
        const std::string line =
            "slurmstepd: error: *** STEP 9.0 ON gpu-1 CANCELLED AT 2026-02-01T10:00:00 DUE TO TIME LIMIT ***";
        QVERIFY(set.match(SourceKind::Slurm, line, out));
        const Event e = makeEvent(out.front(), obs);
        QCOMPARE(e.symptom, std::string("slurm_time_limit"));
        QCOMPARE(e.node, std::string());  // job-wide
        QCOMPARE(formatTime(e.time), std::string("2026-02-01T10:00:00.000000Z"));
        out.clear();
        QVERIFY(set.match(SourceKind::Slurm, "srun: error: GPU-17.cluster: task 3: Exited with exit code 2", out));
        QCOMPARE(makeEvent(out.front(), obs).node, std::string("gpu-17"));
        out.clear();  // a host named by its address stays whole (it was cut to "10" at the first dot)
        QVERIFY(set.match(SourceKind::Slurm, "srun: error: 10.0.0.5: task 3: Exited with exit code 2", out));
        QCOMPARE(makeEvent(out.front(), obs).node, std::string("10.0.0.5"));
    }

    void aliasedGroupsSetOneField()
    {
        ExtractorRule rule;
        rule.re = std::make_shared<const LazyRegex>(
            R"(GPU (?P<gpu__a>\d+) lost|lost GPU#(?P<gpu__b>\d+) on (?P<node>\S+))", re2::RE2::Options(), 0);
        QVERIFY(rule.re->regex().ok());
        engine::AttrMap captures;
        QVERIFY(matchRule(rule, "kernel: lost GPU#5 on n7", captures));
        QCOMPARE(captures.size(), std::size_t(2));
        QCOMPARE(captures.at("gpu"), std::string("5"));
        QCOMPARE(captures.at("node"), std::string("n7"));
        captures.clear();
        QVERIFY(matchRule(rule, "GPU 3 lost", captures));
        QCOMPARE(captures.at("gpu"), std::string("3"));
        QVERIFY(!captures.count("gpu__a"));
    }

    void pciForms()
    {
        QCOMPARE(normalizePci("00000000:1B:00.0"), std::string("0000:1b:00"));
        QCOMPARE(normalizePci("PCI:0009:01:00"), std::string("0009:01:00"));
        QCOMPARE(normalizePci("1b:00.0"), std::string("0000:1b:00"));
        QCOMPARE(pciFromNcclBusId("61000"), std::string("0000:61:00"));
        QCOMPARE(pciFromNcclBusId("901000"), std::string("0009:01:00"));
        QCOMPARE(pciFromNcclBusId("1b000"), std::string("0000:1b:00"));
    }

    void buildGroupsByNameNodeGpu()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        std::vector<Event> events = {makeEvent_("nccl_remote_error", "n1", 5), makeEvent_("nccl_remote_error", "n1", 2),
                                     makeEvent_("nccl_remote_error", "n2", 3), makeEvent_("not_registered", "n1", 1)};
        sortAndNumberEvents(events);
        const auto symptoms = buildNodeSymptoms(*cat, events, trace);
        QCOMPARE(symptoms.size(), std::size_t(2));
        const Symptom& s = tests::symptomById(symptoms, "nccl_remote_error@n1");
        QCOMPARE(s.count, 2u);
        QCOMPARE(s.firstSeen, CaseEpoch + 2 * NsPerSec);
        QCOMPARE(s.lastSeen, CaseEpoch + 5 * NsPerSec);
        QCOMPARE(s.domain, std::string("comm_library"));
        bool unregisteredTraced = false;
        for (const auto& step : trace.steps())
            unregisteredTraced = unregisteredTraced || step.action == TraceAction::Unregistered;
        QVERIFY(unregisteredTraced);
    }

    void stampedTimesBeatInheritedOnes()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        Event early = makeEvent_("collective_timeout", "n1", 10);
        early.timeSource = TimeSource::Inherited;  // an unstamped line after a 10 s step line
        Event stamped = makeEvent_("collective_timeout", "n1", 600);
        std::vector<Event> events = {early, stamped};
        sortAndNumberEvents(events);
        const auto s = buildNodeSymptoms(*cat, events, trace);
        QCOMPARE(s.front().firstSeen, CaseEpoch + 600 * NsPerSec);
        QCOMPARE(s.front().timeSource, TimeSource::Absolute);
    }

    void originSubtractsTheTimeout()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        Event e = makeEvent_("collective_timeout", "n1", 700);
        e.attrs["timeout_ms"] = "600000";
        std::vector<Event> events = {e};
        sortAndNumberEvents(events);
        const auto s = buildNodeSymptoms(*cat, events, trace);
        QCOMPARE(s.front().origin, CaseEpoch + 100 * NsPerSec);
    }

    void scrubSympatheticNeedsItsPrimary()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        Event primary = makeEvent_("nvlink_signal_integrity", "n2", 0, 3);
        Event follow = makeEvent_("gpu_channel_teardown", "n2", 0.3, 3);
        follow.sympathetic = true;
        follow.attrs["follows"] = "nvlink_signal_integrity@n2/gpu3";
        Event orphan = makeEvent_("gpu_channel_teardown", "n5", 0.3, 1);
        orphan.sympathetic = true;
        orphan.attrs["follows"] = "nvlink_signal_integrity@n5/gpu1";
        std::vector<Event> events = {primary, follow, orphan};
        sortAndNumberEvents(events);
        auto symptoms = scrubNodeSymptoms(*cat, buildNodeSymptoms(*cat, events, trace), trace);
        QCOMPARE(tests::symptomById(symptoms, "gpu_channel_teardown@n2/gpu3").status, SymptomStatus::Scrubbed);
        QCOMPARE(tests::symptomById(symptoms, "gpu_channel_teardown@n2/gpu3").causedBy,
                 std::string("nvlink_signal_integrity@n2/gpu3"));
        QCOMPARE(tests::symptomById(symptoms, "gpu_channel_teardown@n5/gpu1").status, SymptomStatus::Active);
    }

    void mergeCombinesSameIds()
    {
        Trace trace;
        Symptom a;
        a.id = "x@n1";
        a.count = 1;
        a.firstSeen = a.lastSeen = a.origin = 10;
        a.evidence = {1};
        Symptom b = a;
        b.firstSeen = b.origin = 5;
        b.lastSeen = 20;
        b.evidence = {2};
        Symptom c = a;
        c.id = "a@n0";
        const auto merged = mergeSymptoms({a, b, c}, trace);
        QCOMPARE(merged.size(), std::size_t(2));
        QCOMPARE(merged[0].id, std::string("a@n0"));  // sorted by id
        QCOMPARE(merged[1].count, 2u);
        QCOMPARE(merged[1].firstSeen, TimeNs(5));
        QCOMPARE(merged[1].lastSeen, TimeNs(20));
    }

    void refineRecordsWhyNot()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        PipelineCase pc;
        pc.input = nlohmann::json::parse(R"json({"symptoms": [
            {"name": "nvlink_signal_integrity", "node": "n2", "gpu": 3, "at": 1000},
            {"name": "nccl_remote_error", "node": "n3", "at": 0},
            {"name": "nccl_system_error", "node": "n4", "at": 1003}]})json");
        const auto run = runPipelineCase(*cat, pc, TracePhase::Refine, "Xid149AndNvlinkFiltering", nullptr, trace);
        QCOMPARE(tests::symptomById(run.symptoms, "nccl_remote_error@n3").status, SymptomStatus::Active);
        QCOMPARE(tests::symptomById(run.symptoms, "nccl_system_error@n4").status, SymptomStatus::Demoted);
        QVERIFY(tests::symptomById(run.symptoms, "nccl_system_error@n4").interesting);
        bool whyNot = false;
        for (const auto& step : trace.steps()) {
            if (!step.fired && step.rule == "Xid149AndNvlinkFiltering" && step.details.count("window_ok")) {
                QCOMPARE(step.details.at("window_ok"), std::string("false"));
                QCOMPARE(step.details.at("target_origin_minus_cause"), std::string("-1000.000s"));
                whyNot = true;
            }
        }
        QVERIFY(whyNot);
    }

    void outcomeAmbiguousNamesMissingEvidence()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        PipelineCase pc;
        pc.input = nlohmann::json::parse(
            R"json({"context": {"platform": "gb200", "collected": {"n1": ["kernel", "app"], "n7": ["app"]}},
            "symptoms": [{"name": "nvlink_signal_integrity", "node": "n1", "gpu": 0, "at": 0},
                         {"name": "nvlink_signal_integrity", "node": "n7", "gpu": 2, "at": 2}]})json");
        pc.expect = nlohmann::json::object();
        const auto run = runPipelineCase(*cat, pc, TracePhase::Priority, "", cat->priorityTable("gb200"), trace);
        QCOMPARE(run.verdict.terminalState, std::string("ambiguous"));
        QCOMPARE(run.verdict.candidates.size(), std::size_t(2));
        QVERIFY(run.verdict.candidates[0].separatedBy.find("kernel log of n7 is missing") != std::string::npos);
        QVERIFY(!run.verdict.rootCause);
    }

    void outcomeMapsTemplates()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        PipelineCase pc;
        pc.input = nlohmann::json::parse(
            R"json({"symptoms": [{"name": "nvlink_signal_integrity", "node": "n2", "gpu": 3, "at": 0,
            "attrs": {"xid": "149", "subcode": "NETIR_LINK_EVT", "link": "7", "reason": "43", "reason_name": "too_many"}}]})json");
        const auto run = runPipelineCase(*cat, pc, TracePhase::Priority, "", nullptr, trace);
        QVERIFY(run.verdict.rootCause);
        QCOMPARE(run.verdict.terminalState, std::string("hardware_failure"));
        QCOMPARE(run.verdict.action.target, std::string("n2/gpu3"));
        QVERIFY(run.verdict.action.action.find("drain n2, reset GPU 3") != std::string::npos);
        QVERIFY(run.verdict.rootCause->summary.find("reason 43") != std::string::npos);
    }

    void correlateNamesEachPhase()
    {
        struct Recorder : ProgressSink {
            std::vector<std::pair<ProgressStage, std::uint64_t>> seen;
            void progress(ProgressStage stage, std::uint64_t done, std::uint64_t total) override
            {
                QCOMPARE(total, EnginePhaseCount);
                seen.emplace_back(stage, done);
            }
        } recorder;
        const auto cat = tests::sourceCatalog();
        Trace trace;
        std::vector<Event> events{makeEvent_("nvlink_signal_integrity", "n1", 0, 0)};
        const Correlation c = correlate(*cat, ExecutionContext(), std::move(events), trace, &recorder);
        QVERIFY(!c.verdict.terminalState.empty());
        const std::vector<ProgressStage> order{ProgressStage::ClockSkew, ProgressStage::EarlyRules,
                                               ProgressStage::Symptoms,  ProgressStage::Refine,
                                               ProgressStage::Priority,  ProgressStage::Outcome};
        QCOMPARE(recorder.seen.size(), order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            QVERIFY(recorder.seen[i].first == order[i]);
            QCOMPARE(recorder.seen[i].second, i + 1);
            QVERIFY(std::string(toString(order[i])).size() > 3);  // a name a front end can show
        }
    }

    /// One C++ implementation behind two catalog entries: each entry's steps carry its own id and wording.
    void codeRuleStepsNameTheirEntry()
    {
        const auto cat = tests::sourceCatalog();
        const auto run = [&](const std::string& startType, const std::string& entry) {
            Event open = makeEvent_("", "n1", 0);
            open.type = startType;
            open.rank = 0;
            Event timeout = makeEvent_("", "n2", 1801);
            timeout.type = "watchdog_timeout";
            timeout.rank = 2;
            timeout.attrs["timeout_ms"] = "1800000";
            std::vector<Event> events = {open, timeout};
            sortAndNumberEvents(events);
            ExecutionContext context;
            Trace trace;
            runEarlyRules(*cat, std::move(events), context, trace, entry);
            std::vector<TraceStep> fired;
            for (const auto& step : trace.steps())
                if (step.fired && step.action == TraceAction::CheckpointOutlasts)
                    fired.push_back(step);
            return fired;
        };
        const auto save = run("checkpoint_save_start", "CheckpointOutlastsCollective");
        QCOMPARE(save.size(), std::size_t(1));
        QCOMPARE(save.front().rule, std::string("CheckpointOutlastsCollective"));
        QVERIFY2(save.front().summary.rfind("checkpoint save started on n1", 0) == 0, save.front().summary.c_str());
        const auto data = run("data_progress_open", "PreprocessingOutlastsCollective");
        QCOMPARE(data.size(), std::size_t(1));
        QCOMPARE(data.front().rule, std::string("PreprocessingOutlastsCollective"));
        QVERIFY2(data.front().summary.rfind("one-rank data step started on n1", 0) == 0, data.front().summary.c_str());
    }

    void timeFormatting()
    {
        QCOMPARE(formatTime(parseIsoTime("2026-04-22T21:34:20.118251Z")), std::string("2026-04-22T21:34:20.118251Z"));
        QCOMPARE(parseIsoTime("2026-04-22T23:34:20+02:00"), parseIsoTime("2026-04-22T21:34:20Z"));
        QCOMPARE(formatTime(2040 * NsPerSec + 5000, TimeSource::BootRelative), std::string("+2040.000005s since boot"));
        QCOMPARE(parseIsoTime("not a time"), NoTime);
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
