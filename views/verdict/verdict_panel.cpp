// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/verdict/verdict_panel.h"

#include "views/verdict/candidate_comparison.h"

#include "views/coverage/coverage_summary.h"
#include "views/describe.h"
#include "views/glossary.h"
#include "views/presentation.h"

#include <QBoxLayout>
#include <QDialog>
#include <QEvent>
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

/// Gives the scroll area's content the height its wrapped labels need at the viewport's width (QScrollArea sizes it
/// from the minimum size hint, which squeezes wrapped text to one line).
void fitToWidth(QScrollArea* area)
{
    QWidget* content = area->widget();
    if (!content || !content->layout() || !content->layout()->hasHeightForWidth())
        return;
    content->setMinimumHeight(content->layout()->totalHeightForWidth(area->viewport()->width()));
}

class FitOnResize : public QObject {
public:
    explicit FitOnResize(QScrollArea* area)
        : QObject(area)
        , m_area(area)
    {
        area->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            fitToWidth(m_area);
        return QObject::eventFilter(watched, event);
    }

private:
    QScrollArea* m_area;
};

/// The verdict's badges side by side, or one under the other when the pane is too narrow for both.
class BadgeRow : public QWidget {
public:
    explicit BadgeRow(QWidget* parent)
        : QWidget(parent)
        , m_box(new QBoxLayout(QBoxLayout::LeftToRight, this))
    {
        m_box->setContentsMargins(0, 0, 0, 0);
    }
    void add(QLabel* badge) { m_box->addWidget(badge, 0, Qt::AlignLeft); }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QWidget::resizeEvent(event);
        int need = 0;
        for (const QLabel* l : findChildren<QLabel*>())
            need += l->sizeHint().width() + m_box->spacing();
        const auto direction = need > width() ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight;
        if (direction != m_box->direction())
            m_box->setDirection(direction);
    }

private:
    QBoxLayout* m_box;
};

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
    new FitOnResize(m_scroll);
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
    fitToWidth(m_scroll);
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
    // What to do comes right after what failed, so that both fit a small window without scrolling.
    addBadges(layout);
    addCatalogProblems(layout);  // a verdict made without some rules says so before anything else
    addRootCause(layout);
    addLeads(layout);
    addAction(layout);
    addDecisiveLine(layout);
    addCoverage(layout);
    addCandidates(layout);
    addAffectedNodes(layout);
    addFooter(layout);
    layout->addStretch(1);
    fitToWidth(m_scroll);
}

void VerdictPanel::addBadges(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    auto* row = new BadgeRow(this);
    QLabel* state = badge(badgeText(v.terminalState), terminalStateColor(v.terminalState), row);
    state->setObjectName(QStringLiteral("terminalStateBadge"));
    QLabel* domain = badge(badgeText(v.subDomain), domainColor(v.subDomain).darker(125), row);
    domain->setObjectName(QStringLiteral("subDomainBadge"));
    domain->setToolTip(QStringLiteral("Sub-domain: the part of the system that failed"));
    row->add(state);
    row->add(domain);
    layout->addWidget(row);
    if (!v.explanation.empty()) {
        QLabel* explanation = text(qs(v.explanation), this);
        explanation->setObjectName(QStringLiteral("verdictExplanation"));
        layout->addWidget(explanation);
    }
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
    const QString clock = clockNote(r, rc.node);
    QLabel* where = text(placeText(rc.node, rc.gpu, rc.rank, rc.link) + QStringLiteral(" \u00b7 ") +
                             whenText(rc.time, r.timeSourceOf(rc.symptomId)) +
                             (clock.isEmpty() ? QString() : QStringLiteral(" (") + clock + QLatin1Char(')')),
                         this);
    where->setObjectName(QStringLiteral("rootCausePlace"));
    if (!clock.isEmpty())
        where->setToolTip(glossary(Term::ClockCorrected));
    layout->addWidget(where);
    const bool repeated = r.verdict.explanation.rfind(rc.summary, 0) == 0;  // already shown under the badges
    if (!rc.summary.empty() && !repeated)
        layout->addWidget(text(qs(rc.summary), this));
    if (!rc.rule.empty())
        layout->addWidget(text(QStringLiteral("chosen by ") + qs(rc.rule), this));
}

