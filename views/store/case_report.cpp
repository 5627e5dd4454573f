// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/case_report.h"

#include "engine/json_util.h"
#include "engine/store/case_record.h"

#include <QBuffer>
#include <QFile>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace attrib::views {

namespace {

/// The facts a report shows, pulled from the stored verdict JSON.
struct ReportFacts {
    QString title, state, domain, rootSymptom, rootNode, rootSummary, rootRule, decisiveWhere, decisiveText;
    QString action, why, explanation;
    struct Demoted {
        QString name, node, status, rule, reason;
    };
    std::vector<Demoted> demoted;
    std::vector<QString> gaps;
    QString label;
};

QString str(const nlohmann::json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || j[key].is_null())
        return {};
    return QString::fromStdString(j[key].is_string() ? j[key].get<std::string>() : j[key].dump());
}

ReportFacts factsOf(const store::CaseRecord& r)
{
    ReportFacts f;
    const auto v = nlohmann::json::parse(r.verdictJson, nullptr, false);
    f.title = QStringLiteral("Case %1: %2").arg(r.summary.id).arg(QString::fromStdString(r.summary.bundlePath));
    f.state = str(v, "terminal_state");
    f.domain = str(v, "sub_domain");
    if (v.is_object() && v.contains("root_cause") && v["root_cause"].is_object()) {
        const auto& rc = v["root_cause"];
        f.rootSymptom = str(rc, "symptom");
        f.rootNode = str(rc, "node");
        f.rootSummary = str(rc, "summary");
        f.rootRule = str(rc, "rule");
        if (rc.contains("decisive_evidence") && rc["decisive_evidence"].is_object()) {
            f.decisiveWhere =
                str(rc["decisive_evidence"], "file") + QLatin1Char(':') + str(rc["decisive_evidence"], "line");
            f.decisiveText = str(rc["decisive_evidence"], "text");
        }
    }
    if (v.is_object() && v.contains("recommended_action")) {
        f.action = str(v["recommended_action"], "action");
        f.why = str(v["recommended_action"], "why");
    }
    f.explanation = str(v, "explanation");
    if (v.is_object() && v.contains("symptoms") && v["symptoms"].is_array())
        for (const auto& s : v["symptoms"])
            if (str(s, "status") != QLatin1String("active"))
                f.demoted.push_back(
                    {str(s, "name"), str(s, "node"), str(s, "status"), str(s, "status_rule"), str(s, "status_reason")});
    if (v.is_object() && v.contains("coverage") && v["coverage"].is_array())
        for (const auto& c : v["coverage"])
            if (str(c, "status") != QLatin1String("ok")) {
                QString errors;
                if (c.contains("errors") && c["errors"].is_array())
                    for (const auto& e : c["errors"])
                        errors += QStringLiteral("; ") +
                            QString::fromStdString(e.is_string() ? e.get<std::string>() : e.dump());
                f.gaps.push_back(str(c, "collector") + QStringLiteral(": ") + str(c, "status") + errors);
            }
    if (const auto& l = r.summary.label) {
        auto d = [](const std::string& s) { return s.empty() ? QStringLiteral("-") : QString::fromStdString(s); };
        f.label = d(l->terminalState) + QStringLiteral(" / ") + d(l->subDomain) + QStringLiteral(" / ") + d(l->node) +
            QStringLiteral(" by ") + QString::fromStdString(l->labeledBy) +
            (l->notes.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(l->notes));
    }
    return f;
}

QString h(const QString& s)
{
    return s.toHtmlEscaped();
}

}  // namespace

QString escapeMarkdown(const QString& text)
{
    // Inline text only (never at a line start): the characters that can open markup in the middle of a line.
    static const QString special = QStringLiteral("\\`*_[]<>|~&");
    QString out;
    out.reserve(text.size() * 2);
    for (const QChar c : text) {
        if (special.contains(c))
            out += QLatin1Char('\\');
        out += c == QLatin1Char('\n') ? QLatin1Char(' ') : c;
    }
    return out;
}

QString markdownCodeBlock(const QString& text)
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max(3, longest + 1), QLatin1Char('`'));
    return fence + QLatin1Char('\n') + text + QLatin1Char('\n') + fence + QLatin1Char('\n');
}

