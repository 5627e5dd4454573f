// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/verdict/verdict_panel.h"

#include "views/describe.h"
#include "views/presentation.h"

#include <QFontDatabase>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace attrib::views {

using namespace attrib::engine;

namespace {

QLabel* text(const QString& s, QWidget* parent, bool wrap = true)
{
    auto* label = new QLabel(s, parent);
    label->setTextFormat(Qt::PlainText);  // names and summaries come from logs: never markup
    label->setWordWrap(wrap);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QLabel* heading(const QString& s, QWidget* parent)
{
    QLabel* label = text(s, parent, false);
    label->setStyleSheet(QStringLiteral("color: #5f6368; font-weight: bold; margin-top: 8px"));
    return label;
}

QLabel* badge(const QString& s, const QColor& color, QWidget* parent)
{
    QLabel* label = text(s, parent, false);
    label->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 4px; padding: 4px 10px; "
                                        "font-weight: bold; font-size: 13pt")
                             .arg(color.name()));
    return label;
}

QPushButton* link(const QString& s, QWidget* parent)
{
    auto* button = new QPushButton(s, parent);
    button->setFlat(true);
    button->setCursor(Qt::PointingHandCursor);
    button->setStyleSheet(QStringLiteral("QPushButton { color: #1a5fb4; text-align: left; border: none; "
                                         "padding: 1px 0; font-weight: bold } "
                                         "QPushButton:hover { text-decoration: underline }"));
    return button;
}

QString badgeText(const std::string& vocabulary)
{
    return qs(vocabulary).replace(QLatin1Char('_'), QLatin1Char(' ')).toUpper();
}

}  // namespace

VerdictPanel::VerdictPanel(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_scroll(new QScrollArea(this))
{
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll);
    connect(m_selection, &SelectionModel::analysisChanged, this, &VerdictPanel::onAnalysisChanged);
    showMessage(QStringLiteral("No bundle open"),
                QStringLiteral("Open an evidence bundle with File \u203a Open folder or Open archive, pick one from "
                               "File \u203a Recent, or drop a folder or archive on this window."));
}

QWidget* VerdictPanel::replaceContent()
{
    m_rootCauseButton = nullptr;
    m_evidenceButton = nullptr;
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("verdictContent"));
    m_scroll->setWidget(content);  // deletes the previous content
    return content;
}

void VerdictPanel::showMessage(const QString& title, const QString& body, bool error)
{
    QWidget* content = replaceContent();
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 12, 12, 12);
    QLabel* head = text(title, content);
    head->setStyleSheet(error ? QStringLiteral("font-weight: bold; font-size: 13pt; color: #c62828")
                              : QStringLiteral("font-weight: bold; font-size: 13pt"));
    layout->addWidget(head);
    QLabel* message = text(body, content);
    if (error)
        message->setStyleSheet(QStringLiteral("background: #fdecea; border: 1px solid #e57373; padding: 6px"));
    layout->addWidget(message);
    layout->addStretch(1);
}

void VerdictPanel::onAnalysisChanged(const AnalysisPtr& analysis)
{
    m_analysis = analysis;
    if (m_analysis && m_analysis->hasVerdict())
        rebuild();
}

void VerdictPanel::rebuild()
{
    QWidget* content = replaceContent();
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(3);
    addBadges(layout);
    addCoverage(layout);
    addRootCause(layout);
    addCandidates(layout);
    addLeads(layout);
    addAction(layout);
    addFooter(layout);
    layout->addStretch(1);
}

void VerdictPanel::addBadges(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    auto* row = new QHBoxLayout;
    row->addWidget(badge(badgeText(v.terminalState), terminalStateColor(v.terminalState), this));
    row->addWidget(badge(badgeText(v.subDomain), domainColor(v.subDomain), this));
    row->addStretch(1);
    layout->addLayout(row);
    if (!v.explanation.empty())
        layout->addWidget(text(qs(v.explanation), this));
}

