// SPDX-License-Identifier: GPL-3.0-or-later
// Decisions without time, within one file: line order is time order. Two untimed symptoms whose first lines share a
// file are ordered by those lines (refinement windows, the root cause among a node's tied candidates); across files,
// or against a real time, nothing changes.
#include "../common/test_catalog.h"

#include "engine/catalog_cases.h"
#include "engine/line_order.h"
#include "engine/pipeline.h"
#include "engine/refine_eval.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::engine;

namespace {

/// An untimed symptom (an excerpt's line) whose first evidence line is observation `line`.
Symptom untimed(const Catalog& cat, const std::string& name, const std::string& node, int gpu, std::uint64_t line)
{
    Symptom s = tests::catalogSymptom(cat, name, node, gpu);
    s.evidence = {line};
    return s;
}

/// Refinement, priorities and the outcome over `s`, as correlate runs them after the early rules.
Verdict decide(const Catalog& cat, std::vector<Symptom> s, Trace& trace)
{
    s = refineSymptoms(cat, std::move(s), trace);
    ExecutionContext context;
    s = prioritizeSymptoms(cat, context, std::move(s), trace);
    return mapOutcome(cat, context, s, {}, trace);
}

const TraceStep* stepFor(const Trace& trace, const std::string& target)
{
    for (const auto& step : trace.steps())
        if (step.details.count("target") && step.details.at("target") == target)
            return &step;
    return nullptr;
}

const RefineRule& rule(const Catalog& cat, const std::string& id)
{
    for (const auto& r : cat.refineRules())
        if (r.id == id)
            return r;
    qFatal("no rule %s", id.c_str());
}

}  // namespace