QString caseReportMarkdown(const store::CaseRecord& r, const QString& timelineImage)
{
    const ReportFacts f = factsOf(r);
    QString md = QStringLiteral("# ") + escapeMarkdown(f.title) + QStringLiteral("\n\n");
    md += QStringLiteral("**Verdict:** ") + escapeMarkdown(f.state) + QStringLiteral(" / ") + escapeMarkdown(f.domain) +
        QStringLiteral("\n\n");
    if (!f.rootSymptom.isEmpty())
        md += QStringLiteral("**Root cause:** ") + escapeMarkdown(f.rootSymptom) + QStringLiteral(" on ") +
            escapeMarkdown(f.rootNode) + QStringLiteral(" (rule ") + escapeMarkdown(f.rootRule) +
            QStringLiteral(")\n\n") + escapeMarkdown(f.rootSummary) + QStringLiteral("\n\n");
    if (!f.decisiveText.isEmpty())
        md += QStringLiteral("Decisive evidence, ") + escapeMarkdown(f.decisiveWhere) + QStringLiteral(":\n\n") +
            markdownCodeBlock(f.decisiveText) + QLatin1Char('\n');
    if (!f.action.isEmpty())
        md += QStringLiteral("**Recommended action:** ") + escapeMarkdown(f.action) + QStringLiteral(" (") +
            escapeMarkdown(f.why) + QStringLiteral(")\n\n");
    if (!timelineImage.isEmpty())
        md += QStringLiteral("![Timeline of the failure](") +
            QString::fromLatin1(QUrl::toPercentEncoding(timelineImage, "/")) + QStringLiteral(")\n\n");
    md += QStringLiteral("## Demoted symptoms\n\n");
    for (const auto& d : f.demoted)
        md += QStringLiteral("- ") + escapeMarkdown(d.name) + QStringLiteral(" on ") + escapeMarkdown(d.node) +
            QStringLiteral(": ") + escapeMarkdown(d.status) + QStringLiteral(" by ") + escapeMarkdown(d.rule) +
            QStringLiteral(" (") + escapeMarkdown(d.reason) + QStringLiteral(")\n");
    md += f.demoted.empty() ? QStringLiteral("none\n\n") : QStringLiteral("\n");
    md += QStringLiteral("## Coverage gaps\n\n");
    for (const auto& g : f.gaps)
        md += QStringLiteral("- ") + escapeMarkdown(g) + QLatin1Char('\n');
    md += f.gaps.empty() ? QStringLiteral("none\n\n") : QStringLiteral("\n");
    md += QStringLiteral("## Label\n\n") +
        (f.label.isEmpty() ? QStringLiteral("not labeled") : escapeMarkdown(f.label)) + QLatin1Char('\n');
    return md;
}

QString caseReportHtml(const store::CaseRecord& r, const QImage& timeline)
{
    const ReportFacts f = factsOf(r);
    QString html = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>") + h(f.title) +
        QStringLiteral("</title></head><body><h1>") + h(f.title) + QStringLiteral("</h1>");
    html += QStringLiteral("<p><b>Verdict:</b> ") + h(f.state) + QStringLiteral(" / ") + h(f.domain) +
        QStringLiteral("</p>");
    if (!f.rootSymptom.isEmpty())
        html += QStringLiteral("<p><b>Root cause:</b> ") + h(f.rootSymptom) + QStringLiteral(" on ") + h(f.rootNode) +
            QStringLiteral(" (rule ") + h(f.rootRule) + QStringLiteral(")<br>") + h(f.rootSummary) +
            QStringLiteral("</p>");
    if (!f.decisiveText.isEmpty())
        html += QStringLiteral("<p>Decisive evidence, ") + h(f.decisiveWhere) +
            QStringLiteral(":</p><pre style=\"white-space: pre-wrap\">") + h(f.decisiveText) + QStringLiteral("</pre>");
    if (!f.action.isEmpty())
        html += QStringLiteral("<p><b>Recommended action:</b> ") + h(f.action) + QStringLiteral(" (") + h(f.why) +
            QStringLiteral(")</p>");
    if (!timeline.isNull()) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        timeline.save(&buffer, "PNG");
        html += QStringLiteral("<p><img width=\"640\" src=\"data:image/png;base64,") +
            QString::fromLatin1(png.toBase64()) + QStringLiteral("\"></p>");
    }
    html += QStringLiteral("<h2>Demoted symptoms</h2><ul>");
    for (const auto& d : f.demoted)
        html += QStringLiteral("<li>") + h(d.name) + QStringLiteral(" on ") + h(d.node) + QStringLiteral(": ") +
            h(d.status) + QStringLiteral(" by ") + h(d.rule) + QStringLiteral(" (") + h(d.reason) +
            QStringLiteral(")</li>");
    html += (f.demoted.empty() ? QStringLiteral("<li>none</li>") : QString()) + QStringLiteral("</ul>");
    html += QStringLiteral("<h2>Coverage gaps</h2><ul>");
    for (const auto& g : f.gaps)
        html += QStringLiteral("<li>") + h(g) + QStringLiteral("</li>");
    html += (f.gaps.empty() ? QStringLiteral("<li>none</li>") : QString()) + QStringLiteral("</ul>");
    html += QStringLiteral("<h2>Label</h2><p>") + (f.label.isEmpty() ? QStringLiteral("not labeled") : h(f.label)) +
        QStringLiteral("</p></body></html>");
    return html;
}

bool writeCaseReportPdf(const store::CaseRecord& r, const QString& path, QString* error, const QImage& timeline)
{
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly)) {
        if (error)
            *error = path + QStringLiteral(": ") + probe.errorString();
        return false;
    }
    probe.close();
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setTitle(QStringLiteral("Case %1").arg(r.summary.id));
    QTextDocument doc;
    doc.setHtml(caseReportHtml(r, timeline));
    doc.print(&writer);
    return true;
}

}  // namespace attrib::views