void VerdictPanel::addRootCause(QVBoxLayout* layout)
{
    const AnalysisResult& r = m_analysis->r();
    if (!r.verdict.rootCause) {
        layout->addWidget(heading(QStringLiteral("Root cause"), this));
        layout->addWidget(text(QStringLiteral("none identified"), this));
        return;
    }
    const RootCause& rc = *r.verdict.rootCause;
    layout->addWidget(heading(QStringLiteral("Root cause"), this));
    m_rootCauseButton = link(qs(rc.symptom), this);
    m_rootCauseButton->setToolTip(QStringLiteral("Select the root cause on the timeline and show its evidence"));
    connect(m_rootCauseButton, &QPushButton::clicked, this,
            [this] { m_selection->selectSymptom(m_analysis->rootCauseSymptom); });
    layout->addWidget(m_rootCauseButton);
    layout->addWidget(text(placeText(rc.node, rc.gpu, rc.rank, rc.link) + QStringLiteral(" \u00b7 ") +
                               formatUtc(rc.time) + QStringLiteral(" UTC"),
                           this));
    const bool repeated = r.verdict.explanation.rfind(rc.summary, 0) == 0;  // already shown under the badges
    if (!rc.summary.empty() && !repeated)
        layout->addWidget(text(qs(rc.summary), this));
    const int decisive = m_analysis->observationIndex(rc.decisiveObservation);
    if (decisive >= 0) {
        m_evidenceButton = link(observationLocation(*m_analysis, decisive), this);
        m_evidenceButton->setToolTip(QStringLiteral("Show this line in its file"));
        connect(m_evidenceButton, &QPushButton::clicked, this,
                [this, decisive] { m_selection->selectObservation(decisive); });
        layout->addWidget(m_evidenceButton);
        QLabel* line = text(sanitizeLine(qs(r.observations[decisive].text)), this);
        line->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        line->setStyleSheet(QStringLiteral("background: #fffcf0; border-left: 4px solid #c62828; padding: 4px"));
        layout->addWidget(line);
    }
    if (!rc.rule.empty())
        layout->addWidget(text(QStringLiteral("chosen by ") + qs(rc.rule), this));
}

void VerdictPanel::addAction(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    layout->addWidget(heading(QStringLiteral("Recommended action"), this));
    QLabel* action = text(v.action.action.empty() ? QStringLiteral("none") : qs(v.action.action), this);
    action->setStyleSheet(QStringLiteral("font-weight: bold"));
    layout->addWidget(action);
    if (!v.action.target.empty())
        layout->addWidget(text(QStringLiteral("target: ") + qs(v.action.target), this));
    layout->addWidget(heading(QStringLiteral("Affected nodes"), this));
    QStringList nodes;
    for (const auto& n : v.affectedNodes)
        nodes << qs(n);
    layout->addWidget(text(nodes.isEmpty() ? QStringLiteral("none") : nodes.join(QStringLiteral(", ")), this));
}

void VerdictPanel::addCandidates(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    if (v.candidates.empty())
        return;
    layout->addWidget(heading(v.terminalState == "ambiguous" ? QStringLiteral("Ambiguous: competing candidates")
                                                             : QStringLiteral("Candidates"),
                              this));
    for (const Candidate& c : v.candidates) {
        QPushButton* button = link(qs(c.symptom) + QStringLiteral(" on ") + placeText(c.node, c.gpu), this);
        const int symptom = m_analysis->symptomIndex(c.symptomId);
        connect(button, &QPushButton::clicked, this, [this, symptom] { m_selection->selectSymptom(symptom); });
        layout->addWidget(button);
        layout->addWidget(text(formatUtc(c.time) + QStringLiteral(" UTC \u00b7 ") + badgeText(c.terminalState) +
                                   QStringLiteral(" / ") + qs(c.subDomain) + QStringLiteral("\n") + qs(c.summary),
                               this));
    }
    if (!v.candidates.front().separatedBy.empty())
        layout->addWidget(text(QStringLiteral("Would separate them: ") + qs(v.candidates.front().separatedBy), this));
}

void VerdictPanel::addLeads(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    if (v.leads.empty())
        return;
    layout->addWidget(heading(QStringLiteral("Leads: no rule explains the failure; start reading here"), this));
    for (const Lead& lead : v.leads) {
        layout->addWidget(text(sanitizeLine(qs(lead.file)) + QStringLiteral(":") + QString::number(lead.line), this));
        QLabel* line = text(sanitizeLine(qs(lead.text)), this);
        line->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        line->setStyleSheet(QStringLiteral("background: #fffcf0; border-left: 4px solid #9e9e9e; padding: 4px"));
        layout->addWidget(line);
    }
}

