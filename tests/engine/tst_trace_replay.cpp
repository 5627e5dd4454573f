// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger's engine side over the recorded trace of the NVLink sample: statuses as of any step, the
// step that demoted each NCCL symptom, why / why-not answers, breakpoints, "which rules looked at this line".
#include "../common/guide_blocks.h"

#include "engine/trace_why.h"
#include "importers/analyzer.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::engine;

namespace {

AnalysisSnapshot analyse(const std::string& bundle, const CatalogPtr& catalog)
{
    auto outcome = importers::analyzeBundle(bundle, catalog);
    return outcome.result;
}

const SymptomState* find(const std::vector<SymptomState>& states, const std::string& id)
{
    for (const auto& s : states)
        if (s.id == id)
            return &s;
    return nullptr;
}

/// A copy of the catalog plus a probe rule whose window starts at the NVLink failure: the watchdog timeouts,
/// placed at their collective's start a fraction of a second earlier, fall outside it.
CatalogPtr windowProbeCatalog(const std::filesystem::path& dir)
{
    tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, dir);
    auto symptoms = [](const std::vector<std::pair<const char*, double>>& list) {
        auto out = nlohmann::json::array();
        for (const auto& [name, at] : list)
            out.push_back(
                {{"name", name}, {"node", std::string(name) == "collective_timeout" ? "n1" : "n2"}, {"at", at}});
        return out;
    };
    nlohmann::json rule = {{"id", "BenchWindowProbe"},
                           {"phase", "refine"},
                           {"order", 5},
                           {"when", {{"symptom", {"nvlink_signal_integrity"}}}},
                           {"scope", "any_node"},
                           {"window", {{"before_s", 0}, {"after_s", 300}}},
                           {"demote", {{"symptom", {"collective_timeout"}}}},
                           {"reason", "{target.name} follows {cause.id}"},
                           {"cases",
                            {{{"name", "inside the window"},
                              {"symptoms", symptoms({{"nvlink_signal_integrity", 0}, {"collective_timeout", 100}})},
                              {"expect", {{"symptoms", {{"collective_timeout@n1", "demoted"}}}}}},
                             {{"name", "before the cause"},
                              {"symptoms", symptoms({{"nvlink_signal_integrity", 10}, {"collective_timeout", 5}})},
                              {"expect", {{"symptoms", {{"collective_timeout@n1", "active"}}}}}}}}};
    tests::writeFile(dir / "refine" / "bench_window_probe.json",
                     nlohmann::json({{"kind", "refine"}, {"rules", {rule}}}).dump(2));
    return rules::loadCatalog(dir.string());
}

}  // namespace

