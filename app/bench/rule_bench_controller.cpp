// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/bench/rule_bench_controller.h"

#include "engine/corpus_impact.h"
#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace attrib::bench {

RuleBenchController::RuleBenchController(QObject* parent)
    : QObject(parent)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, &RuleBenchController::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &RuleBenchController::onFileEvent);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &RuleBenchController::onFileEvent);
}

RuleBenchController::~RuleBenchController()
{
    if (m_cancel)
        m_cancel->store(true);
}

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
    ++m_catalogGeneration;
    ++m_analysisGeneration;
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
    const quint64 generation = ++m_catalogGeneration;
    const std::string dir = m_dir.toStdString();
    auto* watcher = new QFutureWatcher<engine::CatalogPtr>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        onCatalogLoaded(watcher->result(), generation);
        watcher->deleteLater();
        setBusy(-1);
    });
    setBusy(+1);
    watcher->setFuture(QtConcurrent::run([dir] { return rules::loadCatalog(dir); }));
}

void RuleBenchController::onCatalogLoaded(engine::CatalogPtr fresh, quint64 generation)
{
    if (generation != m_catalogGeneration || !fresh)
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
    m_catalog = std::move(fresh);
    if (!m_baseline)
        m_baseline = m_catalog;
    Q_EMIT catalogLoaded(m_catalog);
    rerun();
}

void RuleBenchController::rerun()
{
    if (!m_catalog || m_bundle.isEmpty())
        return;
    if (m_cancel)
        m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_analysisGeneration;
    using Outcome = std::pair<engine::AnalysisSnapshot, QString>;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        const Outcome outcome = watcher->result();
        onAnalysed(outcome.first, outcome.second, generation);
        watcher->deleteLater();
        setBusy(-1);
    });
    setBusy(+1);
    watcher->setFuture(QtConcurrent::run([bundle = m_bundle.toStdString(), catalog = m_catalog, cancel = m_cancel] {
        importers::AnalyzeOptions options;
        options.cancel = cancel.get();
        auto outcome = importers::analyzeBundle(bundle, catalog, options);
        return Outcome{outcome.result, QString::fromStdString(outcome.error)};
    }));
}

void RuleBenchController::onAnalysed(engine::AnalysisSnapshot result, const QString& error, quint64 generation)
{
    if (generation != m_analysisGeneration)
        return;
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
