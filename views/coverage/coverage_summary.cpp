// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/coverage/coverage_summary.h"

#include "views/presentation.h"

#include <algorithm>
#include <set>

namespace attrib::views {

using namespace attrib::engine;

QString coverageReason(const FileCoverage& f)
{
    QString why = f.errors.empty() ? QString::fromLatin1(toString(f.status)) : qs(f.errors.front());
    for (const QString& prefix : {QString(qs(f.path) + QStringLiteral(": ")), QStringLiteral("skipped: ")}) {
        if (why.startsWith(prefix))
            why = why.mid(prefix.size());
    }
    return sanitizeLine(why);
}

namespace {

void raise(CoverageSummary::Level& level, CoverageSummary::Level to)
{
    if (static_cast<int>(to) > static_cast<int>(level))
        level = to;
}

}  // namespace

CoverageSummary CoverageSummary::build(const AnalysisResult& r)
{
    CoverageSummary s;
    int evidenceFiles = 0;
    int read = 0;
    std::set<std::string> nodes;
    TimeNs first = NoTime;
    TimeNs last = NoTime;
    for (const FileCoverage& f : r.fileCoverage) {
        if (f.role != FileRole::Evidence)
            continue;
        ++evidenceFiles;
        if (f.lines > 0 && (f.status == CoverageStatus::Ok || f.status == CoverageStatus::Partial)) {
            ++read;
            if (!f.node.empty())
                nodes.insert(f.node);
            if (f.first != NoTime)
                first = first == NoTime ? f.first : std::min(first, f.first);
            if (f.last != NoTime)
                last = last == NoTime ? f.last : std::max(last, f.last);
        }
        if (f.status == CoverageStatus::Ok)
            continue;
        raise(s.level, f.status == CoverageStatus::Errored ? Level::Red : Level::Amber);
        s.notRead << qs(f.path) + QStringLiteral(": ") +
                (f.status == CoverageStatus::Partial ? QStringLiteral("partly read: ") : QString()) + coverageReason(f);
    }
    // Collector-level problems (a node's kernel log missing, a partial collector) that no file entry names.
    for (const CollectorCoverage& c : r.coverage) {
        if (c.status == CoverageStatus::Ok || c.status == CoverageStatus::Skipped)
            continue;
        raise(s.level, c.status == CoverageStatus::Partial ? Level::Amber : Level::Red);
        const QString kind = QString::fromLatin1(toString(c.kind));
        if (c.errors.empty())
            s.notRead << QStringLiteral("%1 evidence %2").arg(kind, QString::fromLatin1(toString(c.status)));
        for (const std::string& e : c.errors) {
            const QString line = kind + QStringLiteral(" (") + QString::fromLatin1(toString(c.status)) +
                QStringLiteral("): ") + sanitizeLine(qs(e));
            const bool named = std::any_of(s.notRead.begin(), s.notRead.end(), [&](const QString& n) {
                return line.endsWith(n.section(QStringLiteral(": "), 1));
            });
            if (!named)
                s.notRead << line;
        }
    }
    if (read == 0)
        raise(s.level, Level::Red);
    QString span;
    if (first != NoTime)
        span = QStringLiteral(", %1 to %2 UTC").arg(formatUtc(first), formatUtc(last, false));
    s.headline = read == 0
        ? QStringLiteral("Nothing was read: none of the %1 file(s) held usable evidence.").arg(evidenceFiles)
        : QStringLiteral("Read %1 of %2 file(s)%3%4.")
              .arg(read)
              .arg(evidenceFiles)
              .arg(nodes.empty() ? QStringLiteral(" (no node named)")
                                 : QStringLiteral(" on %1 node(s)").arg(nodes.size()),
                   span);
    for (const ClockOffset& o : r.clockOffsets) {
        if (o.applied)
            s.clocks << qs(o.node) + QStringLiteral(" ") + clockNote(r, o.node);
    }
    if (!s.clocks.isEmpty() && static_cast<std::size_t>(s.clocks.size()) < r.clockOffsets.size())
        s.clocks << QStringLiteral("the other nodes' clocks agreed within the anchors' jitter");
    return s;
}

QColor CoverageSummary::foreground() const
{
    switch (level) {
    case Level::Ok: return QColor::fromRgb(0x2e7d32);
    case Level::Amber: return QColor::fromRgb(0x663c00);
    case Level::Red: return QColor::fromRgb(0x7f1d1d);
    }
    return {};
}

QColor CoverageSummary::background() const
{
    switch (level) {
    case Level::Ok: return QColor(Qt::transparent);
    case Level::Amber: return QColor::fromRgb(0xfff4e5);
    case Level::Red: return QColor::fromRgb(0xfdecea);
    }
    return {};
}

QString CoverageSummary::text(int maxItems) const
{
    QStringList lines{headline};
    if (!notRead.isEmpty())
        lines << QStringLiteral("Not read or incomplete (%1):").arg(notRead.size());
    for (int i = 0; i < notRead.size() && i < maxItems; ++i)
        lines << QStringLiteral("  \u2022 ") + notRead[i];
    if (notRead.size() > maxItems)
        lines << QStringLiteral("  \u2022 \u2026 %1 more (see the Coverage pane)").arg(notRead.size() - maxItems);
    if (!clocks.isEmpty())
        lines << QStringLiteral("Clock offsets: ") + clocks.join(QStringLiteral("; "));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attrib::views
