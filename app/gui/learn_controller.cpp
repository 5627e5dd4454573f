// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/learn_controller.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/recent_bundles.h"
#include "app/gui/settings.h"
#include "app/gui/tour_controller.h"
#include "engine/verdict_json.h"
#include "views/analysis_data.h"
#include "views/learn/learn_panel.h"
#include "views/timeline/timeline_view.h"

#include <QDockWidget>
#include <QMenu>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeWidget>

namespace attrib::app {

namespace {

const QString VerdictGroup = QStringLiteral("RecentVerdicts");
constexpr int MaxVerdicts = 64;
const QString MainTour = QStringLiteral("nvlink-xid149");

/// Stored as "terminal_state<TAB>sub_domain<TAB>path", most recent first.
QStringList storedVerdicts(QSettings& s)
{
    return s.value(VerdictGroup + QStringLiteral("/entries")).toStringList();
}

}  // namespace

LearnController::LearnController(MainWindow* window, Settings* settings, const QString& samplesDir,
                                 const QStringList& tourDirs, LearnHooks hooks)
    : QObject(window)
    , m_window(window)
    , m_hooks(std::move(hooks))
    , m_verdicts(settings->fileName(), QSettings::IniFormat)
    , m_stack(new QStackedWidget(window))
    , m_welcome(new views::WelcomePage(m_stack))
    , m_learn(new views::LearnPanel(window))
    , m_dock(new QDockWidget(QStringLiteral("Learn from samples"), window))
{
    // The welcome page stands in front of the timeline until a bundle opens.
    QWidget* timeline = window->takeCentralWidget();
    if (timeline->objectName().isEmpty())
        timeline->setObjectName(QStringLiteral("timelineView"));
    m_stack->setObjectName(QStringLiteral("centralStack"));
    m_stack->addWidget(m_welcome);
    m_stack->addWidget(timeline);
    window->setCentralWidget(m_stack);
    m_dock->setObjectName(QStringLiteral("learnDock"));
    m_dock->setWidget(m_learn);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->hide();
    m_learn->setLibrary(views::loadSampleLibrary(samplesDir));
    QStringList problems;
    m_tours = new TourController(window, views::loadTours(QStringList{QStringLiteral(":/tours")} + tourDirs, &problems),
                                 samplesDir, this);
    problems += m_learn->library().problems;
    if (!problems.isEmpty())
        window->statusBar()->showMessage(problems.join(QStringLiteral("; ")), 15000);
    connect(m_tours, &TourController::problem, window->statusBar(),
            [window](const QString& text) { window->statusBar()->showMessage(text, 10000); });
    connect(m_welcome, &views::WelcomePage::openBundleRequested, this, [this] { m_hooks.openBundleDialog(); });
    connect(m_welcome, &views::WelcomePage::openSampleRequested, this, &LearnController::showLearnPanel);
    connect(m_welcome, &views::WelcomePage::collectionGuideRequested, this, [this] { m_hooks.showCollectionGuide(); });
    connect(m_welcome, &views::WelcomePage::tourRequested, this, [this] {
        // The sample tour when it is there, else whichever tour comes first.
        const QList<views::Tour>& all = m_tours->tours();
        const bool sampleTour =
            std::any_of(all.begin(), all.end(), [](const views::Tour& t) { return t.id == MainTour; });
        if (!all.isEmpty())
            m_tours->start(sampleTour ? MainTour : all.front().id);
    });
    connect(m_welcome, &views::WelcomePage::recentActivated, window, &MainWindow::openBundle);
    connect(m_learn, &views::LearnPanel::openSampleRequested, window, &MainWindow::openBundle);
    BundleController* bundles = window->bundleController();
    connect(bundles, &BundleController::bundleChanged, this, [this](const QString& path) {
        if (!path.isEmpty())
            m_stack->setCurrentIndex(1);
    });
    connect(bundles, &BundleController::verdictShown, this, &LearnController::onVerdict);
    connect(window->recentBundles(), &RecentBundles::changed, this, &LearnController::refreshRecent);
    connect(window->recentBundles(), &RecentBundles::existenceChecked, this, &LearnController::refreshRecent);
    refreshRecent();
}

void LearnController::addToHelpMenu(QMenu* help)
{
    QAction* first = help->actions().value(0);
    QAction* welcome = new QAction(QStringLiteral("&Welcome page"), help);
    connect(welcome, &QAction::triggered, this, &LearnController::showWelcome);
    QAction* learn = new QAction(QStringLiteral("&Learn from samples"), help);
    connect(learn, &QAction::triggered, this, &LearnController::showLearnPanel);
    auto* tours = new QMenu(QStringLiteral("Guided &tours"), help);
    for (const views::Tour& tour : m_tours->tours()) {
        QAction* a = tours->addAction(tour.title, this, [this, id = tour.id] { m_tours->start(id); });
        a->setToolTip(tour.summary);
    }
    tours->setToolTipsVisible(true);
    help->insertAction(first, welcome);
    help->insertAction(first, learn);
    help->insertMenu(first, tours);
    help->insertSeparator(first);
}

bool LearnController::welcomeShown() const
{
    return m_stack->currentWidget() == m_welcome;
}

void LearnController::showWelcome()
{
    m_stack->setCurrentWidget(m_welcome);
    m_welcome->openBundleButton()->setFocus(Qt::OtherFocusReason);
}

void LearnController::showLearnPanel()
{
    const bool wasHidden = m_dock->isHidden();
    m_dock->show();
    m_dock->raise();
    // Lessons need room to read: beside the timeline in a wide window, in a tab over the verdict in a small one.
    auto* verdict = m_window->findChild<QDockWidget*>(QStringLiteral("verdictDock"));
    if (wasHidden && m_window->width() < 1300 && verdict && !verdict->isFloating()) {
        m_window->tabifyDockWidget(verdict, m_dock);
        m_dock->raise();
    } else if (wasHidden) {
        m_window->resizeDocks({m_dock}, {std::max(380, m_window->width() * 3 / 10)}, Qt::Horizontal);
    }
    m_learn->sampleTree()->setFocus(Qt::OtherFocusReason);
}

void LearnController::onVerdict()
{
    const views::AnalysisPtr analysis = m_window->bundleController()->analysis();
    const QString bundle = m_window->bundleController()->currentBundle();
    if (!analysis || bundle.isEmpty())
        return;
    const auto& v = analysis->r().verdict;
    QStringList entries = storedVerdicts(m_verdicts);
    const QString suffix = QLatin1Char('\t') + bundle;
    entries.erase(std::remove_if(entries.begin(), entries.end(), [&](const QString& e) { return e.endsWith(suffix); }),
                  entries.end());
    entries.prepend(QString::fromStdString(v.terminalState) + QLatin1Char('\t') + QString::fromStdString(v.subDomain) +
                    suffix);
    while (entries.size() > MaxVerdicts)
        entries.removeLast();
    m_verdicts.setValue(VerdictGroup + QStringLiteral("/entries"), entries);
    refreshRecent();
    if (m_learn->isSample(bundle))  // the whole verdict as JSON costs ~0.1 s on the GUI thread for a large job
        m_learn->showActual(bundle, engine::verdictToJson(analysis->r()));
}

QList<views::RecentEntry> LearnController::recentEntries() const
{
    QHash<QString, QStringList> verdicts;
    for (const QString& e : storedVerdicts(m_verdicts)) {
        const QStringList parts = e.split(QLatin1Char('\t'));
        if (parts.size() == 3)
            verdicts.insert(parts[2], parts);
    }
    QList<views::RecentEntry> out;
    const RecentBundles* recent = m_window->recentBundles();
    for (const QString& path : recent->paths()) {
        const QStringList v = verdicts.value(path);
        out << views::RecentEntry{path, v.value(0), v.value(1), recent->exists(path)};
    }
    return out;
}

void LearnController::refreshRecent()
{
    m_welcome->setRecent(recentEntries());
}

}  // namespace attrib::app
