// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/job_controller.h"

#include "engine/progress.h"
#include "importers/analyze_parallel.h"
#include "importers/analyzer.h"
#include "importers/bundle.h"
#include "rules/cpp/builtin_rules.h"

#include <QFileInfo>
#include <QtConcurrent>

#include <chrono>
#include <mutex>

namespace attrib::app {

/// The catalog, loaded by the first job that needs it and shared by all later ones.
class CatalogCache {
public:
    explicit CatalogCache(std::string dir)
        : m_dir(std::move(dir))
    {
    }
    engine::CatalogPtr get()
    {
        const std::lock_guard lock(m_mutex);
        if (!m_catalog)
            m_catalog = rules::loadCatalog(m_dir);
        return m_catalog;
    }

private:
    std::string m_dir;
    std::mutex m_mutex;
    engine::CatalogPtr m_catalog;
};

namespace {

/// Engine progress -> promise progress (throttled), and promise cancellation -> engine cancel flag.
class ProgressAdapter final : public engine::ProgressSink {
public:
    ProgressAdapter(QPromise<StageResult>& promise, std::atomic<bool>& cancel)
        : m_promise(promise)
        , m_cancel(cancel)
    {
    }

    void progress(engine::ProgressStage stage, std::uint64_t done, std::uint64_t total) override
    {
        if (m_promise.isCanceled())
            m_cancel = true;
        switch (stage) {
        case engine::ProgressStage::ReadingFiles:
            return report(QStringLiteral("reading files and extracting"), 50 + scaled(done, total, 800));
        case engine::ProgressStage::Correlating: return report(QStringLiteral("correlating"), 860);
        case engine::ProgressStage::ClockSkew:
        case engine::ProgressStage::EarlyRules:
        case engine::ProgressStage::Symptoms:
        case engine::ProgressStage::Refine:
        case engine::ProgressStage::Priority:
        case engine::ProgressStage::Outcome:  // one step of 10 per-mille each, after the reading
            return report(QString::fromUtf8(engine::toString(stage)), 860 + 10 * static_cast<int>(done));
        case engine::ProgressStage::Leads:  // an unexplained failure: its files read again, 920 to 930
            return report(QStringLiteral("finding leads (no rule explains the failure)"),
                          920 + scaled(done, total, 10));
        case engine::ProgressStage::Verdict: return report(QStringLiteral("verdict"), 930);
        default: return report(QString::fromUtf8(engine::toString(stage)), -1);
        }
    }

    void report(const QString& stage, int permille)
    {
        const auto now = std::chrono::steady_clock::now();
        // About 15 updates a second; a new stage is always reported.
        if (stage == m_stage && now - m_last < std::chrono::milliseconds(66))
            return;
        m_stage = stage;
        m_last = now;
        m_promise.setProgressValueAndText(permille < 0 ? m_promise.future().progressValue() : permille, stage);
    }

private:
    static int scaled(std::uint64_t done, std::uint64_t total, int range)
    {
        return total == 0 ? 0 : static_cast<int>(static_cast<double>(std::min(done, total)) / total * range);
    }

