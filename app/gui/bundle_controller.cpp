// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/bundle_controller.h"

#include "importers/analyzer.h"

#include "app/gui/file_evidence_source.h"
#include "app/gui/job_controller.h"
#include "app/gui/recent_bundles.h"
#include "views/evidence/evidence_panel.h"
#include "views/presentation.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_view.h"
#include "views/verdict/verdict_panel.h"

#include <QDir>
#include <QFileInfo>

namespace attrib::app {

BundleController::BundleController(WorkbenchViews views, JobController* jobs, RecentBundles* recent, QObject* parent)
    : QObject(parent)
    , m_views(views)
    , m_jobs(jobs)
    , m_recent(recent)
{
    connect(m_jobs, &JobController::started, this, &BundleController::onStarted);
    connect(m_jobs, &JobController::bundleIndexed, this, &BundleController::onIndexed);
    connect(m_jobs, &JobController::analysisReady, this, &BundleController::onAnalysed);
    connect(m_jobs, &JobController::timelineReady, this, &BundleController::onTimeline);
    connect(m_jobs, &JobController::failed, this, &BundleController::onFailed);
    connect(m_jobs, &JobController::cancelled, this, &BundleController::onCancelled);
}

bool BundleController::isBundlePath(const QString& path)
{
    return whyNotBundle(path).isEmpty();
}

QString BundleController::whyNotBundle(const QString& path)
{
    return QString::fromStdString(
        importers::whyNotBundle(QDir::cleanPath(QFileInfo(path).absoluteFilePath()).toStdString()));
}

bool BundleController::open(const QString& path)
{
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    if (const QString why = whyNotBundle(absolute); !why.isEmpty()) {
        m_views.verdict->showMessage(QStringLiteral("Cannot open this bundle"), why, true);
        Q_EMIT statusMessage(why);
        return false;
    }
    m_recent->add(absolute);
    m_jobs->analyze(absolute);
    return true;
}

void BundleController::reload()
{
    if (!m_bundle.isEmpty())
        open(m_bundle);
}

void BundleController::onStarted(quint64, const QString& bundle)
{
    m_bundle = bundle;
    m_analysis.reset();
    m_views.selection->setAnalysis(nullptr);
    m_views.verdict->showMessage(QStringLiteral("Analysing\u2026"), bundle);
    Q_EMIT bundleChanged(bundle);
    Q_EMIT statusMessage(QStringLiteral("Analysing ") + bundle);
}

void BundleController::replaceSource(const std::vector<engine::BundleFile>& files, const engine::CatalogPtr& catalog)
{
    if (m_source && m_source->sameFiles(files)) {
        if (catalog)
            m_source->setCatalog(catalog);
        return;
    }
    auto* source = new FileEvidenceSource(files, catalog, this);
    m_views.evidence->setSource(source);
    if (m_source)
        m_source->deleteLater();
    m_source = source;
}

void BundleController::onIndexed(quint64, const views::AnalysisPtr& partial)
{
    replaceSource(partial->r().files, nullptr);
    m_views.evidence->setBundleFiles(partial);
    Q_EMIT statusMessage(QStringLiteral("%1 files found; reading them\u2026").arg(partial->r().files.size()));
}

void BundleController::onAnalysed(quint64, const views::AnalysisPtr& analysis, const engine::CatalogPtr& catalog,
                                  qint64 elapsedMs)
{
    m_analysis = analysis;
    replaceSource(analysis->r().files, catalog);
    m_views.selection->setAnalysis(analysis);
    // Start where the engineer would: on the decisive line of the root cause, or of the first candidate of an
    // ambiguous verdict, or on the first lead when nothing was explained.
    const auto& candidates = analysis->r().verdict.candidates;
    const int start = analysis->rootCauseSymptom >= 0 ? analysis->rootCauseSymptom
        : candidates.empty()                          ? -1
                                                      : analysis->symptomIndex(candidates.front().symptomId);
    if (start >= 0) {
        const int decisive = analysis->primaryObservation(start);
        if (decisive >= 0)
            m_views.selection->selectObservation(decisive);
        else
            m_views.selection->selectSymptom(start);
    } else if (const auto& leads = analysis->r().verdict.leads; !leads.empty()) {
        // No rule explains the failure: open on the first lead, the earliest error-level line.
        if (const int file = analysis->fileIndex(leads.front().file); file >= 0)
            m_views.evidence->showFile(file, static_cast<qint64>(leads.front().line) - 1);
    }
    const auto& v = analysis->r().verdict;
    Q_EMIT statusMessage(QStringLiteral("Verdict in %1 ms: %2 / %3")
                             .arg(elapsedMs)
                             .arg(views::qs(v.terminalState), views::qs(v.subDomain)));
    Q_EMIT verdictShown(elapsedMs);
}

void BundleController::onTimeline(quint64, const views::TimelineDataPtr& timeline)
{
    m_views.timeline->setTimelineData(timeline);
    Q_EMIT timelineShown();
}

void BundleController::adopt(const engine::AnalysisSnapshot& result, const engine::CatalogPtr& catalog)
{
    if (!result)
        return;
    const auto analysis = views::AnalysisData::build(result, catalog.get());
    onAnalysed(0, analysis, catalog, 0);
    m_views.timeline->setTimelineData(views::TimelineData::build(*analysis));
    Q_EMIT statusMessage(QStringLiteral("Re-analysed with the edited rules"));
}

void BundleController::onFailed(quint64, const QString& bundle, const QString& error)
{
    m_views.verdict->showMessage(QStringLiteral("Could not analyse the bundle"),
                                 bundle + QStringLiteral("\n\n") + error, true);
    Q_EMIT statusMessage(QStringLiteral("Analysis failed: ") + error);
}

void BundleController::onCancelled(quint64, const QString& bundle)
{
    m_views.verdict->showMessage(QStringLiteral("Analysis cancelled"),
                                 bundle + QStringLiteral("\n\nUse File \u203a Reload to analyse it again."));
    Q_EMIT statusMessage(QStringLiteral("Analysis cancelled"));
}

}  // namespace attrib::app