class TestTraceReplay : public QObject {
    Q_OBJECT

private:
    AnalysisSnapshot m_result;
    std::unique_ptr<TraceReplay> m_replay;
    std::vector<std::string> m_ncclSymptoms;

private Q_SLOTS:
    void initTestCase()
    {
        m_result = analyse(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(m_result);
        m_replay = std::make_unique<TraceReplay>(m_result);
        for (const auto& s : m_result->symptoms)
            if (s.name.rfind("nccl_", 0) == 0)
                m_ncclSymptoms.push_back(s.id);
        QVERIFY(m_ncclSymptoms.size() >= 3);
    }

    void stepCountIsTheRecordedTrace()
    {
        QCOMPARE(m_replay->stepCount(), m_result->trace.size());
        QVERIFY(m_replay->stepCount() > 40);
        for (const auto phase : {TracePhase::Early, TracePhase::Symptoms, TracePhase::Scrub, TracePhase::Merge,
                                 TracePhase::Refine, TracePhase::Priority, TracePhase::Outcome})
            QVERIFY2(m_replay->firstStepOfPhase(phase), toString(phase));
        QVERIFY(m_replay->stateAt(TraceReplay::NoStep).empty());
    }

    void lastStepEqualsTheFinalSymptoms()
    {
        const auto last = m_replay->stateAt(m_replay->stepCount() - 1);
        QCOMPARE(last.size(), m_result->symptoms.size());
        for (const auto& s : m_result->symptoms) {
            const SymptomState* st = find(last, s.id);
            QVERIFY2(st, s.id.c_str());
            QCOMPARE(st->status, s.status);
            if (s.status != SymptomStatus::Active) {
                QCOMPARE(st->rule, s.statusRule);
                QCOMPARE(st->causedBy, s.causedBy);
            }
        }
    }

    void statusesAtChosenSteps()
    {
        const std::size_t merge = *m_replay->firstStepOfPhase(TracePhase::Merge);
        const auto atMerge = m_replay->stateAt(merge);
        QCOMPARE(atMerge.size(), m_result->symptoms.size());
        for (const auto& id : m_ncclSymptoms)
            QCOMPARE(find(atMerge, id)->status, SymptomStatus::Active);
        QCOMPARE(find(atMerge, "gpu_channel_teardown@node-02/gpu3")->status, SymptomStatus::Scrubbed);
        // Before the symptoms phase nothing is raised; while it runs, symptoms appear one step at a time.
        const std::size_t firstAdd = *m_replay->firstStepOfPhase(TracePhase::Symptoms);
        QVERIFY(m_replay->stateAt(firstAdd - 1).empty());
        const auto added = m_replay->changesAt(firstAdd);
        QCOMPARE(added.size(), std::size_t(1));
        QCOMPARE(added.front().change, StepChange::Added);
        QCOMPARE(m_replay->stateAt(firstAdd).size(), std::size_t(1));
    }

    void eachNcclSymptomIsDemotedByTheNvlinkRule()
    {
        for (const auto& id : m_ncclSymptoms) {
            const auto step = m_replay->statusStep(id);
            QVERIFY2(step, id.c_str());
            const TraceStep& s = m_replay->step(*step);
            QCOMPARE(s.rule, std::string("Xid149AndNvlinkFiltering"));
            QCOMPARE(s.phase, TracePhase::Refine);
            QCOMPARE(m_replay->symptomAt(id, *step - 1)->status, SymptomStatus::Active);
            QCOMPARE(m_replay->symptomAt(id, *step)->status, SymptomStatus::Demoted);
            QCOMPARE(m_replay->symptomAt(id, *step)->change, StepChange::Demoted);
            QCOMPARE(m_replay->symptomAt(id, *step)->causedBy, std::string("nvlink_signal_integrity@node-02/gpu3"));
            const auto changes = m_replay->changesAt(*step);
            QCOMPARE(changes.size(), std::size_t(1));
            QCOMPARE(changes.front().id, id);
        }
    }

    void whyDemotedReturnsThatStep()
    {
        for (const auto& id : m_ncclSymptoms) {
            const auto why = whyStatus(*m_replay, id);
            QCOMPARE(why.status, SymptomStatus::Demoted);
            QCOMPARE(why.step, m_replay->statusStep(id));
            const std::string expected = id + " was demoted at step " + std::to_string(*why.step) +
                " (refine, Xid149AndNvlinkFiltering) because "
                "nvlink_signal_integrity@node-02/gpu3 explains it: ";
            QVERIFY2(why.sentence.rfind(expected, 0) == 0, why.sentence.c_str());
        }
        const auto root = whyStatus(*m_replay, "nvlink_signal_integrity@node-02/gpu3");
        QCOMPARE(root.status, SymptomStatus::Active);
        QCOMPARE(m_replay->step(*root.step).phase, TracePhase::Symptoms);
        QVERIFY2(root.sentence.find("chose it as the root cause") != std::string::npos, root.sentence.c_str());
        const auto scrubbed = whyStatus(*m_replay, "gpu_channel_teardown@node-02/gpu3");
        QCOMPARE(m_replay->step(*scrubbed.step).rule, std::string("ScrubSympatheticEvents"));
        QVERIFY(!whyStatus(*m_replay, "no_such@node").step);
    }

    void resultAtAStepHidesTheFuture()
    {
        const std::size_t refine = *m_replay->firstStepOfPhase(TracePhase::Refine);
        const auto before = m_replay->resultAt(refine - 1);
        QCOMPARE(before->symptoms.size(), m_result->symptoms.size());
        for (const auto& s : before->symptoms)
            if (s.name.rfind("nccl_", 0) == 0) {
                QCOMPARE(s.status, SymptomStatus::Active);
                QVERIFY(!s.interesting);
            }
        QVERIFY(!before->verdict.rootCause);
        QCOMPARE(before->verdict.terminalState, std::string("unknown"));
        const auto last = m_replay->resultAt(m_replay->stepCount() - 1);
        QCOMPARE(last->verdict.terminalState, m_result->verdict.terminalState);
        QCOMPARE(m_replay->resultAt(TraceReplay::NoStep)->symptoms.size(), std::size_t(0));
    }

    void breakpointsAreFiltersOnSteps()
    {
        const std::vector<Breakpoint> rule{{Breakpoint::Kind::Rule, "Xid149*", true}};
        const auto first = m_replay->nextBreak(TraceReplay::NoStep, rule);
        QVERIFY(first);
        QCOMPARE(m_replay->step(*first).rule, std::string("Xid149AndNvlinkFiltering"));
        QVERIFY(!m_replay->previousBreak(*first, rule));
        const std::vector<Breakpoint> symptom{{Breakpoint::Kind::Symptom, "nccl_remote_error", true}};
        const auto raised = m_replay->nextBreak(TraceReplay::NoStep, symptom);
        QCOMPARE(m_replay->step(*raised).phase, TracePhase::Symptoms);
        const auto demoted = m_replay->nextBreak(*raised, symptom);
        QCOMPARE(demoted, m_replay->statusStep("nccl_remote_error@node-03"));
        QCOMPARE(m_replay->previousBreak(*demoted, symptom), raised);
        const std::vector<Breakpoint> node{{Breakpoint::Kind::Node, "node-03", true}};
        for (auto at = m_replay->nextBreak(TraceReplay::NoStep, node); at; at = m_replay->nextBreak(*at, node))
            QVERIFY(m_replay->hits(*at, node.front()));
        const std::vector<Breakpoint> disabled{{Breakpoint::Kind::Rule, "*", false}};
        QVERIFY(!m_replay->nextBreak(TraceReplay::NoStep, disabled));
    }

    void whyNotExplainsAWindowThatExcludedAnEvent()
    {
        QTemporaryDir tmp;
        const auto catalog = windowProbeCatalog(std::filesystem::path(tmp.path().toStdString()) / "rules");
        bool loaded = false;
        for (const auto& r : catalog->refineRules())
            loaded = loaded || r.id == "BenchWindowProbe";
        for (const auto& d : catalog->diagnostics())
            if (d.rule == "BenchWindowProbe")
                qWarning("%s", d.str().c_str());
        QVERIFY2(loaded, "the probe rule must pass its inline cases");
        const auto result = analyse(tests::samplePath("nvlink-xid149"), catalog);
        QVERIFY(result);
        const TraceReplay replay(result);
        const auto why = whyNot(replay, "BenchWindowProbe", catalog.get());
        QCOMPARE(why.firedSteps, std::size_t(0));
        const Evaluation* excluded = nullptr;
        for (const auto& e : why.evaluations)
            if (e.target == "collective_timeout@node-01")
                excluded = &e;
        QVERIFY2(excluded, why.summary.c_str());
        QCOMPARE(excluded->cause, std::string("nvlink_signal_integrity@node-02/gpu3"));
        QVERIFY(!replay.step(excluded->step).fired);
        bool window = false, scope = false;
        for (const auto& c : excluded->conditions) {
            if (c.name == "window") {
                QCOMPARE(c.holds, std::optional<bool>(false));
                QVERIFY2(c.value.find("target origin -0.165s from the cause") != std::string::npos, c.value.c_str());
                QVERIFY2(c.value.find("[+0.000s, +300.000s]") != std::string::npos, c.value.c_str());
                window = true;
            }
            if (c.name == "scope") {
                QCOMPARE(c.holds, std::optional<bool>(true));
                scope = true;
            }
        }
        QVERIFY(window && scope);
        QVERIFY2(excluded->sentence.find("window failed") != std::string::npos, excluded->sentence.c_str());
        QVERIFY2(why.summary.find("fired 0 time(s) and did not fire") != std::string::npos, why.summary.c_str());
        // The NVLink rule, whose window reaches 2 min back, still explains it.
        const auto status = whyStatus(replay, "collective_timeout@node-01");
        QCOMPARE(status.status, SymptomStatus::Demoted);
        QCOMPARE(replay.step(*status.step).rule, std::string("Xid149AndNvlinkFiltering"));
    }

    void whyNotForRulesThatLeftNoStep()
    {
        const auto catalog = tests::sourceCatalog();
        const auto silent = whyNot(*m_replay, "spank_container_argument", catalog.get());
        QVERIFY2(silent.summary.find("is an extractor and no line of its sources") != std::string::npos,
                 silent.summary.c_str());
        const auto unknown = whyNot(*m_replay, "NoSuchRule", catalog.get());
        QVERIFY2(unknown.summary.find("not in the active catalog") != std::string::npos, unknown.summary.c_str());
        QVERIFY(unknown.evaluations.empty());
    }

    void rulesThatLookedAtTheXidLine()
    {
        const auto catalog = tests::sourceCatalog();
        const std::uint64_t xid = m_result->verdict.rootCause->decisiveObservation;
        const auto looks = rulesThatLookedAt(*m_replay, *catalog, xid);
        bool extractorMatched = false, extractorMissed = false, stepUsed = false;
        for (const auto& l : looks) {
            if (l.phase == TracePhase::Extract) {
                extractorMatched = extractorMatched || l.matched;
                extractorMissed = extractorMissed || !l.matched;
                QVERIFY(l.matched || !l.step);  // a matching extractor links to its extract step, if recorded
            } else {
                QVERIFY(l.step);
                stepUsed = stepUsed || l.rule == "BuildNodeSymptoms";
            }
        }
        QVERIFY(extractorMatched);
        QVERIFY(extractorMissed);  // every kernel extractor saw the line through the RE2::Set
        QVERIFY(stepUsed);
        QVERIFY(rulesThatLookedAt(*m_replay, *catalog, 0).empty());
    }
};

QTEST_APPLESS_MAIN(TestTraceReplay)
#include "tst_trace_replay.moc"
