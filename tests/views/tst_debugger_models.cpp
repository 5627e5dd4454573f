// SPDX-License-Identifier: GPL-3.0-or-later
// The rule debugger's models (each under QAbstractItemModelTester) and the debugger widget over the recorded
// trace of the NVLink sample.
#include "../common/test_catalog.h"

#include "engine/trace_why.h"
#include "importers/analyzer.h"
#include "views/debugger/rule_debugger.h"
#include "views/debugger/rule_look_model.h"
#include "views/debugger/why_not_model.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestDebuggerModels : public QObject {
    Q_OBJECT

private:
    ReplayPtr m_replay;
    std::size_t m_remoteDemoted = 0;

    static void attachTester(QAbstractItemModel* model)
    {
        new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, model);
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        m_replay = std::make_shared<const engine::TraceReplay>(engine::AnalysisSnapshot(outcome.result));
        m_remoteDemoted = *m_replay->statusStep("nccl_remote_error@node-03");
    }

    void stepModel()
    {
        TraceStepModel model;
        attachTester(&model);
        model.setReplay(m_replay);
        QCOMPARE(model.rowCount(), static_cast<int>(m_replay->stepCount()));
        const int row = static_cast<int>(m_remoteDemoted);
        QCOMPARE(model.index(row, TraceStepModel::RuleColumn).data().toString(),
                 QStringLiteral("Xid149AndNvlinkFiltering"));
        QCOMPARE(model.index(row, TraceStepModel::PhaseColumn).data().toString(), QStringLiteral("refine"));
        QVERIFY(model.index(row, 0).data(TraceStepModel::FiredRole).toBool());
        model.setBreakpoints({{engine::Breakpoint::Kind::Symptom, "nccl_remote_error", true}});
        QVERIFY(model.index(row, 0).data(TraceStepModel::BreakpointHitRole).toBool());
        QVERIFY(model.index(row, 0).data().toString().startsWith(QStringLiteral("\u25cf")));
        QVERIFY(!model.index(0, 0).data(TraceStepModel::BreakpointHitRole).toBool());
        model.setCurrentStep(row);
        QVERIFY(model.index(row, 1).data(Qt::FontRole).value<QFont>().bold());
        model.setReplay(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void stateModelHighlightsTheChange()
    {
        SymptomStateModel model;
        attachTester(&model);
        model.setStep(m_replay, static_cast<int>(m_remoteDemoted));
        const int row = model.rowOf(QStringLiteral("nccl_remote_error@node-03"));
        QVERIFY(row >= 0);
        QCOMPARE(model.index(row, SymptomStateModel::StatusColumn).data().toString(), QStringLiteral("demoted"));
        QCOMPARE(model.index(row, SymptomStateModel::ChangeColumn).data().toString(), QStringLiteral("demoted"));
        QCOMPARE(model.index(row, 0).data(Qt::BackgroundRole).value<QColor>(),
                 SymptomStateModel::changeColor(engine::StepChange::Demoted));
        const int other = model.rowOf(QStringLiteral("nvlink_signal_integrity@node-02/gpu3"));
        QVERIFY(!model.index(other, 0).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.index(other, SymptomStateModel::StatusColumn).data().toString(), QStringLiteral("active"));
        model.setStep(m_replay, static_cast<int>(m_remoteDemoted) - 1);
        QCOMPARE(model.index(model.rowOf(QStringLiteral("nccl_remote_error@node-03")), SymptomStateModel::StatusColumn)
                     .data()
                     .toString(),
                 QStringLiteral("active"));
        model.setStep(m_replay, -1);
        QCOMPARE(model.rowCount(), 0);
    }

    void detailsModelShowsBindingsAndConditions()
    {
        StepDetailsModel model;
        attachTester(&model);
        model.setStep(m_replay, static_cast<int>(m_remoteDemoted));
        QVERIFY(model.rowCount() >= 4);
        QCOMPARE(model.value(QStringLiteral("Step"), QStringLiteral("rule")),
                 QStringLiteral("Xid149AndNvlinkFiltering"));
        QCOMPARE(model.value(QStringLiteral("Bound"), QStringLiteral("node")), QStringLiteral("node-03"));
        QVERIFY(!model.value(QStringLiteral("Bound"), QStringLiteral("window start")).isEmpty());
        QVERIFY(
            model.value(QStringLiteral("Conditions"), QStringLiteral("window")).contains(QStringLiteral("+7.752s")));
        QCOMPARE(model.value(QStringLiteral("Conditions"), QStringLiteral("cause")),
                 QStringLiteral("nvlink_signal_integrity@node-02/gpu3"));
        QVERIFY(model.value(QStringLiteral("Changes"), QStringLiteral("nccl_remote_error@node-03"))
                    .startsWith(QStringLiteral("demoted (active \u2192 demoted)")));
        bool holdsMarked = false;
        for (int s = 0; s < model.rowCount(); ++s)
            for (int r = 0; r < model.rowCount(model.index(s, 0)); ++r)
                holdsMarked =
                    holdsMarked || model.index(r, 0, model.index(s, 0)).data(StepDetailsModel::HoldsRole).toBool();
        QVERIFY(holdsMarked);
        model.setStep(m_replay, -1);
        QCOMPARE(model.rowCount(), 0);
    }

    void breakpointModel()
    {
        BreakpointModel model;
        attachTester(&model);
        model.setReplay(m_replay);
        QSignalSpy changed(&model, &BreakpointModel::breakpointsChanged);
        QCOMPARE(model.addBreakpoint(engine::Breakpoint::Kind::Rule, QStringLiteral("Xid149AndNvlinkFiltering")), 0);
        QCOMPARE(model.addBreakpoint(engine::Breakpoint::Kind::Node, QStringLiteral("node-0*")), 1);
        QCOMPARE(model.addBreakpoint(engine::Breakpoint::Kind::Rule, QStringLiteral("Xid149AndNvlinkFiltering")), 0);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.index(0, BreakpointModel::HitsColumn).data().toInt() >= 3);
        QVERIFY(model.setData(model.index(0, 0), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!model.breakpoints().front().enabled);
        model.removeBreakpoint(1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(changed.count(), 4);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void whyNotAndLookModels()
    {
        WhyNotModel whyNot;
        attachTester(&whyNot);
        engine::WhyNot answer;
        answer.rule = "R";
        answer.evaluations.push_back({3, "t@n", "c@m", {{"scope", "any_node", true}, {"window", "x", false}}, "s"});
        answer.evaluations.push_back({5, "", "", {}, "no cause"});
        whyNot.setAnswer(answer);
        QCOMPARE(whyNot.rowCount(), 2);
        QCOMPARE(whyNot.rowCount(whyNot.index(0, 0)), 2);
        QCOMPARE(whyNot.index(1, 0, whyNot.index(0, 0)).data(WhyNotModel::HoldsRole).toBool(), false);
        QCOMPARE(whyNot.index(1, 0, whyNot.index(0, 0)).data(WhyNotModel::StepRole).toInt(), 3);
        QCOMPARE(whyNot.index(0, 0).data().toString(), QStringLiteral("step 3: t@n"));

        RuleLookModel looks;
        attachTester(&looks);
        const auto& r = m_replay->result();
        looks.setLooks(
            engine::rulesThatLookedAt(*m_replay, *tests::sourceCatalog(), r.verdict.rootCause->decisiveObservation));
        QVERIFY(looks.rowCount() > 2);
        QCOMPARE(looks.index(0, RuleLookModel::ResultColumn).data().toString(), QStringLiteral("matched"));
        const int lastRow = looks.rowCount() - 1;  // a later step, or an extractor that did not match
        QVERIFY(looks.index(lastRow, RuleLookModel::StepColumn).data().isValid() ||
                looks.index(lastRow, RuleLookModel::ResultColumn).data().toString() == QStringLiteral("no match"));
    }

    void debuggerStepsThroughTheTrace()
    {
        RuleDebugger debugger;
        debugger.resize(1200, 700);
        QSignalSpy steps(&debugger, &RuleDebugger::currentStepChanged);
        debugger.setReplay(m_replay, tests::sourceCatalog());
        const int last = static_cast<int>(m_replay->stepCount()) - 1;
        QCOMPARE(debugger.currentStep(), last);
        debugger.first();
        QCOMPARE(debugger.currentStep(), 0);
        debugger.back();
        QCOMPARE(debugger.currentStep(), 0);
        debugger.forward();
        debugger.forward();
        QCOMPARE(debugger.currentStep(), 2);
        QCOMPARE(debugger.stepModel()->index(2, 0).data(Qt::FontRole).value<QFont>().bold(), true);
        QVERIFY(!debugger.runToBreakpoint());  // no breakpoints yet
        debugger.breakpointModel()->addBreakpoint(engine::Breakpoint::Kind::Symptom,
                                                  QStringLiteral("nccl_remote_error"));
        QVERIFY(debugger.runToBreakpoint());
        QCOMPARE(m_replay->step(static_cast<std::size_t>(debugger.currentStep())).phase, engine::TracePhase::Symptoms);
        QVERIFY(debugger.runToBreakpoint());
        QCOMPARE(debugger.currentStep(), static_cast<int>(m_remoteDemoted));
        QTRY_COMPARE(debugger.stateModel()->step(), static_cast<int>(m_remoteDemoted));
        QCOMPARE(debugger.detailsModel()->step(), static_cast<int>(m_remoteDemoted));
        QVERIFY(debugger.runBackToBreakpoint());
        QCOMPARE(m_replay->step(static_cast<std::size_t>(debugger.currentStep())).phase, engine::TracePhase::Symptoms);
        debugger.last();
        QCOMPARE(debugger.currentStep(), last);
        QVERIFY(steps.count() >= 7);
    }

    void debuggerAnswersWhyQuestions()
    {
        RuleDebugger debugger;
        debugger.setReplay(m_replay, tests::sourceCatalog());
        QSignalSpy selected(&debugger, &RuleDebugger::symptomSelected);
        const auto why = debugger.whyStatus(QStringLiteral("nccl_remote_error@node-03"));
        QCOMPARE(why.step, std::optional<std::size_t>(m_remoteDemoted));
        QCOMPARE(debugger.currentStep(), static_cast<int>(m_remoteDemoted));
        QVERIFY(debugger.answerText().contains(QStringLiteral("was demoted at step")));
        QTRY_COMPARE(debugger.stateModel()->step(), static_cast<int>(m_remoteDemoted));
        QCOMPARE(debugger.stateView()->currentIndex().row(),
                 debugger.stateModel()->rowOf(QStringLiteral("nccl_remote_error@node-03")));
        QVERIFY(debugger.evidencePanel()->lineCount() >= 1);
        QCOMPARE(selected.count(), 0);  // programmatic selection does not echo back
        const auto looks = debugger.rulesForObservation(debugger.evidencePanel()->observationAt(0));
        QVERIFY(!looks.empty());
        QCOMPARE(debugger.whyPanel()->lookModel()->rowCount(), static_cast<int>(looks.size()));
        const auto whyNot = debugger.whyNot(QStringLiteral("TerminationIsEffect"));
        QVERIFY(whyNot.firedSteps > 0);
        QVERIFY(debugger.answerText().contains(QStringLiteral("Why didn't TerminationIsEffect fire?")));
    }
};

QTEST_MAIN(TestDebuggerModels)
#include "tst_debugger_models.moc"
