// SPDX-License-Identifier: GPL-3.0-or-later
// attribution-workbench [BUNDLE] [--screenshot FILE] [--dock-screenshots DIR] [--timeout SECONDS] [--size WxH]
//                       [--find TEXT] [--rules DIR] [--learn [SAMPLE]] [--tour ID[:STEP]]
// With --screenshot the process always ends: 0 with the PNG written, non-zero with a one-line reason on stderr
// (bundle missing or not a bundle, analysis failed, PNG not writable, no verdict before the timeout).
#include "app/bench/rule_bench.h"
#include "app/gui/bundle_controller.h"
#include "app/gui/cases_controller.h"
#include "app/gui/job_controller.h"
#include "app/gui/learn_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "app/gui/tour_controller.h"
#include "engine/verdict.h"
#include "rules/cpp/builtin_rules.h"
#include "views/evidence/evidence_panel.h"
#include "views/evidence/find_bar.h"
#include "views/learn/learn_panel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

using namespace attrib;

namespace {

struct Options {
    QString bundle;
    QString screenshot;
    QString dockDir;
    QString rulesDir;
    int timeoutSeconds = 120;
    QSize size;        ///< window size for screenshots (default layout size when empty)
    QString find;      ///< text to find in the evidence before the screenshot
    QString learn;     ///< open the Learn panel on this sample ("-": the first one)
    QString tour;      ///< start this tour
    int tourStep = 0;  ///< with --screenshot: the tour step to render
};

using QOption = QCommandLineOption;

Options parse(QApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Find why a distributed AI training job failed from its logs.\nWithout a BUNDLE it opens on the "
                       "welcome page: open a bundle, learn from the annotated samples, or take a guided tour. "
                       "Help \u203a User guide explains each view and how to collect a bundle on Slurm and "
                       "Kubernetes."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window after analysis to FILE (PNG) and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption docks(QStringLiteral("dock-screenshots"),
                                   QStringLiteral("With --screenshot: also render each dock to DIR/<dock>.png."),
                                   QStringLiteral("DIR"));
    const QCommandLineOption rules(QStringLiteral("rules"), QStringLiteral("Rule catalog folder."),
                                   QStringLiteral("DIR"));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QStringLiteral("With --screenshot: give up after SECONDS (default 120)."),
                                     QStringLiteral("SECONDS"), QStringLiteral("120"));
    const QOption size(QStringLiteral("size"), QStringLiteral("With --screenshot: the window size, e.g. 1024x700."),
                       QStringLiteral("WxH"));
    const QOption find(QStringLiteral("find"),
                       QStringLiteral("With --screenshot: find TEXT in the evidence (Ctrl+F) before the shot."),
                       QStringLiteral("TEXT"));
    const QOption learn(QStringLiteral("learn"),
                        QStringLiteral("Open the Learn panel on SAMPLE (a sample folder name, or - for the first)."),
                        QStringLiteral("SAMPLE"));
    const QOption tour(QStringLiteral("tour"),
                       QStringLiteral("Start the guided tour ID (nvlink-xid149, rule-debugger); with --screenshot, "
                                      "ID:STEP renders that step (counted from 1)."),
                       QStringLiteral("ID[:STEP]"));
    parser.addOptions({screenshot, docks, rules, timeout, size, find, learn, tour});
    parser.addPositionalArgument(QStringLiteral("BUNDLE"), QStringLiteral("Bundle folder or archive to open."));
    parser.process(app);
    Options o;
    o.bundle = parser.positionalArguments().value(0);
    o.screenshot = parser.value(screenshot);
    o.dockDir = parser.value(docks);
    o.rulesDir = parser.value(rules);
    o.find = parser.value(find);
    o.learn = parser.value(learn);
    const QStringList tourParts = parser.value(tour).split(QLatin1Char(':'));
    o.tour = tourParts.value(0);
    if (tourParts.size() > 1) {
        bool ok = false;
        o.tourStep = tourParts[1].toInt(&ok) - 1;
        if (!ok || o.tourStep < 0 || tourParts.size() > 2) {
            std::fprintf(stderr, "attribution-workbench: --tour wants ID or ID:STEP (STEP from 1), not '%s'\n",
                         qPrintable(parser.value(tour)));
            std::exit(2);
        }
    }
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        bool w = false;
        bool h = false;
        o.size = QSize(wh.value(0).toInt(&w), wh.value(1).toInt(&h));
        if (wh.size() != 2 || !w || !h || o.size.width() < 320 || o.size.height() < 240) {
            std::fprintf(stderr, "attribution-workbench: --size wants WIDTHxHEIGHT (at least 320x240), not '%s'\n",
                         qPrintable(parser.value(size)));
            std::exit(2);
        }
    }
    bool ok = false;
    o.timeoutSeconds = parser.value(timeout).toInt(&ok);
    if (!ok || o.timeoutSeconds <= 0) {
        std::fprintf(stderr, "attribution-workbench: --timeout wants a positive number of seconds, not '%s'\n",
                     qPrintable(parser.value(timeout)));
        std::exit(2);
    }
    return o;
}

