// SPDX-License-Identifier: GPL-3.0-or-later
// A stored case as a report for an incident ticket: Markdown, HTML and PDF with the verdict, decisive evidence,
// demoted symptoms with their reasons, coverage gaps, the analyst's label and (optionally) the timeline image.
// Log text is escaped in every format: it is shown literally, never interpreted as markup.
#pragma once

#include "engine/store/case_store.h"

#include <QImage>
#include <QString>

namespace attrib::views {

/// `timelineImage`, when given, is the file name (relative to the report) of the timeline PNG to link.
QString caseReportMarkdown(const store::CaseRecord& record, const QString& timelineImage = {});
/// Self-contained HTML; `timeline` (when not null) is embedded as a PNG data URI.
QString caseReportHtml(const store::CaseRecord& record, const QImage& timeline = {});
/// Writes the HTML report as an A4 PDF; false with `error` set when the file cannot be written.
bool writeCaseReportPdf(const store::CaseRecord& record, const QString& path, QString* error,
                        const QImage& timeline = {});

/// Markdown-escapes text outside code: backslash before every character Markdown could read as syntax.
QString escapeMarkdown(const QString& text);
/// A fenced code block that no backtick run inside `text` can close.
QString markdownCodeBlock(const QString& text);

}  // namespace attrib::views
