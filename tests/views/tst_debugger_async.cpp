// SPDX-License-Identifier: GPL-3.0-or-later
// The rule debugger computes the symptom set at a step off the GUI thread (views::StepStateJob over the views'
// JobRunner): the state arrives and equals TraceReplay::stateAt, rapid steps deliver only the last step's state,
// the state model is only ever changed on the GUI thread, keyboard stepping moves at once while a state is
// computed, and a step whose state is slow shows "Computing" over the previous (greyed) rows, not a blank pane.
#include "../common/test_catalog.h"

#include "importers/analyzer.h"
#include "views/debugger/rule_debugger.h"
#include "views/job_runner.h"

#include <QSemaphore>
#include <QTableView>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>

using namespace attrib;
using namespace attrib::views;

namespace {

/// Occupies every thread of the jobs' pool until destroyed: a job started meanwhile cannot run.
class PoolBlocker {
public:
    PoolBlocker()
        : m_threads(views::jobThreadPool()->maxThreadCount())
    {
        for (int i = 0; i < m_threads; ++i)
            views::jobThreadPool()->start([this] {
                m_started.release();
                m_release.acquire();
            });
        m_started.acquire(m_threads);
    }
    ~PoolBlocker() { release(); }
    PoolBlocker(const PoolBlocker&) = delete;
    PoolBlocker& operator=(const PoolBlocker&) = delete;
    void release()
    {
        if (m_released)
            return;
        m_released = true;
        m_release.release(m_threads);
    }

private:
    int m_threads;
    bool m_released = false;
    QSemaphore m_started;
    QSemaphore m_release;
};

void compareStates(const std::vector<engine::SymptomState>& shown, const std::vector<engine::SymptomState>& expected)
{
    QCOMPARE(shown.size(), expected.size());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        QCOMPARE(shown[i].id, expected[i].id);
        QCOMPARE(shown[i].status, expected[i].status);
        QCOMPARE(shown[i].change, expected[i].change);
        QCOMPARE(shown[i].setAt, expected[i].setAt);
        QCOMPARE(shown[i].rule, expected[i].rule);
        QCOMPARE(shown[i].reason, expected[i].reason);
        QCOMPARE(shown[i].causedBy, expected[i].causedBy);
        QCOMPARE(shown[i].untouched, expected[i].untouched);
    }
}

}  // namespace

class TestDebuggerAsync : public QObject {
    Q_OBJECT

private:
    ReplayPtr m_replay;
    int m_demoted = 0;