/// Handles every posted layout request, and those their handling posts: on a loaded machine the 300 ms before a
/// grab can pass before the verdict panel has laid out its new text, and the grab showed its headings overlapped.
void settleLayouts()
{
    for (int round = 0; round < 8; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}

/// Renders the window (and each dock) to PNG files, then quits with `code`.
void saveScreenshots(app::MainWindow* window, const Options& o, int code)
{
    settleLayouts();
    if (!o.find.isEmpty()) {
        views::FindBar* find = window->evidencePanel()->findBar();
        find->activate();
        find->field()->setText(o.find);
        Q_EMIT find->findNext();
        QCoreApplication::processEvents();
    }
    const bool ok = window->grab().save(o.screenshot, "PNG");
    std::fprintf(stderr, "attribution-workbench: %s %s\n", ok ? "wrote" : "could not write", qPrintable(o.screenshot));
    if (!o.dockDir.isEmpty()) {
        QDir().mkpath(o.dockDir);
        for (QDockWidget* dock : window->docks()) {
            dock->raise();  // tabified docks render at their real size only when raised
            dock->grab().save(QDir(o.dockDir).filePath(dock->objectName() + QStringLiteral(".png")), "PNG");
        }
    }
    QCoreApplication::exit(ok ? code : 3);
}

void armScreenshot(app::MainWindow* window, const Options& o)
{
    auto* bundles = window->bundleController();
    QObject::connect(window->jobController(), &app::JobController::failed, window,
                     [](quint64, const QString& bundle, const QString& error) {
                         std::fprintf(stderr, "attribution-workbench: could not analyse %s: %s\n", qPrintable(bundle),
                                      qPrintable(error));
                     });
    QObject::connect(window->jobController(), &app::JobController::cancelled, window, [] {
        std::fprintf(stderr, "attribution-workbench: analysis cancelled\n");
        QCoreApplication::exit(4);
    });
    // Queued replots and layout settle within a few event-loop turns; a short timer lets them run.
    if (!o.tour.isEmpty()) {
        app::TourController* tours = window->learnController()->tours();
        QObject::connect(tours, &app::TourController::stepShown, window, [window, tours, o](int step) {
            if (step < o.tourStep)
                QTimer::singleShot(0, tours, &app::TourController::next);
            else
                QTimer::singleShot(300, window, [window, o] { saveScreenshots(window, o, 0); });
        });
    } else {
        QObject::connect(bundles, &app::BundleController::timelineShown, window, [window, o] {
            QTimer::singleShot(300, window, [window, o] { saveScreenshots(window, o, 0); });
        });
    }
    QObject::connect(window->jobController(), &app::JobController::failed, window,
                     [window, o] { QTimer::singleShot(300, window, [window, o] { saveScreenshots(window, o, 1); }); });
    if (o.bundle.isEmpty() && o.tour.isEmpty() && o.learn.isEmpty())
        QTimer::singleShot(300, window, [window, o] { saveScreenshots(window, o, 0); });
    QTimer::singleShot(o.timeoutSeconds * 1000, window, [window, seconds = o.timeoutSeconds] {
        std::fprintf(stderr, "attribution-workbench: no verdict after %d s, giving up\n", seconds);
        window->jobController()->cancel();
        QCoreApplication::exit(2);
    });
}

/// --learn and --tour; false (with the reason on stderr) when the sample or tour does not exist.
bool startLearning(app::MainWindow* window, const Options& o)
{
    app::LearnController* learn = window->learnController();
    if (!o.learn.isEmpty()) {
        views::LearnPanel* panel = learn->learnPanel();
        const auto& samples = panel->library().samples;
        const QString name = o.learn == QLatin1String("-") && !samples.isEmpty() ? samples.front().name : o.learn;
        if (!panel->selectSample(name)) {
            std::fprintf(stderr, "attribution-workbench: no sample named '%s'\n", qPrintable(o.learn));
            return false;
        }
        learn->showLearnPanel();
        if (o.bundle.isEmpty() && o.tour.isEmpty())
            window->openBundle(panel->currentSample()->path);
    }
    if (!o.tour.isEmpty() && !learn->tours()->start(o.tour)) {
        std::fprintf(stderr, "attribution-workbench: cannot start the tour '%s'\n", qPrintable(o.tour));
        return false;
    }
    if (!o.tour.isEmpty() && o.tourStep >= learn->tours()->currentTour()->steps.size()) {
        std::fprintf(stderr, "attribution-workbench: the tour '%s' has %lld steps\n", qPrintable(o.tour),
                     static_cast<long long>(learn->tours()->currentTour()->steps.size()));
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    QElapsedTimer launch;
    launch.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("attribution-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("Attribution Workbench"));
    QApplication::setApplicationVersion(QString::fromLatin1(engine::engineVersion()));
    QApplication::setDesktopFileName(QStringLiteral("attribution-workbench"));
    const Options o = parse(app);
    const bool screenshot = !o.screenshot.isEmpty();
    // A screenshot run never waits for a bundle that cannot be analysed: say why and stop before building windows.
    if (screenshot && !o.bundle.isEmpty()) {
        if (const QString why = app::BundleController::whyNotBundle(o.bundle); !why.isEmpty()) {
            std::fprintf(stderr, "attribution-workbench: cannot open %s\n", qPrintable(why));  // `why` names it
            return 2;
        }
    }
    // Screenshots use throw-away settings so that the user's layout never changes what docs show.
    QTemporaryDir scratch;
    app::Settings settings(screenshot ? scratch.filePath(QStringLiteral("settings.ini")) : QString());
    const QString rulesDir = QString::fromStdString(rules::findRulesDir(o.rulesDir.toStdString(), argv[0]));
    // The rule editor saves into the user's copy of the shipped catalog unless a folder was chosen; screenshots
    // read the shipped catalog as it is.
    const bool chosen = screenshot || !o.rulesDir.isEmpty() || !qEnvironmentVariableIsEmpty("ATTRIB_RULES");
    const bench::RulesWorkspace workspace =
        bench::prepareRulesWorkspace(rulesDir, chosen, bench::defaultRulesCopyRoot());
    app::MainWindow window(&settings, workspace.dir, !screenshot);
    if (!screenshot)
        window.ruleBench()->setWorkspace(workspace);
    else  // and a throw-away case store: a documentation shot is not a case of the user's
        window.casesController()->setStorePath(scratch.filePath(QStringLiteral("cases.sqlite")));
    QObject::connect(window.bundleController(), &app::BundleController::verdictShown, &window,
                     [&launch, screenshot](qint64 analysisMs) {
                         if (screenshot)
                             std::fprintf(stderr,
                                          "attribution-workbench: verdict shown %lld ms after launch "
                                          "(analysis job %lld ms)\n",
                                          static_cast<long long>(launch.elapsed()), static_cast<long long>(analysisMs));
                     });
    if (screenshot)
        armScreenshot(&window, o);
    if (o.size.isValid())
        window.resize(o.size);
    window.show();
    if (!o.bundle.isEmpty())
        window.openBundle(o.bundle);
    if (!startLearning(&window, o))
        return 2;
    return QApplication::exec();
}
