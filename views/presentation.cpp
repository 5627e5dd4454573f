// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/presentation.h"

#include <QDateTime>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <map>

namespace attrib::views {

using namespace attrib::engine;

namespace {

struct DomainColor {
    const char* name;
    QRgb rgb;
    MarkerShape shape;
};

// Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2008) plus greys; domains that share a colour
// differ in marker shape, so every domain stays distinct without relying on hue alone.
constexpr QRgb Vermillion = 0xd55e00, Blue = 0x0072b2, Green = 0x009e73, Orange = 0xe69f00, Sky = 0x56b4e9,
               Purple = 0xcc79a7, Ink = 0x444444;
using enum MarkerShape;
constexpr DomainColor DomainColors[] = {
    {"gpu", Vermillion, Circle},    {"gpu_memory", Vermillion, Square},  {"nvlink", Purple, Circle},
    {"nvswitch", Purple, Square},   {"network", Blue, Circle},           {"comm_library", Sky, Diamond},
    {"host", Orange, Circle},       {"storage", Orange, Square},         {"scheduler", Ink, Triangle},
    {"container", Green, Triangle}, {"power_thermal", Orange, Triangle}, {"application", Blue, Square},
    {"oom", Vermillion, Diamond},   {"configuration", Green, Diamond},   {"unknown", 0x9e9e9e, Circle},
    {"context", 0xb0b7bf, Circle},
};

}  // namespace

QStringList domainNames()
{
    QStringList names;
    for (const auto& d : DomainColors)
        names << QLatin1String(d.name);
    return names;
}

QColor domainColor(const QString& domain)
{
    for (const auto& d : DomainColors) {
        if (domain == QLatin1String(d.name))
            return QColor::fromRgb(d.rgb);
    }
    return domain.isEmpty() ? QColor::fromRgb(0xb0b7bf) : QColor::fromRgb(0x9e9e9e);
}

QColor domainColor(const std::string& domain)
{
    return domainColor(qs(domain));
}

MarkerShape domainShape(const QString& domain)
{
    for (const auto& d : DomainColors) {
        if (domain == QLatin1String(d.name))
            return d.shape;
    }
    return MarkerShape::Circle;
}

void drawMarker(QPainter* painter, const QPointF& c, double r, MarkerShape shape)
{
    switch (shape) {
    case MarkerShape::Circle: painter->drawEllipse(c, r, r); return;
    case MarkerShape::Square: painter->drawRect(QRectF(c.x() - r * 0.9, c.y() - r * 0.9, r * 1.8, r * 1.8)); return;
    case MarkerShape::Diamond: {
        const QPointF p[] = {
            {c.x(), c.y() - r * 1.25}, {c.x() + r * 1.25, c.y()}, {c.x(), c.y() + r * 1.25}, {c.x() - r * 1.25, c.y()}};
        painter->drawPolygon(p, 4);
        return;
    }
    case MarkerShape::Triangle:
    case MarkerShape::TriangleDown: {
        const double s = shape == MarkerShape::Triangle ? 1 : -1;
        const QPointF p[] = {{c.x(), c.y() - s * r * 1.3},
                             {c.x() + r * 1.2, c.y() + s * r * 0.9},
                             {c.x() - r * 1.2, c.y() + s * r * 0.9}};
        painter->drawPolygon(p, 3);
        return;
    }
    }
}

QColor terminalStateColor(const std::string& state)
{
    static const std::map<std::string, QRgb> colors = {
        {"completed", 0x2e7d32},           {"hardware_failure", 0xc62828}, {"infrastructure_failure", 0xd84315},
        {"application_failure", 0x6a1b9a}, {"user_error", 0x4527a0},       {"timeout", 0xef6c00},
        {"cancelled", 0x546e7a},           {"preempted", 0x00838f},        {"ambiguous", 0xf9a825},
    };
    auto it = colors.find(state);
    return QColor::fromRgb(it != colors.end() ? it->second : 0x757575);
}

QColor roleColor(EvidenceRole role)
{
    switch (role) {
    case EvidenceRole::RootCause: return QColor::fromRgb(0xc62828);
    case EvidenceRole::Active: return QColor::fromRgb(0x1565c0);
    case EvidenceRole::Interesting: return QColor::fromRgb(0xef8f00);
    case EvidenceRole::Demoted: return QColor::fromRgb(0x9e9e9e);
    case EvidenceRole::Scrubbed: return QColor::fromRgb(0xbdbdbd);
    case EvidenceRole::Context: return QColor::fromRgb(0x80cbc4);
    }
    return Qt::gray;
}

QString roleName(EvidenceRole role)
{
    switch (role) {
    case EvidenceRole::RootCause: return QStringLiteral("root cause");
    case EvidenceRole::Active: return QStringLiteral("active");
    case EvidenceRole::Interesting: return QStringLiteral("interesting (demoted)");
    case EvidenceRole::Demoted: return QStringLiteral("demoted");
    case EvidenceRole::Scrubbed: return QStringLiteral("scrubbed");
    case EvidenceRole::Context: return QStringLiteral("context");
    }
    return {};
}

QColor coverageStatusColor(CoverageStatus status)
{
    switch (status) {
    case CoverageStatus::Ok: return QColor::fromRgb(0x2e7d32);
    case CoverageStatus::Partial: return QColor::fromRgb(0xb26a00);
    case CoverageStatus::Errored:
    case CoverageStatus::Missing: return QColor::fromRgb(0xc62828);
    case CoverageStatus::Skipped: return QColor::fromRgb(0x757575);
    }
    return Qt::black;
}

QString formatUtc(TimeNs time, bool withDate)
{
    if (time == NoTime)
        return {};
    const qint64 ms = time / NsPerMs - (time % NsPerMs < 0 ? 1 : 0);
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    return dt.toString(withDate ? QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss.zzz"));
}

QString whenText(TimeNs time, engine::TimeSource source)
{
    if (time == NoTime)
        return QStringLiteral("time unknown");
    if (source == engine::TimeSource::BootRelative)
        return QStringLiteral("+%1 s since boot").arg(static_cast<double>(time) / NsPerSec, 0, 'f', 3);
    return formatUtc(time) + QStringLiteral(" UTC");
}

QString placeText(const std::string& node, int gpu, int rank, const std::string& link)
{
    QStringList parts;
    // A GPU or a rank lives on some node: without one it is an unknown node, not the whole job.
    parts << (!node.empty()               ? qs(node)
                  : gpu >= 0 || rank >= 0 ? QStringLiteral("unknown node")
                                          : QStringLiteral("job-wide"));
    if (gpu >= 0)
        parts << QStringLiteral("GPU %1").arg(gpu);
    if (rank >= 0)
        parts << QStringLiteral("rank %1").arg(rank);
    if (!link.empty())
        parts << QStringLiteral("link %1").arg(qs(link));
    return parts.join(QStringLiteral(" · "));
}

QString clockNote(const AnalysisResult& r, const std::string& node)
{
    // Nothing to say when no clock was corrected: every time is the node's own.
    const bool anyApplied =
        std::any_of(r.clockOffsets.begin(), r.clockOffsets.end(), [](const ClockOffset& o) { return o.applied; });
    if (!anyApplied)
        return {};
    for (const ClockOffset& o : r.clockOffsets) {
        if (o.node == node && o.applied)
            return QStringLiteral("clock-corrected by %1%2 s \u00b1%3 s")
                .arg(o.offset >= 0 ? QStringLiteral("+") : QString())
                .arg(static_cast<double>(o.offset) / 1e9, 0, 'f', 2)
                .arg(static_cast<double>(o.uncertainty) / 1e9, 0, 'f', 2);
    }
    return QStringLiteral("not corrected: this node's clock agreed with the others");
}

QString plainToolTip(const QString& text)
{
    // A QToolTip guesses rich text from content; escaping and wrapping it makes log text inert.
    return QStringLiteral("<p style='white-space:pre-wrap'>") % text.toHtmlEscaped() % QStringLiteral("</p>");
}

QString sanitizeLine(QString line)
{
    for (QChar& c : line) {
        if (c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f ||
                 c.category() == QChar::Other_Format)  // bidi overrides and other invisible controls
            c = QChar(0x00b7);
    }
    return line;
}

QString formatBytes(std::uint64_t bytes)
{
    return QLocale::c().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

}  // namespace attrib::views
