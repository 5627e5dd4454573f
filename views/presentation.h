// SPDX-License-Identifier: GPL-3.0-or-later
// Shared presentation helpers: domain colours readable on a light background, time and text formatting.
// Log text is untrusted: everything here renders it as plain text.
#pragma once

#include "views/analysis_data.h"

#include <QColor>
#include <QString>
#include <QStringList>

class QPainter;
class QPointF;

namespace attrib::views {

/// The sub-domain vocabulary plus "context" (events that raise no symptom), in legend order.
QStringList domainNames();
/// Colour of a domain (sub_domain vocabulary; unknown names get the "unknown" grey).
QColor domainColor(const QString& domain);
QColor domainColor(const std::string& domain);
/// Marker shapes: with the colour they keep domains apart for colour-blind readers.
enum class MarkerShape : std::uint8_t { Circle, Square, Triangle, Diamond, TriangleDown };
MarkerShape domainShape(const QString& domain);
/// Draws a marker of radius about `r` centred on `c` with the painter's pen and brush.
void drawMarker(QPainter* painter, const QPointF& c, double r, MarkerShape shape);
/// Colour of a terminal state badge.
QColor terminalStateColor(const std::string& state);
/// Colour of an evidence role (gutter marks).
QColor roleColor(EvidenceRole role);
QString roleName(EvidenceRole role);
/// Colour of a coverage status.
QColor coverageStatusColor(engine::CoverageStatus status);

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
/// The name of an internal vocabulary value (trace phase, action, ...).
inline QString qs(const char* s)
{
    return QString::fromUtf8(s);
}

/// `2026-04-22 21:34:20.118` (UTC); empty for NoTime.
QString formatUtc(engine::TimeNs time, bool withDate = true);
/// When something happened, in words: `2026-04-22 21:34:20.118 UTC`, `+12345.678 s since boot` (a dmesg uptime with
/// no known boot time, which must not read as a 1970 date) or `time unknown`.
QString whenText(engine::TimeNs time, engine::TimeSource source);
/// `node-02 · GPU 3 · rank 11` (parts omitted when unknown).
QString placeText(const std::string& node, int gpu, int rank = -1, const std::string& link = {});
/// Whether times of `node` were corrected for its clock offset, for every place that prints a time:
/// "clock-corrected +1.20 s" / "reference clock, not corrected" / "" when no offset was estimated in this analysis.
QString clockNote(const engine::AnalysisResult& r, const std::string& node);
/// A tooltip that shows `text` literally (escaped, whitespace kept), never as markup.
QString plainToolTip(const QString& text);
/// Replaces control characters so a log line paints on one row, keeping one character per character.
QString sanitizeLine(QString line);
/// `12.3 MB`
QString formatBytes(std::uint64_t bytes);

}  // namespace attrib::views