void VerdictPanel::addCoverage(QVBoxLayout* layout)
{
    QStringList problems;
    QStringList summary;
    bool severe = false;
    for (const CollectorCoverage& c : m_analysis->r().coverage) {
        const QString kind = QString::fromLatin1(toString(c.kind));
        if (c.status == CoverageStatus::Skipped)
            continue;
        summary << QStringLiteral("%1 %2 file(s)").arg(kind).arg(c.files.size());
        if (c.status == CoverageStatus::Ok)
            continue;
        severe = severe || c.status == CoverageStatus::Missing || c.status == CoverageStatus::Errored;
        problems << kind + QStringLiteral(": ") + QString::fromLatin1(toString(c.status));
        for (std::size_t i = 0; i < c.errors.size() && i < 4; ++i)
            problems << QStringLiteral("  \u2022 ") + sanitizeLine(qs(c.errors[i]));
        if (c.errors.size() > 4)
            problems << QStringLiteral("  \u2022 \u2026 %1 more (see the Coverage pane)").arg(c.errors.size() - 4);
    }
    if (problems.isEmpty()) {
        QLabel* ok = text(QStringLiteral("Coverage ok: ") + summary.join(QStringLiteral(", ")), this);
        ok->setStyleSheet(QStringLiteral("color: #2e7d32"));
        layout->addWidget(ok);
        return;
    }
    QLabel* box = text(QStringLiteral("\u26a0 Evidence is incomplete \u2014 the verdict may be missing a cause\n") +
                           problems.join(QLatin1Char('\n')),
                       this);
    box->setObjectName(QStringLiteral("coverageWarning"));
    box->setStyleSheet(severe ? QStringLiteral("background: #fdecea; border: 2px solid #c62828; padding: 6px; "
                                               "color: #7f1d1d")
                              : QStringLiteral("background: #fff4e5; border: 2px solid #ef8f00; padding: 6px; "
                                               "color: #663c00"));
    layout->addWidget(box);
}

void VerdictPanel::addFooter(QVBoxLayout* layout)
{
    const AnalysisResult& r = m_analysis->r();
    const ExecutionContext& ctx = r.context;
    layout->addWidget(heading(QStringLiteral("Workload"), this));
    QStringList parts;
    if (!ctx.workloadId.empty())
        parts << QStringLiteral("job ") + qs(ctx.workloadId);
    parts << qs(ctx.scheduler);
    if (!ctx.platform.empty())
        parts << qs(ctx.platform);
    parts << QStringLiteral("%1 node(s)").arg(ctx.nodes.size());
    parts << QStringLiteral("%1 symptoms, %2 events").arg(r.symptoms.size()).arg(r.events.size());
    layout->addWidget(text(parts.join(QStringLiteral(" \u00b7 ")), this));
    QString engine = QStringLiteral("engine ") + qs(r.engine.version) + QStringLiteral(" \u00b7 catalog ") +
        qs(r.engine.catalogHash).left(12);
    if (!r.diagnostics.empty())
        engine += QStringLiteral(" \u00b7 %1 catalog diagnostic(s)").arg(r.diagnostics.size());
    QLabel* footer = text(engine, this);
    footer->setStyleSheet(QStringLiteral("color: #80868b"));
    layout->addWidget(footer);
    auto* copy = new QPushButton(QStringLiteral("Copy verdict as Markdown"), this);
    copy->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(copy, &QPushButton::clicked, this, &VerdictPanel::copyMarkdownRequested);
    layout->addSpacing(6);
    layout->addWidget(copy);
}

QString VerdictPanel::contentText() const
{
    QStringList lines;
    if (QWidget* content = m_scroll->widget()) {
        for (QWidget* w : content->findChildren<QWidget*>()) {
            if (auto* label = qobject_cast<QLabel*>(w))
                lines << label->text();
            else if (auto* button = qobject_cast<QPushButton*>(w))
                lines << button->text();
        }
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attrib::views
