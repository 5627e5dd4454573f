// SPDX-License-Identifier: GPL-3.0-or-later
// Runs analyses off the GUI thread (views::JobRunner) with progress by stage and cancellation.
// A newer analysis supersedes an older one: each job carries a generation and only the latest one's
// results reach the views. Results arrive in stages so that views fill in as soon as their data exists.
#pragma once

#include "engine/catalog.h"
#include "views/analysis_data.h"
#include "views/job_runner.h"
#include "views/timeline/timeline_data.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>

#include <memory>

namespace attrib::app {

/// One staged result of an analysis job.
struct StageResult {
    enum class Stage { Indexed, Analysed, TimelineReady, Failed };
    Stage stage = Stage::Failed;
    views::AnalysisPtr analysis;  ///< Indexed: the bundle's files only; Analysed: the full result
    views::TimelineDataPtr timeline;
    engine::CatalogPtr catalog;
    QString error;
};

class CatalogCache;

class JobController : public QObject {
    Q_OBJECT

public:
    /// `rulesDir` is the catalog folder (see rules::findRulesDir); loaded once, in the first job.
    explicit JobController(const QString& rulesDir, QObject* parent = nullptr);
    ~JobController() override;

    /// Starts analysing `bundle` (folder or archive), superseding any running job. Returns its generation.
    quint64 analyze(const QString& bundle);
    void cancel();
    bool isRunning() const;
    quint64 generation() const { return m_jobs.generation(); }
    QString bundle() const { return m_bundle; }
    /// Blocks until the running job ends (tests and shutdown only).
    void waitForIdle();

Q_SIGNALS:
    void started(quint64 generation, const QString& bundle);
    /// `stage` is a human-readable stage name; `permille` in 0..1000.
    void progressChanged(const QString& stage, int permille);
    void bundleIndexed(quint64 generation, const attrib::views::AnalysisPtr& partial);
    void analysisReady(quint64 generation, const attrib::views::AnalysisPtr& analysis,
                       const attrib::engine::CatalogPtr& catalog, qint64 elapsedMs);
    void timelineReady(quint64 generation, const attrib::views::TimelineDataPtr& timeline);
    void failed(quint64 generation, const QString& bundle, const QString& error);
    void cancelled(quint64 generation, const QString& bundle);
    /// The job ended (after its last stage, a failure or a cancellation).
    void finished(quint64 generation);

private:
    void onResult(const StageResult& r);
    void onFinished(bool wasCancelled);

    std::shared_ptr<CatalogCache> m_catalog;
    QFuture<void> m_prefetch;
    views::JobRunner m_jobs;
    QString m_bundle;
    QElapsedTimer m_timer;
};

}  // namespace attrib::app