class TestLineOrder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void firstLinesFindTheirFiles()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {untimed(*cat, "nccl_system_error", "", -1, 7),
                                  untimed(*cat, "nccl_remote_error", "", -1, 2)};
        s[0].evidence = {9, 7, 12};
        placeFirstLines(s, {{1, "a.log"}, {5, "b.log"}, {11, "c.log"}});
        QCOMPARE(s[0].firstFile, std::string("b.log"));
        QCOMPARE(s[0].firstObservation, std::uint64_t(7));
        QCOMPARE(s[1].firstFile, std::string("a.log"));
        QVERIFY(lineOrdered(s[0], s[0]));
        QVERIFY(!lineOrdered(s[0], s[1]));  // different files: no order
    }

    /// Xid149AndNvlinkFiltering on untimed symptoms: a target written after its cause in the same file is in order;
    /// one written before it may still be in the window's 120 s before the cause (the gap is unknown): both are
    /// demoted, with the order named; one in another file still co-occurs.
    void refineReadsLineOrderInOneFile()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {
            untimed(*cat, "nvlink_signal_integrity", "n2", 3, 5), untimed(*cat, "nccl_system_error", "n4", -1, 8),
            untimed(*cat, "nccl_remote_error", "n3", -1, 2), untimed(*cat, "collective_timeout", "n5", -1, 20)};
        placeFirstLines(s, {{1, "excerpt.txt"}, {20, "other.log"}});
        Trace trace;
        applyRefineRule(*cat, rule(*cat, "Xid149AndNvlinkFiltering"), s, trace);

        QCOMPARE(tests::symptomById(s, "nccl_system_error@n4").status, SymptomStatus::Demoted);
        const TraceStep* after = stepFor(trace, "nccl_system_error@n4");
        QVERIFY(after && after->fired);
        QCOMPARE(after->details.at("order"), std::string("line order in excerpt.txt"));
        QCOMPARE(after->details.at("target_line"), std::string("after the cause's"));

        QCOMPARE(tests::symptomById(s, "nccl_remote_error@n3").status, SymptomStatus::Demoted);
        const TraceStep* before = stepFor(trace, "nccl_remote_error@n3");
        QVERIFY(before && before->fired);
        QCOMPARE(before->details.at("target_line"), std::string("before the cause's"));
        QVERIFY2(before->details.at("window").find("admits targets up to 120.000s before") != std::string::npos,
                 before->details.at("window").c_str());

        QCOMPARE(tests::symptomById(s, "collective_timeout@n5").status,
                 SymptomStatus::Demoted);  // another file: co-occurring
        const TraceStep* other = stepFor(trace, "collective_timeout@n5");
        QVERIFY(other && !other->details.count("order"));
        QVERIFY(other->details.at("window").find("count as co-occurring") != std::string::npos);
    }

    /// RankFailureExplainsLaterWatchdogs admits no watchdog before the exception (before_s 0): a watchdog line
    /// written before the exception's in the same file happened first and is not its effect; one after it is.
    void lineOrderExcludesWhereTheWindowHasNoRoomBefore()
    {
        const auto cat = tests::sourceCatalog();
        const auto run = [&](std::uint64_t watchdogLine, const std::string& file) {
            std::vector<Symptom> s = {untimed(*cat, "app_exception", "n1", -1, 6),
                                      untimed(*cat, "collective_timeout", "n1", -1, watchdogLine)};
            placeFirstLines(s, {{1, "rank0.log"}, {4, file}});
            Trace trace;
            applyRefineRule(*cat, rule(*cat, "RankFailureExplainsLaterWatchdogs"), s, trace);
            const TraceStep* step = stepFor(trace, "collective_timeout@n1");
            return std::make_pair(tests::symptomById(s, "collective_timeout@n1").status, step ? *step : TraceStep());
        };
        const auto [earlier, notFired] = run(3, "rank0.log");  // both lines in rank0.log
        QCOMPARE(earlier, SymptomStatus::Active);
        QVERIFY(!notFired.fired);
        QCOMPARE(notFired.details.at("window_ok"), std::string("false"));
        QVERIFY2(notFired.summary.find("its line comes before the cause's in rank0.log") != std::string::npos,
                 notFired.summary.c_str());
        QCOMPARE(run(9, "rank0.log").first, SymptomStatus::Demoted);  // written after: the exception's effect
        QCOMPARE(run(3, "rank1.log").first, SymptomStatus::Demoted);  // the exception in rank1.log: co-occurring
    }

    /// A stamped target keeps its window: line order never overrides a real time.
    void realTimesAreNotOverridden()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {untimed(*cat, "nvlink_signal_integrity", "n2", 3, 5),
                                  untimed(*cat, "nccl_remote_error", "n3", -1, 2)};
        s[1].firstSeen = s[1].lastSeen = s[1].origin = CaseEpoch;
        s[1].timeSource = TimeSource::Absolute;
        placeFirstLines(s, {{1, "excerpt.txt"}});
        QVERIFY(!lineOrdered(s[0], s[1]));
        Trace trace;
        applyRefineRule(*cat, rule(*cat, "Xid149AndNvlinkFiltering"), s, trace);
        QCOMPARE(tests::symptomById(s, "nccl_remote_error@n3").status,
                 SymptomStatus::Demoted);  // co-occurring, as before
    }

    /// Two tied untimed candidates on one node, one file: the one whose line comes first is the root cause, whatever
    /// their ids' order; the outcome step and the explanation say the order came from the file's lines.
    void rootCauseIsTheFirstLineOfItsNode()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {untimed(*cat, "nvlink_signal_integrity", "n2", 0, 9),
                                  untimed(*cat, "nvlink_signal_integrity", "n2", 1, 4),
                                  untimed(*cat, "nccl_system_error", "n2", -1, 12)};
        placeFirstLines(s, {{1, "excerpt.txt"}});
        Trace trace;
        const Verdict v = decide(*cat, std::move(s), trace);
        QVERIFY(v.rootCause);
        QCOMPARE(v.rootCause->symptomId, std::string("nvlink_signal_integrity@n2/gpu1"));
        const TraceStep& outcome = trace.steps().back();
        QCOMPARE(outcome.phase, TracePhase::Outcome);
        QVERIFY2(outcome.details.at("order").rfind("line order in excerpt.txt", 0) == 0,
                 outcome.details.at("order").c_str());
        QVERIFY2(v.explanation.find("the first line of them in excerpt.txt") != std::string::npos,
                 v.explanation.c_str());
        QVERIFY(v.explanation.find("could not be checked") == std::string::npos);
    }

    /// The explanation reads the order from the file only when every explained symptom was written after the root
    /// cause; one written before it, demoted all the same (the window's room before the cause), co-occurred.
    void explanationSaysWhichOrderDecided()
    {
        const auto cat = tests::sourceCatalog();
        const auto explain = [&](std::uint64_t ncclLine) {
            std::vector<Symptom> s = {untimed(*cat, "nvlink_signal_integrity", "n2", 3, 5),
                                      untimed(*cat, "nccl_system_error", "n4", -1, ncclLine)};
            placeFirstLines(s, {{1, "excerpt.txt"}});
            Trace trace;
            return decide(*cat, std::move(s), trace).explanation;
        };
        const std::string after = explain(8);
        QVERIFY2(after.find("read from the line order of excerpt.txt") != std::string::npos, after.c_str());
        const std::string before = explain(2);
        QVERIFY2(before.find("could not be checked") != std::string::npos, before.c_str());
    }

    /// The same candidates in two files: no order between them, the first by id as before, and the explanation
    /// says the order could not be checked.
    void acrossFilesNothingChanges()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {untimed(*cat, "nvlink_signal_integrity", "n2", 0, 9),
                                  untimed(*cat, "nvlink_signal_integrity", "n2", 1, 4),
                                  untimed(*cat, "nccl_system_error", "n2", -1, 5)};
        placeFirstLines(s, {{1, "a.log"}, {6, "b.log"}});
        Trace trace;
        const Verdict v = decide(*cat, std::move(s), trace);
        QVERIFY(v.rootCause);
        QCOMPARE(v.rootCause->symptomId, std::string("nvlink_signal_integrity@n2/gpu0"));
        QVERIFY2(v.explanation.find("could not be checked") != std::string::npos, v.explanation.c_str());
    }
};

QTEST_APPLESS_MAIN(TestLineOrder)
#include "tst_line_order.moc"
