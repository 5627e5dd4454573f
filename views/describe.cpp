// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/describe.h"

#include "views/glossary.h"
#include "views/presentation.h"

namespace attrib::views {

using namespace attrib::engine;

namespace {

QString elide(const QString& text, int max = 240)
{
    return text.size() > max ? text.left(max) + QStringLiteral("\u2026") : text;
}

}  // namespace

QString observationLocation(const AnalysisData& analysis, int observation)
{
    const AnalysisResult& r = analysis.r();
    if (observation < 0 || observation >= static_cast<int>(r.observations.size()))
        return {};
    const Observation& o = r.observations[observation];
    const QString file =
        o.source.file < r.files.size() ? qs(r.files[o.source.file].path) : QStringLiteral("unknown file");
    return file + QLatin1Char(':') + QString::number(o.source.line);
}

QString statusLine(const Symptom& symptom)
{
    QString line = QString::fromLatin1(toString(symptom.status));
    if (!symptom.statusRule.empty())
        line += QStringLiteral(" by ") + qs(symptom.statusRule);
    if (!symptom.statusReason.empty())
        line += QStringLiteral(": ") + qs(symptom.statusReason);
    if (symptom.interesting)
        line += QStringLiteral(" (kept as interesting evidence)");
    return line;
}

QString describeEvent(const AnalysisData& analysis, int event)
{
    const AnalysisResult& r = analysis.r();
    if (event < 0 || event >= static_cast<int>(r.events.size()))
        return {};
    const Event& e = r.events[event];
    QStringList lines;
    lines << qs(e.type) + QStringLiteral(" \u2014 ") + placeText(e.node, e.gpu, e.rank, e.link);
    const QString when = timeSourceGlossary(e.timeSource);
    const QString clock = clockNote(r, e.node);
    if (e.time == NoTime)  // no time: say so in words, not an empty stamp
        lines << QStringLiteral("time unknown (the line carries no time the analysis could read)");
    else
        lines << whenText(e.time, e.timeSource) + QStringLiteral("  (") + timeSourceText(e.timeSource) +
                (clock.isEmpty() ? QString() : QStringLiteral(", ") + clock) + QLatin1Char(')');
    const int s = analysis.eventSymptom[event];
    if (s >= 0)
        lines << QStringLiteral("symptom ") + qs(r.symptoms[s].id) + QStringLiteral(" \u2014 ") +
                elide(statusLine(r.symptoms[s]), 160);
    else
        lines << QStringLiteral("context event (raises no symptom)");
    lines << QStringLiteral("rule ") + qs(e.rule);
    if (!when.isEmpty())
        lines << when;
    QStringList attrs;
    for (const auto& [k, v] : e.attrs)
        attrs << qs(k) + QLatin1Char('=') + elide(qs(v), 60);
    if (!attrs.isEmpty())
        lines << elide(attrs.join(QStringLiteral(", ")));
    if (!e.observations.empty()) {
        const int o = analysis.observationIndex(e.observations.front());
        if (o >= 0)
            lines << observationLocation(analysis, o) + QStringLiteral("  ") +
                    elide(sanitizeLine(qs(r.observations[o].text)));
    }
    return lines.join(QLatin1Char('\n'));
}

QString describeSymptom(const AnalysisData& analysis, int symptom)
{
    const AnalysisResult& r = analysis.r();
    if (symptom < 0 || symptom >= static_cast<int>(r.symptoms.size()))
        return {};
    const Symptom& s = r.symptoms[symptom];
    QStringList lines;
    lines << qs(s.name) + QStringLiteral(" (") + qs(s.domain) + QStringLiteral(") \u2014 ") +
            placeText(s.node, s.gpu, s.rank, s.link);
    const QString clock = clockNote(r, s.node);
    lines << formatUtc(s.firstSeen) + QStringLiteral(" \u2192 ") + formatUtc(s.lastSeen, false) +
            QStringLiteral(" UTC, ") + QString::number(s.count) + QStringLiteral(" event(s)") +
            (clock.isEmpty() ? QString() : QStringLiteral(" (") + clock + QLatin1Char(')'));
    if (symptom == analysis.rootCauseSymptom)
        lines << QStringLiteral("ROOT CAUSE");
    if (static_cast<std::size_t>(symptom) < analysis.symptomDescription.size() &&
        !analysis.symptomDescription[static_cast<std::size_t>(symptom)].empty())
        lines << elide(qs(analysis.symptomDescription[static_cast<std::size_t>(symptom)]), 400);
    lines << elide(statusLine(s), 400);
    if (s.status == SymptomStatus::Demoted)
        lines << glossary(Term::Demoted);
    else if (s.status == SymptomStatus::Scrubbed)
        lines << glossary(Term::Scrubbed);
    if (const QString t = timeSourceGlossary(s.timeSource); !t.isEmpty())
        lines << t;
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attrib::views