    void openReplay(RuleDebugger& debugger)
    {
        debugger.setReplay(m_replay, tests::sourceCatalog());
        QTRY_VERIFY(!debugger.stateComputing());
        QCOMPARE(debugger.stateModel()->step(), debugger.stepCount() - 1);
    }

private Q_SLOTS:
    void jobsRunOutsideQtsGlobalPool()
    {
        // Qt's raster painting uses the global pool: a long job there would stop the window repainting.
        QObject owner;
        JobRunner runner(&owner);
        QSemaphore started;
        QSemaphore release;
        const int globalBefore = QThreadPool::globalInstance()->activeThreadCount();
        runner.start<int>(
            [&](QPromise<int>&, const auto&) {
                started.release();
                release.acquire();
            },
            JobHandlers<int>{});
        started.acquire();
        QCOMPARE(jobThreadPool()->activeThreadCount(), 1);
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), globalBefore);
        release.release();
        runner.waitForIdle();
    }

    void destroyingTheRunnerWaitsForSupersededJobsToo()
    {
        // A superseded job may still use what the owner holds: the runner must not outlive it.
        QObject owner;
        std::atomic<bool> firstEnded{false};
        QSemaphore firstStarted;
        {
            JobRunner runner(&owner);
            runner.start<int>(
                [&](QPromise<int>&, const engine::CancelFlag& cancelled) {
                    firstStarted.release();
                    while (!cancelled)
                        QThread::msleep(1);
                    QThread::msleep(100);  // winding down after the cancel, as a real job does
                    firstEnded = true;
                },
                JobHandlers<int>{});
            firstStarted.acquire();
            runner.start<int>([](QPromise<int>&, const engine::CancelFlag&) {}, JobHandlers<int>{});
        }
        QVERIFY(firstEnded);
    }

    void initTestCase()
    {
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        m_replay = std::make_shared<const engine::TraceReplay>(engine::AnalysisSnapshot(outcome.result));
        m_demoted = static_cast<int>(*m_replay->statusStep("nccl_remote_error@node-03"));
        QVERIFY(m_replay->stepCount() > 20);
    }

    void stateArrivesAndMatchesTheSynchronousComputation()
    {
        RuleDebugger debugger;
        openReplay(debugger);
        const int firstAdd = static_cast<int>(*m_replay->firstStepOfPhase(engine::TracePhase::Symptoms));
        for (int step : {0, firstAdd, m_demoted - 1, m_demoted, debugger.stepCount() - 1}) {
            debugger.setCurrentStep(step);
            QCOMPARE(debugger.currentStep(), step);
            if (debugger.stateModel()->step() == step)
                continue;                        // already shown: nothing to compute
            QVERIFY(debugger.stateComputing());  // setCurrentStep did not compute it in place
            QTRY_VERIFY(!debugger.stateComputing());
            QCOMPARE(debugger.stateModel()->step(), step);
            compareStates(debugger.stateModel()->states(), m_replay->stateAt(static_cast<std::size_t>(step)));
            const auto direct = StepStateJob::compute(*m_replay, step, true);
            compareStates(direct->states, m_replay->stateAt(static_cast<std::size_t>(step)));
            QCOMPARE(direct->result->symptoms.size(), debugger.stateModel()->states().size());
        }
        QCOMPARE(debugger.stateModel()->rowCount(), static_cast<int>(m_replay->stateAt(m_demoted).size()));
    }

    void rapidStepsDeliverOnlyTheLastStepsState()
    {
        RuleDebugger debugger;
        openReplay(debugger);
        std::vector<int> delivered;
        connect(&debugger, &RuleDebugger::stepStateReady, &debugger,
                [&](int step, const engine::AnalysisSnapshot&) { delivered.push_back(step); });
        int resets = 0;
        connect(debugger.stateModel(), &QAbstractItemModel::modelReset, &debugger, [&] { ++resets; });
        debugger.first();
        for (int i = 0; i < m_demoted; ++i)
            debugger.forward();  // each step supersedes the last; the event loop does not run in between
        QCOMPARE(debugger.currentStep(), m_demoted);
        QTRY_VERIFY(!debugger.stateComputing());
        QTest::qWait(200);  // superseded jobs that were still running have ended by now; none may arrive
        QCOMPARE(delivered, std::vector<int>{m_demoted});
        QCOMPARE(resets, 1);
        compareStates(debugger.stateModel()->states(), m_replay->stateAt(static_cast<std::size_t>(m_demoted)));
    }

    void modelChangesOnlyOnTheGuiThread()
    {
        RuleDebugger debugger;
        std::atomic<int> offThread{0};
        int onThread = 0;
        auto* model = debugger.stateModel();
        QThread* gui = QThread::currentThread();
        const auto record = [&] {
            if (QThread::currentThread() == gui)
                ++onThread;
            else
                ++offThread;
        };
        connect(model, &QAbstractItemModel::modelAboutToBeReset, model, record, Qt::DirectConnection);
        connect(model, &QAbstractItemModel::modelReset, model, record, Qt::DirectConnection);
        connect(model, &QAbstractItemModel::layoutChanged, model, record, Qt::DirectConnection);
        connect(model, &QAbstractItemModel::dataChanged, model, record, Qt::DirectConnection);
        connect(model, &QAbstractItemModel::rowsInserted, model, record, Qt::DirectConnection);
        openReplay(debugger);
        for (int step = 0; step < debugger.stepCount(); step += 3) {
            debugger.setCurrentStep(step);
            if (step % 2 == 0)
                QTRY_VERIFY(!debugger.stateComputing());
        }
        QTRY_VERIFY(!debugger.stateComputing());
        QCOMPARE(offThread.load(), 0);
        QVERIFY(onThread >= 2);
    }

    void keyboardSteppingDoesNotWaitForTheState()
    {
        RuleDebugger debugger;
        debugger.resize(1100, 600);
        debugger.show();
        QVERIFY(QTest::qWaitForWindowExposed(&debugger));
        openReplay(debugger);
        debugger.setCurrentStep(m_demoted - 3);
        QTRY_VERIFY(!debugger.stateComputing());
        debugger.activateWindow();
        debugger.stateView()->setFocus();
        QVERIFY(QTest::qWaitForWindowActive(&debugger));
        for (int i = 0; i < 3; ++i)
            QTest::keyClick(debugger.stateView(), Qt::Key_F10);  // no event loop runs between the keys
        QCOMPARE(debugger.currentStep(), m_demoted);             // each key moved at once ...
        QVERIFY(debugger.stateComputing());                      // ... without computing the state in place
        QCOMPARE(debugger.stateModel()->step(), m_demoted - 3);
        QTRY_VERIFY(!debugger.stateComputing());
        QCOMPARE(debugger.stateModel()->step(), m_demoted);
        QTest::keyClick(debugger.stateView(), Qt::Key_F10, Qt::ShiftModifier);
        QCOMPARE(debugger.currentStep(), m_demoted - 1);
        QTRY_COMPARE(debugger.stateModel()->step(), m_demoted - 1);
    }

    void slowStepShowsComputingOverThePreviousRows()
    {
        RuleDebugger debugger;  // not shown: painting also uses the global pool, which is blocked below
        debugger.resize(1100, 600);
        openReplay(debugger);
        debugger.setCurrentStep(m_demoted - 1);
        QTRY_VERIFY(!debugger.stateComputing());
        const int rows = debugger.stateModel()->rowCount();
        QVERIFY(debugger.stateCaption().contains(QString::number(m_demoted - 1)));

        PoolBlocker blocker;  // no pool thread can compute: the state waits, the window does not
        debugger.setCurrentStep(m_demoted);
        QTest::qWait(300);  // longer than the hint's delay; the state cannot have been computed meanwhile
        QVERIFY(debugger.stateComputing());
        QCOMPARE(debugger.stateModel()->rowCount(), rows);  // the previous rows stay, greyed
        QVERIFY(debugger.stateModel()->isStale());
        QVERIFY2(debugger.stateCaption().startsWith(QStringLiteral("Computing")), qPrintable(debugger.stateCaption()));
        QVERIFY(debugger.stateCaption().contains(QString::number(m_demoted)));

        blocker.release();
        if (qEnvironmentVariableIsSet("ATTRIB_DEBUGGER_SHOT"))  // before the state can arrive (no event loop yet)
            debugger.grab().save(qEnvironmentVariable("ATTRIB_DEBUGGER_SHOT"));
        QTRY_VERIFY(!debugger.stateComputing());
        QCOMPARE(debugger.stateModel()->step(), m_demoted);
        QVERIFY(!debugger.stateModel()->isStale());
        QVERIFY(!debugger.stateCaption().startsWith(QStringLiteral("Computing")));
        compareStates(debugger.stateModel()->states(), m_replay->stateAt(static_cast<std::size_t>(m_demoted)));
    }
};

QTEST_MAIN(TestDebuggerAsync)
#include "tst_debugger_async.moc"
