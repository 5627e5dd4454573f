// SPDX-License-Identifier: GPL-3.0-or-later
// Live rule editing without widgets: watches the rules folder, reloads the catalog in the background
// (inline cases run at load), re-runs the analysis of the current bundle, and reports how the verdict
// changed. A reload that brings new catalog errors is rejected: the last good catalog stays active.
#pragma once

#include "engine/catalog.h"
#include "engine/verdict_diff.h"
#include "views/job_runner.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

namespace attrib::bench {

class RuleBenchController : public QObject {
    Q_OBJECT

public:
    explicit RuleBenchController(QObject* parent = nullptr);
    ~RuleBenchController() override;

    /// Adopts a catalog and an analysis made elsewhere (the main window's job) without re-running, and
    /// starts watching the catalog's folder.
    void adopt(engine::CatalogPtr catalog, engine::AnalysisSnapshot result, const QString& bundlePath);
    /// Loads the catalog of `rulesDir` and analyses `bundlePath` in the background (analysisFinished).
    void start(const QString& rulesDir, const QString& bundlePath);

    engine::CatalogPtr catalog() const { return m_catalog; }
    /// The first catalog of the session: the default baseline of the corpus impact.
    engine::CatalogPtr baselineCatalog() const { return m_baseline; }
    engine::AnalysisSnapshot result() const { return m_result; }
    QString rulesDir() const;
    QString bundlePath() const { return m_bundle; }
    bool busy() const { return m_busy > 0; }
    /// Debounce between a file event and the reload (ms).
    void setDebounce(int ms) { m_debounce.setInterval(ms); }
    QStringList watchedFiles() const { return m_watcher.files(); }

public Q_SLOTS:
    /// Reloads the catalog now (also called after a save in the editor).
    void reload();
    /// Re-analyses the bundle with the active catalog.
    void rerun();

Q_SIGNALS:
    /// A new catalog is active (its inline cases ran at load).
    void catalogLoaded(const attrib::engine::CatalogPtr& catalog);
    /// An edit brought new problems; `broken` is the rejected catalog, `problems` what is new in it.
    void catalogRejected(const attrib::engine::CatalogPtr& broken,
                         const std::vector<attrib::engine::Diagnostic>& problems);
    /// An analysis finished; `diff` compares with the previous result (empty on the first run).
    void analysisFinished(const attrib::engine::AnalysisSnapshot& result, const attrib::engine::VerdictDiff& diff,
                          bool first);
    void analysisFailed(const QString& error);
    /// A rule file changed on disk (for an editor showing it).
    void ruleFileChanged(const QString& path);
    void busyChanged(bool busy);

private:
    void watch(const QString& dir);
    void onFileEvent(const QString& path);
    void onCatalogLoaded(const engine::CatalogPtr& fresh);
    void onAnalysed(engine::AnalysisSnapshot result, const QString& error);
    void setBusy(int delta);

    engine::CatalogPtr m_catalog;
    engine::CatalogPtr m_baseline;
    engine::AnalysisSnapshot m_result;
    QString m_bundle;
    QString m_dir;
    QFileSystemWatcher m_watcher;
    QTimer m_debounce;
    int m_busy = 0;
    views::JobRunner m_catalogJobs;   ///< catalog reloads: a newer reload supersedes an older one
    views::JobRunner m_analysisJobs;  ///< re-analyses: a newer run cancels an older one
};

}  // namespace attrib::bench
