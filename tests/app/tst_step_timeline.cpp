// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's timeline follows the rule debugger: mid-way through the trace it draws only the symptoms
// raised so far, clicking a bar there selects the same symptom in the current analysis, and the last step
// returns to the final state.
#include "../common/test_catalog.h"

#include "app/bench/rule_bench.h"
#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "views/debugger/rule_debugger.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"

#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestStepTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void timelineFollowsTheDebuggerStep()
    {
        QTemporaryDir dir;
        Settings settings(dir.filePath(QStringLiteral("settings.ini")));
        MainWindow window(&settings, QStringLiteral(ATTRIB_SOURCE_RULES_DIR), false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy timeline(window.bundleController(), &BundleController::timelineShown);
        window.openBundle(QString::fromStdString(tests::samplePath("nvlink-xid149")));
        QVERIFY(timeline.wait(60000));
        auto* debugger = window.ruleBench()->debugger();
        QTRY_VERIFY_WITH_TIMEOUT(debugger->stepCount() > 10, 10000);
        QVERIFY(!window.timelineView()->showingStep());

        const std::size_t all = window.selectionModel()->analysis()->r().symptoms.size();
        // The step that adds the first symptoms: the timeline shows just those.
        int step = 0;
        while (step < debugger->stepCount() && debugger->replay()->step(step).phase != engine::TracePhase::Symptoms)
            ++step;
        debugger->setCurrentStep(step);
        QTRY_VERIFY(window.timelineView()->showingStep());  // the step's state is computed off the GUI thread
        const auto& shown = window.timelineView()->plot()->analysis();
        QVERIFY(shown);
        QVERIFY(shown->r().symptoms.size() < all);
        QVERIFY(!shown->r().symptoms.empty());
        if (qEnvironmentVariableIsSet("ATTRIB_STEP_SHOT")) {
            window.ruleBench()->dock(QStringLiteral("ruleDebuggerDock"))->show();
            QTest::qWait(300);
            window.grab().save(qEnvironmentVariable("ATTRIB_STEP_SHOT"));
        }

        // A bar clicked in the step state selects that symptom in the current analysis.
        QSignalSpy selected(window.selectionModel(), &views::SelectionModel::selectionChanged);
        Q_EMIT window.timelineView()->plot()->symptomClicked(0);
        QVERIFY(!selected.isEmpty());
        const int current = window.selectionModel()->current().symptom;
        QVERIFY(current >= 0);
        QCOMPARE(window.selectionModel()->analysis()->r().symptoms[static_cast<std::size_t>(current)].id,
                 shown->r().symptoms[0].id);

        debugger->last();
        QTRY_VERIFY(!window.timelineView()->showingStep());
        QCOMPARE(window.timelineView()->plot()->analysis()->r().symptoms.size(), all);
    }
};

QTEST_MAIN(TestStepTimeline)
#include "tst_step_timeline.moc"
