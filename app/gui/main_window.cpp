// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/main_window.h"

#include "app/bench/rule_bench.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/cases_controller.h"
#include "app/gui/help.h"
#include "app/gui/job_controller.h"
#include "app/gui/learn_controller.h"
#include "app/gui/progress_panel.h"
#include "app/gui/recent_bundles.h"
#include "app/gui/report_actions.h"
#include "app/gui/service_actions.h"
#include "app/gui/settings.h"
#include "engine/verdict.h"
#include "rules/cpp/builtin_rules.h"
#include "views/coverage/coverage_view.h"
#include "views/demotion/demotion_view.h"
#include "views/evidence/evidence_panel.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"
#include "views/verdict/verdict_panel.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextEdit>
#include <QTimer>

static void initWorkbenchResources()
{
    Q_INIT_RESOURCE(workbench);
}

namespace attrib::app {

void initResources()
{
    initWorkbenchResources();
}

MainWindow::MainWindow(Settings* settings, const QString& rulesDir, bool restoreLayout, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_rulesDir(rulesDir)
    , m_persistLayout(restoreLayout)
    , m_selection(new views::SelectionModel(this))
    , m_jobs(new JobController(rulesDir, this))
    , m_recent(new RecentBundles(settings, this))
{
    initResources();
    setWindowIcon(QIcon(QStringLiteral(":/icons/attribution-workbench.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    buildDocks();
    m_bundles = new BundleController({m_selection, m_verdict, m_timeline, m_evidence}, m_jobs, m_recent, this);
    m_reports = new ReportActions(m_bundles, m_timeline, m_settings, this);
    m_progress = new ProgressPanel(m_jobs, this);
    statusBar()->addPermanentWidget(m_progress);
    buildMenus();
    m_cases = new CasesController(m_bundles, m_evidence, this);
    m_cases->setTimelineRenderer([this] { return m_timeline->image(1400, 420); });
    m_cases->install(this, m_evidenceDock);
    connect(m_cases, &CasesController::statusMessage, statusBar(),
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    m_service = new ServiceActions(m_settings, m_bundles, this);
    m_service->install(menuBar());
    connect(m_service, &ServiceActions::statusMessage, statusBar(),
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    installBench();
    installLearning();
    bindSettings();
    connect(m_bundles, &BundleController::statusMessage, statusBar(),
            [this](const QString& m) { statusBar()->showMessage(m); });
    connect(m_reports, &ReportActions::statusMessage, statusBar(),
            [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    connect(m_bundles, &BundleController::bundleChanged, this, &MainWindow::updateTitle);
    connect(m_verdict, &views::VerdictPanel::copyMarkdownRequested, m_reports, &ReportActions::copyVerdictMarkdown);
    connect(m_verdict, &views::VerdictPanel::catalogProblemsRequested, this, [this] {
        if (QDockWidget* problems = m_bench->dock(QStringLiteral("ruleProblemsDock"))) {
            problems->show();
            problems->raise();
        }
    });
    connect(m_verdict, &views::VerdictPanel::fileLineRequested, this, [this](int file, qint64 line) {
        m_evidence->showFile(file, line);
        m_evidenceDock->raise();
    });
    connect(m_coverage, &views::CoverageView::fileActivated, this, [this](int file) {
        m_evidence->showFile(file);
        m_evidenceDock->raise();
    });
    qApp->installEventFilter(this);
    // An explicit minimum: otherwise the layout sets one from the docks' sizes of the moment, and a window sized
    // before its first show (--size 1024x700) comes out wider than asked.
    setMinimumSize(640, 480);
    applyDefaultLayout();
    if (restoreLayout) {
        restoreGeometry(m_settings->windowGeometry());
        restoreState(m_settings->windowState(), Settings::WindowStateVersion);
        QTimer::singleShot(0, this, &MainWindow::recordDockShares);  // keep the restored proportions
    }
    updateTitle(QString());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    m_verdict = new views::VerdictPanel(m_selection);
    m_timeline = new views::TimelineView(m_selection);
    m_evidence = new views::EvidencePanel(m_selection);
    m_demotion = new views::DemotionView(m_selection);
    m_coverage = new views::CoverageView(m_selection);
    setCentralWidget(m_timeline);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_verdictDock =
        addDock(m_verdict, QStringLiteral("Verdict"), QStringLiteral("verdictDock"), Qt::LeftDockWidgetArea);
    m_symptomsDock = addDock(m_demotion, QStringLiteral("Symptoms: active, demoted, scrubbed"),
                             QStringLiteral("symptomsDock"), Qt::LeftDockWidgetArea);
    m_evidenceDock =
        addDock(m_evidence, QStringLiteral("Evidence"), QStringLiteral("evidenceDock"), Qt::BottomDockWidgetArea);
    m_coverageDock =
        addDock(m_coverage, QStringLiteral("Coverage"), QStringLiteral("coverageDock"), Qt::BottomDockWidgetArea);
    splitDockWidget(m_verdictDock, m_symptomsDock, Qt::Vertical);
    tabifyDockWidget(m_evidenceDock, m_coverageDock);
    m_evidenceDock->raise();
}

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    addDockWidget(area, dock);
    return dock;
}

QList<QDockWidget*> MainWindow::docks() const
{
    return {m_verdictDock, m_symptomsDock, m_evidenceDock, m_coverageDock};
}

void MainWindow::applyDefaultLayout()
{
    resize(1600, 1000);
    m_leftShare = 0.35;
    m_bottomShare = 0.38;
    m_verdictShare = 0.6;
    applyDockShares();
}

void MainWindow::applyDockShares()
{
    // Proportional sizes: the verdict column stays readable on small screens and comes back after a resize.
    // Before the first show the window's final size is not known yet (see event()): pixel sizes computed for
    // the constructor's default size would widen a smaller window.
    if (!m_shown)
        return;
    m_restoringShares = true;
    const int left = std::max(300, static_cast<int>(width() * m_leftShare));
    resizeDocks({m_verdictDock, m_symptomsDock}, {left, left}, Qt::Horizontal);
    const int column = std::max(200, height() - 80);
    const int verdict = static_cast<int>(column * m_verdictShare);
    resizeDocks({m_verdictDock, m_symptomsDock}, {verdict, column - verdict}, Qt::Vertical);
    // On a short screen the evidence keeps enough height for its header and a dozen lines.
    const int evidence = std::max({160, std::min(340, height() / 2), static_cast<int>(height() * m_bottomShare)});
    resizeDocks({m_evidenceDock}, {evidence}, Qt::Vertical);
    m_restoringShares = false;
}

void MainWindow::recordDockShares()
{
    if (m_restoringShares || width() < 100 || height() < 100 || !m_verdictDock->isVisible())
        return;
    m_leftShare = std::clamp(static_cast<double>(m_verdictDock->width()) / width(), 0.15, 0.7);
    if (m_evidenceDock->isVisible())
        m_bottomShare = std::clamp(static_cast<double>(m_evidenceDock->height()) / height(), 0.15, 0.7);
    if (m_symptomsDock->isVisible() && !m_symptomsDock->isFloating() && m_verdictDock->height() > 0)
        m_verdictShare = std::clamp(static_cast<double>(m_verdictDock->height()) /
                                        (m_verdictDock->height() + m_symptomsDock->height()),
                                    0.2, 0.85);
}

bool MainWindow::event(QEvent* event)
{
    // The dock shares become pixel sizes once the window shows with its final size (--size or a test resizes
    // it before the first show).
    if (event->type() == QEvent::Show && !m_shown) {
        m_shown = true;
        applyDockShares();
    }
    // A separator drag ends with a mouse release on the window itself: keep the user's proportions.
    if (event->type() == QEvent::MouseButtonRelease)
        QTimer::singleShot(0, this, &MainWindow::recordDockShares);
    return QMainWindow::event(event);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (event->oldSize().isValid() && !m_restoringShares)
        QTimer::singleShot(0, this, &MainWindow::applyDockShares);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // Esc leaves a text field before it cancels anything: the first Esc moves the focus to the timeline.
    const bool esc = (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!esc || !widget || widget->window() != this)
        return QMainWindow::eventFilter(watched, event);
    const bool field = qobject_cast<QLineEdit*>(widget) || qobject_cast<QAbstractSpinBox*>(widget) ||
        qobject_cast<QPlainTextEdit*>(widget) || qobject_cast<QTextEdit*>(widget) ||
        (qobject_cast<QComboBox*>(widget) && static_cast<QComboBox*>(widget)->isEditable());
    if (!field)
        return QMainWindow::eventFilter(watched, event);
    event->accept();
    if (widget->property("handlesEscape").toBool())
        return event->type() == QEvent::ShortcutOverride ? false : QMainWindow::eventFilter(watched, event);
    if (event->type() == QEvent::KeyPress)
        m_timeline->plot()->setFocus(Qt::ShortcutFocusReason);
    return true;
}

void MainWindow::installBench()
{
    bench::BenchHooks hooks;
    hooks.selection = m_selection;
    hooks.showStepState = [this](const engine::AnalysisSnapshot& step) { m_timeline->showStepState(step); };
    hooks.adoptResult = [this](const engine::AnalysisSnapshot& result, const engine::CatalogPtr& catalog) {
        m_bundles->adopt(result, catalog);
    };
    m_bench = bench::installRuleBench(this, hooks);
    connect(m_jobs, &JobController::analysisReady, this,
            [this](quint64, const views::AnalysisPtr& analysis, const engine::CatalogPtr& catalog, qint64) {
                m_bench->setAnalysis(analysis->result, catalog, m_bundles->currentBundle());
            });
    // The rule author's panels share the bottom area with the evidence; an engineer opens them from the
    // Rules menu or the View menu when needed.
    for (const char* name : {"ruleDebuggerDock", "symptomGraphDock"}) {
        if (QDockWidget* dock = m_bench->dock(QString::fromLatin1(name))) {
            tabifyDockWidget(m_evidenceDock, dock);
            dock->hide();
        }
    }
    m_viewMenu->addSeparator();
    for (const char* name :
         {"ruleDebuggerDock", "symptomGraphDock", "ruleCatalogDock", "ruleProblemsDock", "ruleEditorDock"}) {
        if (QDockWidget* dock = m_bench->dock(QString::fromLatin1(name)))
            m_viewMenu->addAction(dock->toggleViewAction());
    }
    m_evidenceDock->raise();
}

void MainWindow::installLearning()
{
    const QString samples =
        QString::fromStdString(rules::findSamplesDir(QCoreApplication::applicationFilePath().toStdString()));
    const QString userTours =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/tours");
    m_learn = new LearnController(
        this, m_settings, samples, {userTours},
        {[this] { openFolderDialog(); }, [this] { showUserGuide(this, QStringLiteral("Collect a bundle")); }});
    m_learn->addToHelpMenu(m_helpMenu);
}

void MainWindow::buildMenus()
{
    buildFileMenu();
    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction* copy =
        edit->addAction(QStringLiteral("Copy verdict as &Markdown"), m_reports, &ReportActions::copyVerdictMarkdown);
    copy->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* dock : docks())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_timeline->relativeTimeAction());
    QAction* defaults = m_viewMenu->addAction(QStringLiteral("Default layout"), this, [this] {
        for (QDockWidget* dock : docks())
            dock->setVisible(true);
        applyDefaultLayout();
    });
    defaults->setToolTip(QStringLiteral("Restore the default dock arrangement"));
    QMenu* analysis = menuBar()->addMenu(QStringLiteral("&Analysis"));
    QAction* cancel = analysis->addAction(QStringLiteral("&Cancel analysis"), m_jobs, &JobController::cancel);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    QMenu* timeline = m_viewMenu->addMenu(QStringLiteral("&Timeline"));
    for (QAction* a : m_timeline->actions())
        timeline->addAction(a);
    QMenu* evidence = m_viewMenu->addMenu(QStringLiteral("&Evidence"));
    for (QAction* a : m_evidence->keyboardActions())
        evidence->addAction(a);
    // Every pane is one key away (Alt+1..4); Tab moves on inside it.
    const std::pair<QString, QDockWidget*> panes[] = {{QStringLiteral("Go to the &verdict"), m_verdictDock},
                                                      {QStringLiteral("Go to the &symptoms"), m_symptomsDock},
                                                      {QStringLiteral("Go to the &evidence"), m_evidenceDock}};
    int n = 1;
    for (const auto& [title, pane] : panes) {
        QDockWidget* dock = pane;  // Clang before 16 cannot capture a structured binding
        m_viewMenu
            ->addAction(title, this,
                        [dock] {
                            dock->show();
                            dock->raise();
                            for (QWidget* w : dock->widget()->findChildren<QWidget*>()) {
                                if (w->isVisible() && (w->focusPolicy() & Qt::TabFocus)) {
                                    w->setFocus(Qt::ShortcutFocusReason);
                                    return;
                                }
                            }
                        })
            ->setShortcut(QKeySequence(QStringLiteral("Alt+%1").arg(n++)));
    }
    m_viewMenu
        ->addAction(QStringLiteral("Go to the &timeline"), this,
                    [this] { m_timeline->plot()->setFocus(Qt::ShortcutFocusReason); })
        ->setShortcut(QKeySequence(QStringLiteral("Alt+%1").arg(n)));
    buildHelpMenu();
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    m_helpMenu = help;
    help->addAction(QStringLiteral("&User guide"), this, [this] { showUserGuide(this); })
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(QStringLiteral("&Keyboard shortcuts"), this, [this] { showShortcutsDialog(this); })
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+/")));
    help->addSeparator();
    help->addAction(QStringLiteral("&About"), this, [this] {
        const views::AnalysisPtr analysis = m_bundles->analysis();
        app::showAbout(this, m_rulesDir, analysis && analysis->result ? &analysis->r().engine : nullptr);
    });
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("Open &folder\u2026"), this, &MainWindow::openFolderDialog)
        ->setShortcut(QKeySequence::Open);
    file->addAction(QStringLiteral("Open &archive\u2026"), this, &MainWindow::openArchiveDialog);
    m_recentMenu = file->addMenu(QStringLiteral("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, m_recent, &RecentBundles::refresh);
    connect(m_recent, &RecentBundles::changed, this, &MainWindow::rebuildRecentMenu);
    connect(m_recent, &RecentBundles::existenceChecked, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    m_recent->refresh();
    // Ctrl+R, not F5: F5 runs the rule debugger to its breakpoint.
    file->addAction(QStringLiteral("Re&load"), m_bundles, &BundleController::reload)
        ->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    file->addSeparator();
    file->addAction(QStringLiteral("Export timeline as &PNG\u2026"), this,
                    [this] { m_reports->exportTimelineInteractive(false); });
    file->addAction(QStringLiteral("Export timeline as &SVG\u2026"), this,
                    [this] { m_reports->exportTimelineInteractive(true); });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent->paths();
    for (const QString& path : paths) {
        const bool exists = m_recent->exists(path);
        QAction* action = m_recentMenu->addAction(exists ? path : path + QStringLiteral("  (missing)"));
        action->setEnabled(exists);
        connect(action, &QAction::triggered, this, [this, path] { openBundle(path); });
    }
    if (paths.isEmpty())
        m_recentMenu->addAction(QStringLiteral("(none yet)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(QStringLiteral("Clear list"), m_recent, &RecentBundles::clear)
        ->setEnabled(!paths.isEmpty());
}

void MainWindow::bindSettings()
{
    m_timeline->relativeTimeAction()->setChecked(m_settings->timelineRelative());
    connect(m_timeline->relativeTimeAction(), &QAction::toggled, m_settings, &Settings::setTimelineRelative);
    m_demotion->showDemotedBox()->setChecked(m_settings->showDemoted());
    m_demotion->showScrubbedBox()->setChecked(m_settings->showScrubbed());
    connect(m_demotion->showDemotedBox(), &QCheckBox::toggled, m_settings, &Settings::setShowDemoted);
    connect(m_demotion->showScrubbedBox(), &QCheckBox::toggled, m_settings, &Settings::setShowScrubbed);
}

bool MainWindow::openBundle(const QString& path)
{
    return m_bundles->open(path);
}

void MainWindow::openFolderDialog()
{
    const QString dir =
        QFileDialog::getExistingDirectory(this, QStringLiteral("Open bundle folder"), m_settings->lastOpenDir());
    if (dir.isEmpty())
        return;
    m_settings->setLastOpenDir(QFileInfo(dir).absolutePath());
    openBundle(dir);
}

void MainWindow::openArchiveDialog()
{
    const QString file = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open bundle archive"), m_settings->lastOpenDir(),
        QStringLiteral("Bundle archives (*.tar *.tar.gz *.tgz *.tar.bz2 *.tar.xz *.tar.zst *.zip);;All files (*)"));
    if (file.isEmpty())
        return;
    m_settings->setLastOpenDir(QFileInfo(file).absolutePath());
    openBundle(file);
}

void MainWindow::updateTitle(const QString& bundle)
{
    setWindowTitle(bundle.isEmpty() ? QStringLiteral("Attribution Workbench")
                                    : QFileInfo(bundle).fileName() + QStringLiteral(" \u2014 Attribution Workbench"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_jobs->cancel();
    if (m_persistLayout) {
        m_settings->setWindowGeometry(saveGeometry());
        m_settings->setWindowState(saveState(Settings::WindowStateVersion));
        m_settings->sync();
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile() && BundleController::isBundlePath(urls.front().toLocalFile()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    openBundle(urls.front().toLocalFile());
    event->acceptProposedAction();
}

}  // namespace attrib::app
