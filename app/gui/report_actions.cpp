// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/report_actions.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/settings.h"
#include "engine/report.h"
#include "views/timeline/timeline_view.h"

#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>

namespace attrib::app {

ReportActions::ReportActions(BundleController* bundles, views::TimelineView* timeline, Settings* settings,
                             QWidget* parent)
    : QObject(parent)
    , m_bundles(bundles)
    , m_timeline(timeline)
    , m_settings(settings)
    , m_parent(parent)
{
}

QString ReportActions::verdictMarkdown() const
{
    const views::AnalysisPtr analysis = m_bundles->analysis();
    return analysis ? QString::fromStdString(engine::reportMarkdown(analysis->r())) : QString();
}

bool ReportActions::copyVerdictMarkdown()
{
    const QString markdown = verdictMarkdown();
    if (markdown.isEmpty()) {
        Q_EMIT statusMessage(QStringLiteral("No verdict to copy yet"));
        return false;
    }
    QGuiApplication::clipboard()->setText(markdown);
    Q_EMIT statusMessage(QStringLiteral("Verdict copied as Markdown"));
    return true;
}

bool ReportActions::exportTimeline(const QString& fileName)
{
    const bool svg = fileName.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    const bool ok = svg ? m_timeline->exportSvg(fileName) : m_timeline->exportPng(fileName);
    Q_EMIT statusMessage(ok ? QStringLiteral("Timeline written to ") + fileName
                            : QStringLiteral("Could not write ") + fileName);
    return ok;
}

void ReportActions::exportTimelineInteractive(bool svg)
{
    const QString base = QFileInfo(m_bundles->currentBundle()).completeBaseName();
    const QString suggested =
        QDir(m_settings->lastOpenDir())
            .filePath((base.isEmpty() ? QStringLiteral("timeline") : base + QStringLiteral("-timeline")) +
                      (svg ? QStringLiteral(".svg") : QStringLiteral(".png")));
    const QString fileName = QFileDialog::getSaveFileName(
        m_parent, svg ? QStringLiteral("Export timeline as SVG") : QStringLiteral("Export timeline as PNG"), suggested,
        svg ? QStringLiteral("SVG images (*.svg)") : QStringLiteral("PNG images (*.png)"));
    if (!fileName.isEmpty())
        exportTimeline(fileName);
}

}  // namespace attrib::app