void VerdictPanel::addDecisiveLine(QVBoxLayout* layout)
{
    const AnalysisResult& r = m_analysis->r();
    if (!r.verdict.rootCause)
        return;
    const RootCause& rc = *r.verdict.rootCause;
    layout->addWidget(heading(QStringLiteral("Decisive evidence"), this));
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
        line->setObjectName(QStringLiteral("decisiveLine"));
        layout->addWidget(line);
    }
}

void VerdictPanel::addAction(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    layout->addWidget(heading(QStringLiteral("Recommended action"), this));
    QLabel* action = text(v.action.action.empty() ? QStringLiteral("none") : qs(v.action.action), this);
    action->setObjectName(QStringLiteral("recommendedAction"));
    action->setStyleSheet(QStringLiteral("font-weight: bold"));
    layout->addWidget(action);
    if (!v.action.target.empty())
        layout->addWidget(text(QStringLiteral("target: ") + qs(v.action.target), this));
}

void VerdictPanel::addAffectedNodes(QVBoxLayout* layout)
{
    // The first nodes by name and a count of the rest; all of them in the tooltip. A 1,000-node job lists every
    // node here, and a word-wrapped label of 12 KB took ~50 ms of text layout on each show.
    constexpr std::size_t Shown = 12;
    const Verdict& v = m_analysis->r().verdict;
    layout->addWidget(heading(QStringLiteral("Affected nodes"), this));
    QStringList nodes;
    for (const auto& n : v.affectedNodes)
        nodes << qs(n);
    QString shown = nodes.isEmpty() ? QStringLiteral("none") : nodes.mid(0, Shown).join(QStringLiteral(", "));
    if (nodes.size() > static_cast<qsizetype>(Shown))
        shown += QStringLiteral(" and %1 more (%2 in all)").arg(nodes.size() - Shown).arg(nodes.size());
    QLabel* list = text(shown, this);
    list->setObjectName(QStringLiteral("affectedNodes"));
    if (nodes.size() > static_cast<qsizetype>(Shown))
        list->setToolTip(nodes.join(QStringLiteral(", ")));
    layout->addWidget(list);
}

void VerdictPanel::addCandidates(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    if (v.candidates.empty())
        return;
    const bool readings = candidatesAreReadings(v);
    layout->addWidget(heading(readings ? QStringLiteral("Ambiguous: what this finding can mean")
                                  : v.terminalState == "ambiguous" ? QStringLiteral("Ambiguous: competing candidates")
                                                                   : QStringLiteral("Candidates"),
                              this));
    for (const Candidate& c : v.candidates) {
        if (readings) {  // one finding read two ways: the root cause above links to it already
            layout->addWidget(text(badgeText(c.terminalState) + QStringLiteral(" / ") + qs(c.subDomain) +
                                       QStringLiteral("\n") + qs(c.summary),
                                   this));
            continue;
        }
        QPushButton* button = link(qs(c.symptom) + QStringLiteral(" on ") + placeText(c.node, c.gpu), this);
        const int symptom = m_analysis->symptomIndex(c.symptomId);
        connect(button, &QPushButton::clicked, this, [this, symptom] { m_selection->selectSymptom(symptom); });
        layout->addWidget(button);
        layout->addWidget(text(whenText(c.time, m_analysis->r().timeSourceOf(c.symptomId)) +
                                   QStringLiteral(" \u00b7 ") + badgeText(c.terminalState) + QStringLiteral(" / ") +
                                   qs(c.subDomain) + QStringLiteral("\n") + qs(c.summary),
                               this));
    }
    // The explanation at the top usually carries the advice already: say it once.
    const std::string& separatedBy = v.candidates.front().separatedBy;
    if (!separatedBy.empty() && v.explanation.find(separatedBy) == std::string::npos)
        layout->addWidget(text(QStringLiteral("Would separate them: ") + qs(separatedBy), this));
    if (v.candidates.size() > 1 && !readings) {
        QPushButton* compare = link(QStringLiteral("Compare the candidates side by side\u2026"), this);
        compare->setObjectName(QStringLiteral("compareCandidates"));
        connect(compare, &QPushButton::clicked, this, &VerdictPanel::showCandidateComparison);
        layout->addWidget(compare);
    }
}