    QPromise<StageResult>& m_promise;
    std::atomic<bool>& m_cancel;
    QString m_stage;
    std::chrono::steady_clock::time_point m_last;
};

StageResult indexedStage(const std::string& path)
{
    std::string error;
    auto partial = std::make_shared<engine::AnalysisResult>();
    partial->bundlePath = path;
    for (auto& entry : importers::listBundle(path, error))
        partial->files.push_back(std::move(entry.file));
    StageResult r;
    r.stage = StageResult::Stage::Indexed;
    r.analysis = views::AnalysisData::build(std::move(partial));
    return r;
}

void runJob(QPromise<StageResult>& promise, const std::string& path, CatalogCache& catalogs, engine::CancelFlag& cancel)
{
    promise.setProgressRange(0, 1000);
    ProgressAdapter progress(promise, cancel);
    if (QFileInfo(QString::fromStdString(path)).isDir()) {
        progress.report(QStringLiteral("listing bundle"), 1);  // Qt keeps only a growing value
        promise.addResult(indexedStage(path));
    }
    progress.report(QStringLiteral("loading rules"), 20);
    const engine::CatalogPtr catalog = catalogs.get();
    importers::AnalyzeOptions options;
    options.progress = &progress;
    options.cancel = &cancel;
    // Plain files of a folder are read on one thread per CPU; the result is the same byte for byte as on one.
    importers::AnalyzeOutcome outcome = importers::analyzeBundleParallel(path, catalog, options, 0);
    if (outcome.cancelled || promise.isCanceled())
        return;
    if (!outcome.result) {
        StageResult failed;
        failed.error = QString::fromStdString(outcome.error);
        promise.addResult(std::move(failed));
        return;
    }
    progress.report(QStringLiteral("preparing views"), 950);
    StageResult analysed;
    analysed.stage = StageResult::Stage::Analysed;
    analysed.analysis = views::AnalysisData::build(std::move(outcome.result), catalog.get());
    analysed.catalog = catalog;
    const views::AnalysisPtr analysis = analysed.analysis;
    promise.addResult(std::move(analysed));
    progress.report(QStringLiteral("building timeline"), 975);
    StageResult timeline;
    timeline.stage = StageResult::Stage::TimelineReady;
    timeline.timeline = views::TimelineData::build(*analysis);
    promise.addResult(std::move(timeline));
    progress.report(QStringLiteral("done"), 1000);
}

}  // namespace

JobController::JobController(const QString& rulesDir, QObject* parent)
    : QObject(parent)
    , m_catalog(std::make_shared<CatalogCache>(rulesDir.toStdString()))
    , m_jobs(this)
{
    // Loading the catalog runs every rule's inline cases; start it now so the first analysis need not wait.
    m_prefetch = QtConcurrent::run([catalog = m_catalog] { catalog->get(); });
}

JobController::~JobController()
{
    m_jobs.cancel();
    m_jobs.waitForIdle();
    m_prefetch.waitForFinished();
}

quint64 JobController::analyze(const QString& bundle)
{
    m_bundle = bundle;
    m_timer.start();
    views::JobHandlers<StageResult> on;
    on.result = [this](const StageResult& r) { onResult(r); };
    on.progress = [this](const QString& text, int value) { Q_EMIT progressChanged(text, value); };
    on.finished = [this](bool cancelled) { onFinished(cancelled); };
    const quint64 generation = m_jobs.start(
        [path = bundle.toStdString(), catalogs = m_catalog](
            QPromise<StageResult>& promise, engine::CancelFlag& cancel) { runJob(promise, path, *catalogs, cancel); },
        std::move(on));
    Q_EMIT started(generation, bundle);
    return generation;
}

void JobController::cancel()
{
    m_jobs.cancel();
}

bool JobController::isRunning() const
{
    return m_jobs.isRunning();
}

void JobController::waitForIdle()
{
    m_jobs.waitForIdle();
}

void JobController::onResult(const StageResult& r)
{
    const quint64 generation = m_jobs.generation();
    switch (r.stage) {
    case StageResult::Stage::Indexed: Q_EMIT bundleIndexed(generation, r.analysis); break;
    case StageResult::Stage::Analysed:
        Q_EMIT analysisReady(generation, r.analysis, r.catalog, m_timer.elapsed());
        break;
    case StageResult::Stage::TimelineReady: Q_EMIT timelineReady(generation, r.timeline); break;
    case StageResult::Stage::Failed: Q_EMIT failed(generation, m_bundle, r.error); break;
    }
}

void JobController::onFinished(bool wasCancelled)
{
    const quint64 generation = m_jobs.generation();
    if (wasCancelled)
        Q_EMIT cancelled(generation, m_bundle);
    Q_EMIT finished(generation);
}

}  // namespace attrib::app
