// SPDX-License-Identifier: GPL-3.0-or-later
// Opens bundles (folder or archive) and hands each stage of the analysis to the views: the file list
// and evidence source as soon as the bundle is listed, verdict and symptoms when the analysis is done,
// the timeline when its data is ready. Failures and cancellations end up in the verdict panel.
#pragma once

#include "engine/catalog.h"
#include "views/analysis_data.h"
#include "views/timeline/timeline_data.h"

#include <QObject>
#include <QPointer>

namespace attrib::views {
class EvidencePanel;
class SelectionModel;
class TimelineView;
class VerdictPanel;
}  // namespace attrib::views

namespace attrib::app {

class FileEvidenceSource;
class JobController;
class RecentBundles;

/// The views the controller feeds (owned by the main window).
struct WorkbenchViews {
    views::SelectionModel* selection = nullptr;
    views::VerdictPanel* verdict = nullptr;
    views::TimelineView* timeline = nullptr;
    views::EvidencePanel* evidence = nullptr;
};

class BundleController : public QObject {
    Q_OBJECT

public:
    BundleController(WorkbenchViews views, JobController* jobs, RecentBundles* recent, QObject* parent = nullptr);

    /// An existing folder, or an archive recognised by its content (importers::whyNotBundle: what the CLI reads).
    static bool isBundlePath(const QString& path);
    /// Why `path` is not a bundle, as one sentence (empty when it is one).
    static QString whyNotBundle(const QString& path);

    /// Starts analysing `path`; false (with a message in the verdict panel) when it is not a bundle.
    bool open(const QString& path);
    void reload();
    /// Shows a result produced elsewhere (the rule bench re-running after a live rule edit).
    void adopt(const engine::AnalysisSnapshot& result, const engine::CatalogPtr& catalog);
    QString currentBundle() const { return m_bundle; }
    views::AnalysisPtr analysis() const { return m_analysis; }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void bundleChanged(const QString& path);
    void verdictShown(qint64 elapsedMs);
    void timelineShown();

private:
    void onStarted(quint64 generation, const QString& bundle);
    void onIndexed(quint64 generation, const views::AnalysisPtr& partial);
    void onAnalysed(quint64 generation, const views::AnalysisPtr& analysis, const engine::CatalogPtr& catalog,
                    qint64 elapsedMs);
    void onTimeline(quint64 generation, const views::TimelineDataPtr& timeline);
    void onFailed(quint64 generation, const QString& bundle, const QString& error);
    void onCancelled(quint64 generation, const QString& bundle);
    void replaceSource(const std::vector<engine::BundleFile>& files, const engine::CatalogPtr& catalog);

    WorkbenchViews m_views;
    JobController* m_jobs;
    RecentBundles* m_recent;
    QPointer<FileEvidenceSource> m_source;
    views::AnalysisPtr m_analysis;
    QString m_bundle;
};

}  // namespace attrib::app
