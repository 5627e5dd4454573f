// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench window: builds the docks and menus and forwards to the controllers (bundles, jobs,
// reports). The views follow one shared selection model.
#pragma once

#include <QMainWindow>

class QDockWidget;
class QMenu;

namespace attrib::views {
class CoverageView;
class DemotionView;
class EvidencePanel;
class SelectionModel;
class TimelineView;
class VerdictPanel;
}  // namespace attrib::views

namespace attrib::bench {
class RuleBench;
}

namespace attrib::app {

class BundleController;
class CasesController;
class JobController;
class LearnController;
class ProgressPanel;
class RecentBundles;
class ReportActions;
class ServiceActions;
class Settings;

/// Registers the compiled-in resources (icons); safe to call more than once.
void initResources();

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// `settings` must outlive the window. `restoreLayout` false keeps the default layout (screenshots, tests).
    MainWindow(Settings* settings, const QString& rulesDir, bool restoreLayout = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// False (with the reason in the verdict panel) when `path` is not a bundle.
    bool openBundle(const QString& path);
    /// Arranges the docks for the default 1600x1000 window.
    void applyDefaultLayout();
    /// Dock widgets by object name, for screenshots of each pane.
    QList<QDockWidget*> docks() const;

    views::SelectionModel* selectionModel() const { return m_selection; }
    views::VerdictPanel* verdictPanel() const { return m_verdict; }
    views::TimelineView* timelineView() const { return m_timeline; }
    views::EvidencePanel* evidencePanel() const { return m_evidence; }
    views::DemotionView* demotionView() const { return m_demotion; }
    views::CoverageView* coverageView() const { return m_coverage; }
    JobController* jobController() const { return m_jobs; }
    BundleController* bundleController() const { return m_bundles; }
    ReportActions* reportActions() const { return m_reports; }
    RecentBundles* recentBundles() const { return m_recent; }
    ProgressPanel* progressPanel() const { return m_progress; }
    bench::RuleBench* ruleBench() const { return m_bench; }
    CasesController* casesController() const { return m_cases; }
    LearnController* learnController() const { return m_learn; }
    ServiceActions* serviceActions() const { return m_service; }

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area);
    void buildMenus();
    void installBench();
    void installLearning();
    void buildFileMenu();
    void rebuildRecentMenu();
    void bindSettings();
    void openFolderDialog();
    void openArchiveDialog();
    void updateTitle(const QString& bundle);
    void buildHelpMenu();
    /// Remembers the docks' share of the window so that a resize keeps the proportions (see resizeEvent).
    void recordDockShares();
    void applyDockShares();
    bool m_shown = false;

    Settings* m_settings;
    QString m_rulesDir;
    bool m_persistLayout;
    views::SelectionModel* m_selection;
    JobController* m_jobs;
    RecentBundles* m_recent;
    views::VerdictPanel* m_verdict;
    views::TimelineView* m_timeline;
    views::EvidencePanel* m_evidence;
    views::DemotionView* m_demotion;
    views::CoverageView* m_coverage;
    BundleController* m_bundles;
    ReportActions* m_reports;
    ProgressPanel* m_progress;
    bench::RuleBench* m_bench = nullptr;
    CasesController* m_cases = nullptr;
    LearnController* m_learn = nullptr;
    QMenu* m_helpMenu = nullptr;
    ServiceActions* m_service = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QDockWidget* m_verdictDock = nullptr;
    QDockWidget* m_symptomsDock = nullptr;
    QDockWidget* m_evidenceDock = nullptr;
    QDockWidget* m_coverageDock = nullptr;
    double m_leftShare = 0.36;     ///< verdict column width / window width
    double m_bottomShare = 0.36;   ///< evidence height / window height
    double m_verdictShare = 0.62;  ///< verdict height / (verdict + symptoms)
    bool m_restoringShares = false;
};

}  // namespace attrib::app