void VerdictPanel::showCandidateComparison()
{
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("candidateComparisonDialog"));
    dialog->setWindowTitle(QStringLiteral("Competing candidates"));
    auto* table = new CandidateComparison(dialog);
    table->setAnalysis(m_analysis);
    connect(table, &CandidateComparison::candidateActivated, this,
            [this](int symptom) { m_selection->selectSymptom(symptom); });
    auto* note = text(QStringLiteral("Tinted rows differ between the candidates. Click a column header to show "
                                     "that candidate's evidence."),
                      dialog);
    auto* box = new QVBoxLayout(dialog);
    box->addWidget(note);
    box->addWidget(table, 1);
    dialog->resize(960, 560);
    dialog->show();
}

void VerdictPanel::addLeads(QVBoxLayout* layout)
{
    const Verdict& v = m_analysis->r().verdict;
    if (v.leads.empty())
        return;
    layout->addWidget(heading(QStringLiteral("Leads: no rule explains the failure; start reading here"), this));
    for (const Lead& lead : v.leads) {
        const QString where = sanitizeLine(qs(lead.file)) + QStringLiteral(":") + QString::number(lead.line);
        const int file = m_analysis->fileIndex(lead.file);
        if (file >= 0) {
            QPushButton* open = link(where, this);
            open->setToolTip(QStringLiteral("Show this line in its file"));
            const auto line = static_cast<qint64>(lead.line) - 1;
            connect(open, &QPushButton::clicked, this, [this, file, line] { Q_EMIT fileLineRequested(file, line); });
            layout->addWidget(open);
        } else {
            layout->addWidget(text(where, this));
        }
        QLabel* line = text(sanitizeLine(qs(lead.text)), this);
        line->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        line->setStyleSheet(QStringLiteral("background: #fffcf0; border-left: 4px solid #9e9e9e; padding: 4px"));
        layout->addWidget(line);
    }
}

void VerdictPanel::addCatalogProblems(QVBoxLayout* layout)
{
    // A rule file that failed to load leaves its rules out: the verdict was made without them.
    QStringList errors;
    for (const std::string& d : m_analysis->r().diagnostics)
        if (d.find(": error:") != std::string::npos)
            errors << sanitizeLine(qs(d));
    if (errors.isEmpty())
        return;
    QString message = QStringLiteral("\u26a0 The rule catalog has %1 error(s): the rules they concern were left out, "
                                     "so this verdict may be wrong.")
                          .arg(errors.size());
    // The first one, short: the Rule problems panel has them all.
    const QString first = errors.front();
    message += QStringLiteral("\n\u2022 ") + (first.size() > 140 ? first.left(140) + QStringLiteral("\u2026") : first);
    if (errors.size() > 1)
        message += QStringLiteral("\n\u2026 and %1 more").arg(errors.size() - 1);
    QLabel* box = text(message, this);
    box->setObjectName(QStringLiteral("catalogWarning"));
    box->setToolTip(errors.join(QLatin1Char('\n')));
    box->setStyleSheet(QStringLiteral("background: #fdecea; border: 2px solid #c62828; padding: 6px; color: #5f1010"));
    layout->addWidget(box);
    QPushButton* show = link(QStringLiteral("Show the rule problems"), this);
    show->setObjectName(QStringLiteral("showCatalogProblems"));
    connect(show, &QPushButton::clicked, this, &VerdictPanel::catalogProblemsRequested);
    layout->addWidget(show);
}

void VerdictPanel::addCoverage(QVBoxLayout* layout)
{
    const CoverageSummary summary = CoverageSummary::build(m_analysis->r());
    const bool ok = summary.level == CoverageSummary::Level::Ok;
    QLabel* box = text((ok ? QStringLiteral("Coverage: ")
                           : QStringLiteral("\u26a0 Evidence is incomplete \u2014 the verdict may be missing a "
                                            "cause\n")) +
                           summary.text(4),
                       this);
    box->setObjectName(ok ? QStringLiteral("coverageSummary") : QStringLiteral("coverageWarning"));
    box->setToolTip(glossary(Term::Coverage));
    const QString border =
        summary.level == CoverageSummary::Level::Red ? QStringLiteral("#c62828") : QStringLiteral("#ef8f00");
    box->setStyleSheet(ok ? QStringLiteral("color: %1").arg(summary.foreground().name())
                          : QStringLiteral("background: %1; border: 2px solid %2; padding: 6px; color: %3")
                                .arg(summary.background().name(), border, summary.foreground().name()));
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
