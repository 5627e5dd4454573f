// SPDX-License-Identifier: GPL-3.0-or-later
// Teaching inside the workbench: the welcome page (in front of the timeline until a bundle opens), the Learn
// panel (a dock with the samples and their lessons; expected vs actual once a sample's verdict is shown), the
// guided tours, and the last verdict of each recent bundle for the welcome page's badges. The main window only
// creates this controller and gives it the two things it cannot reach itself (the open dialog, the guide).
#pragma once

#include "views/learn/welcome_page.h"

#include <QObject>
#include <QSettings>

#include <functional>

class QDockWidget;
class QMenu;
class QStackedWidget;

namespace attrib::views {
class LearnPanel;
}

namespace attrib::app {

class MainWindow;
class Settings;
class TourController;

struct LearnHooks {
    std::function<void()> openBundleDialog;
    std::function<void()> showCollectionGuide;
};

class LearnController : public QObject {
    Q_OBJECT

public:
    /// `samplesDir`: the installed or source samples (rules::findSamplesDir); `tourDirs`: extra tour folders
    /// after the built-in ones (:/tours).
    LearnController(MainWindow* window, Settings* settings, const QString& samplesDir, const QStringList& tourDirs,
                    LearnHooks hooks);

    /// Adds Welcome page, Learn from samples and the tours to `help`.
    void addToHelpMenu(QMenu* help);
    void showWelcome();
    void showLearnPanel();

    views::WelcomePage* welcomePage() const { return m_welcome; }
    views::LearnPanel* learnPanel() const { return m_learn; }
    QDockWidget* learnDock() const { return m_dock; }
    TourController* tours() const { return m_tours; }
    bool welcomeShown() const;
    /// The recent bundles with their last verdicts, as the welcome page shows them.
    QList<views::RecentEntry> recentEntries() const;

private:
    void onVerdict();
    void refreshRecent();

    MainWindow* m_window;
    LearnHooks m_hooks;
    mutable QSettings m_verdicts;  ///< the workbench's settings file, group RecentVerdicts
    QStackedWidget* m_stack;
    views::WelcomePage* m_welcome;
    views::LearnPanel* m_learn;
    QDockWidget* m_dock;
    TourController* m_tours;
};

}  // namespace attrib::app
