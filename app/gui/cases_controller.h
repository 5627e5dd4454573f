// SPDX-License-Identifier: GPL-3.0-or-later
// Cases in the workbench: every analysis is saved as a case in the per-user store; File › Open case reopens
// one without re-running the engine (read-only evidence when the bundle moved); the label panel saves as you
// type; the search panel indexes every line of the bundle; the fleet view lists all cases; reports export a case.
#pragma once

#include "engine/store/case_store.h"
#include "engine/verdict.h"
#include "views/job_runner.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace attrib::views {
class EvidencePanel;
class FleetView;
class LabelPanel;
class SearchPanel;
}  // namespace attrib::views

namespace attrib::app {

class BundleController;

class CasesController : public QObject {
    Q_OBJECT

public:
    CasesController(BundleController* bundles, views::EvidencePanel* evidence, QObject* parent = nullptr);
    ~CasesController() override;

    /// The per-user store: <AppDataLocation>/cases.sqlite.
    static QString defaultStorePath();
    void setStorePath(const QString& path) { m_storePath = path; }
    QString storePath() const { return m_storePath; }

    /// Adds the Search and Case label docks (as tabs beside `tabWith`, which stays in front) and the File menu
    /// entries (Open case, Export case report).
    void install(QMainWindow* window, QDockWidget* tabWith);

    /// Saves the analysis as a case (hash and insert off the GUI thread); caseSaved or failed follows.
    void saveAnalysis(const engine::AnalysisSnapshot& result);
    /// Reopens a stored case without running the engine; false (with a message) when it cannot.
    bool openCase(qint64 id);
    /// All cases of the store, newest first (empty with a message on error).
    std::vector<store::CaseSummary> listCases();
    /// Writes the open case as Markdown (.md), HTML (.html) or PDF (.pdf), by suffix, with the timeline image
    /// when a renderer is set (embedded in HTML and PDF; a PNG beside a Markdown report, linked from it).
    bool exportReport(const QString& path, QString* error);
    /// Draws the timeline of the case on screen for reports (the main window sets it).
    void setTimelineRenderer(std::function<QImage()> renderer) { m_timelineImage = std::move(renderer); }

    qint64 currentCase() const { return m_caseId; }
    /// The PNG a Markdown report at `reportPath` links to: "<name>-timeline.png" beside it.
    static QString timelineImagePath(const QString& reportPath);
    views::LabelPanel* labelPanel() const { return m_labels; }
    views::SearchPanel* searchPanel() const { return m_search; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void caseSaved(qint64 id);
    void caseOpened(qint64 id, bool readOnly);

private:
    void onVerdictShown();
    /// What saving a case in the background hands back.
    struct Saved {
        qint64 id = 0;
        std::string hash;
        engine::AnalysisSnapshot result;
        QString error;
    };
    void onSaved(const Saved& saved);
    void saveLabel(qint64 id, const store::CaseLabel& label);
    void startSearch(const std::string& hash, const engine::AnalysisSnapshot& result);
    void showFleet(QMainWindow* window);
    void exportInteractive(QMainWindow* window);

    BundleController* m_bundles;
    views::EvidencePanel* m_evidence;
    views::LabelPanel* m_labels;
    views::SearchPanel* m_search;
    QString m_storePath;
    std::function<QImage()> m_timelineImage;
    qint64 m_caseId = 0;
    bool m_adopting = false;
    views::JobRunner m_saves{this};  ///< saving the shown analysis; a newer analysis' save supersedes it
};

}  // namespace attrib::app
