// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/bench/rule_bench_controller.h"

#include "engine/corpus_impact.h"
#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"

#include <QDirIterator>
#include <QFileInfo>

namespace attrib::bench {

RuleBenchController::RuleBenchController(QObject* parent)
    : QObject(parent)
    , m_catalogJobs(this)
    , m_analysisJobs(this)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, &RuleBenchController::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &RuleBenchController::onFileEvent);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &RuleBenchController::onFileEvent);
}

RuleBenchController::~RuleBenchController() = default;

QString RuleBenchController::rulesDir() const
{
    return m_dir;
}

void RuleBenchController::adopt(engine::CatalogPtr catalog, engine::AnalysisSnapshot result, const QString& bundlePath)
{
    m_catalog = std::move(catalog);
    if (!m_baseline)
        m_baseline = m_catalog;
    m_result = std::move(result);
    m_bundle = bundlePath;
    // What was loading or running for an earlier catalog or bundle no longer applies.
    m_catalogJobs.cancel();
    m_analysisJobs.cancel();
    if (m_catalog)
        watch(QString::fromStdString(m_catalog->directory()));
}

void RuleBenchController::start(const QString& rulesDir, const QString& bundlePath)
{
    m_catalog.reset();
    m_result.reset();
    m_bundle = bundlePath;
    watch(rulesDir);
    reload();
}

void RuleBenchController::watch(const QString& dir)
{
    m_dir = QFileInfo(dir).absoluteFilePath();
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    QStringList paths{m_dir};
    QDirIterator it(m_dir, QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (it.fileInfo().isDir() || path.endsWith(QLatin1String(".json")))
            paths << path;
    }
    m_watcher.addPaths(paths);
}

void RuleBenchController::onFileEvent(const QString& path)
{
    // Editors save by writing a new file and renaming it over the old one, which drops the watch:
    // watch the whole tree again so new and replaced files are covered.
    watch(m_dir);
    if (path.endsWith(QLatin1String(".json")))
        Q_EMIT ruleFileChanged(path);
    m_debounce.start();
}

void RuleBenchController::setBusy(int delta)
{
    const bool before = busy();
    m_busy += delta;
    if (before != busy())
        Q_EMIT busyChanged(busy());
}

void RuleBenchController::reload()
{
    m_debounce.stop();
    if (m_dir.isEmpty())
        return;
    views::JobHandlers<engine::CatalogPtr> on;
    on.result = [this](const engine::CatalogPtr& fresh) { onCatalogLoaded(fresh); };
    on.ended = [this] { setBusy(-1); };
    setBusy(+1);
    m_catalogJobs.start(
        [dir = m_dir.toStdString()](QPromise<engine::CatalogPtr>& promise, engine::CancelFlag&) {
            promise.addResult(rules::loadCatalog(dir));
        },
        std::move(on));
}

void RuleBenchController::onCatalogLoaded(const engine::CatalogPtr& fresh)
{
    if (!fresh)
        return;
    std::vector<engine::Diagnostic> problems;
    if (m_catalog)
        for (const auto& d : engine::newDiagnostics(*m_catalog, *fresh))
            if (d.severity == engine::Diagnostic::Severity::Error)
                problems.push_back(d);
    if (!problems.empty()) {
        Q_EMIT catalogRejected(fresh, problems);
        return;
    }
    m_catalog = fresh;
    if (!m_baseline)
        m_baseline = m_catalog;
    Q_EMIT catalogLoaded(m_catalog);
    rerun();
}

void RuleBenchController::rerun()
{
    if (!m_catalog || m_bundle.isEmpty())
        return;
    using Outcome = std::pair<engine::AnalysisSnapshot, QString>;
    views::JobHandlers<Outcome> on;
    on.result = [this](const Outcome& outcome) { onAnalysed(outcome.first, outcome.second); };
    on.ended = [this] { setBusy(-1); };
    setBusy(+1);
    m_analysisJobs.start(
        [bundle = m_bundle.toStdString(), catalog = m_catalog](QPromise<Outcome>& promise, engine::CancelFlag& cancel) {
            importers::AnalyzeOptions options;
            options.cancel = &cancel;
            auto outcome = importers::analyzeBundle(bundle, catalog, options);
            promise.addResult(Outcome{outcome.result, QString::fromStdString(outcome.error)});
        },
        std::move(on));
}

void RuleBenchController::onAnalysed(engine::AnalysisSnapshot result, const QString& error)
{
    if (!result) {
        Q_EMIT analysisFailed(error);
        return;
    }
    const bool first = !m_result;
    const engine::VerdictDiff diff = first ? engine::VerdictDiff{} : engine::diffVerdicts(*m_result, *result);
    m_result = std::move(result);
    Q_EMIT analysisFinished(m_result, diff, first);
}

}  // namespace attrib::bench
