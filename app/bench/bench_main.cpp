// SPDX-License-Identifier: GPL-3.0-or-later
// attrib-rule-bench: the rule author's bench on its own window (until it is docked in the workbench).
//   attrib-rule-bench [BUNDLE] [--rules DIR] [--screenshots DIR]
// Without --rules (or ATTRIB_RULES) the bench edits the user's copy of the shipped catalog (rules_workspace.h).
// --screenshots renders docs/images/debugger.png (mid-way through the trace, a symptom just demoted) and
// symptom-graph.png, then quits; run it with QT_QPA_PLATFORM=offscreen or under xvfb-run.
#include "app/bench/rule_bench.h"
#include "engine/report.h"
#include "engine/verdict.h"
#include "rules/cpp/builtin_rules.h"
#include "views/debugger/rule_debugger.h"
#include "views/graph/symptom_graph_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTimer>

namespace {

using namespace attrib;

QString summaryOf(const engine::AnalysisResult& r, const QString& heading)
{
    int counts[3] = {0, 0, 0};
    for (const auto& s : r.symptoms)
        ++counts[static_cast<int>(s.status)];
    return heading +
        QStringLiteral("\n%1 active, %2 demoted, %3 scrubbed\n\n").arg(counts[0]).arg(counts[1]).arg(counts[2]) +
        QString::fromStdString(engine::reportText(r));
}

/// The first step that demotes a communication-library symptom: the debugger screenshot's moment.
int firstNcclDemotion(const engine::TraceReplay& replay)
{
    for (std::size_t i = 0; i < replay.stepCount(); ++i)
        for (const auto& c : replay.step(i).changes)
            if (c.kind == engine::SymptomChange::Kind::Demoted && c.symptom.rfind("nccl_", 0) == 0)
                return static_cast<int>(i);
    return static_cast<int>(replay.stepCount() / 2);
}

void takeScreenshots(bench::RuleBench* bench, QMainWindow* window, const QString& dir)
{
    auto* debugger = bench->debugger();
    const int step = firstNcclDemotion(*bench->replay());
    debugger->setCurrentStep(step);
    const auto& changes = bench->replay()->step(static_cast<std::size_t>(step)).changes;
    if (!changes.empty())
        debugger->whyStatus(QString::fromStdString(changes.front().symptom));
    bench->dock(QStringLiteral("ruleDebuggerDock"))->raise();
    QTimer::singleShot(300, window, [=] {
        debugger->stateView()->clearSelection();  // keep the "just demoted" colour visible (state arrived by now)
        QDir().mkpath(dir);
        debugger->grab().save(QDir(dir).filePath(QStringLiteral("debugger.png")));
        debugger->last();
        bench->dock(QStringLiteral("symptomGraphDock"))->raise();
        bench->graph()->fitToWindow();
        QTimer::singleShot(300, window, [=] {
            bench->graph()->grab().save(QDir(dir).filePath(QStringLiteral("symptom-graph.png")));
            QApplication::quit();
        });
    });
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("attrib-rule-bench"));
    QApplication::setApplicationVersion(QString::fromLatin1(engine::engineVersion()));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The rule author's bench: debugger, symptom graph, live rule editing."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("bundle"),
                                 QStringLiteral("evidence bundle folder (default: the NVLink sample)"));
    const QCommandLineOption rules(QStringLiteral("rules"), QStringLiteral("rules folder"), QStringLiteral("DIR"));
    const QCommandLineOption shots(QStringLiteral("screenshots"), QStringLiteral("render screenshots and quit"),
                                   QStringLiteral("DIR"));
    parser.addOptions({rules, shots});
    parser.process(app);
    const QString samples =
        QString::fromStdString(rules::findSamplesDir(QCoreApplication::applicationFilePath().toStdString()));
    const QString bundle =
        parser.positionalArguments().value(0, QDir(samples).filePath(QStringLiteral("nvlink-xid149")));
    const QString rulesDir = QString::fromStdString(
        rules::findRulesDir(parser.value(rules).toStdString(), QCoreApplication::applicationFilePath().toStdString()));
    const bool screenshotMode = parser.isSet(shots);
    // Screenshots read the shipped catalog as it is; an author's session edits a copy unless told otherwise.
    const bool chosen = screenshotMode || parser.isSet(rules) || !qEnvironmentVariableIsEmpty("ATTRIB_RULES");
    const bench::RulesWorkspace workspace =
        bench::prepareRulesWorkspace(rulesDir, chosen, bench::defaultRulesCopyRoot());

    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Rule bench \u2014 %1").arg(QDir::cleanPath(bundle)));
    auto* summary = new QPlainTextEdit(&window);
    summary->setReadOnly(true);
    window.setCentralWidget(summary);
    bench::BenchHooks hooks;
    int stepShown = -1;
    hooks.showStepState = [summary](const engine::AnalysisSnapshot& r) {
        summary->setPlainText(summaryOf(
            *r, r->verdict.rootCause ? QStringLiteral("Final state") : QString::fromStdString(r->verdict.explanation)));
    };
    auto* bench = bench::installRuleBench(&window, hooks);
    if (!screenshotMode) {
        bench->setWorkspace(workspace);
        bench->dock(QStringLiteral("ruleCatalogDock"))->show();  // the author's starting point beside the debugger
    }
    auto* file = new QMenu(QStringLiteral("&File"), &window);
    window.menuBar()->insertMenu(bench->menu()->menuAction(), file);
    file->addAction(QStringLiteral("&Open bundle\u2026"), QKeySequence::Open, &window, [&window, bench] {
        const QString dir = QFileDialog::getExistingDirectory(&window, QStringLiteral("Open bundle folder"),
                                                              QFileInfo(bench->controller()->bundlePath()).path());
        if (dir.isEmpty())
            return;
        window.setWindowTitle(QStringLiteral("Rule bench \u2014 %1").arg(QDir::cleanPath(dir)));
        bench->openBundle(dir);
    });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, &window, &QWidget::close);
    if (screenshotMode) {
        summary->hide();
        window.resize(1480, 860);
    } else {
        window.resize(1500, 1000);
    }
    QObject::connect(bench, &bench::RuleBench::analysisChanged, &window, [&](const engine::AnalysisSnapshot& r) {
        if (screenshotMode && r && stepShown < 0) {
            stepShown = 0;
            QTimer::singleShot(200, &window, [&] { takeScreenshots(bench, &window, parser.value(shots)); });
        }
    });
    bench->start(workspace.dir, bundle);
    window.show();
    return app.exec();
}
