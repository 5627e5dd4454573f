// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/verdict/candidate_comparison.h"

#include "views/presentation.h"

#include <QHeaderView>
#include <QTimer>

namespace attrib::views {

namespace {

const QColor DifferTint = QColor::fromRgb(0xfff4d6);

QString rowTitle(int row)
{
    switch (static_cast<CandidateComparison::Row>(row)) {
    case CandidateComparison::Symptom: return QStringLiteral("Symptom");
    case CandidateComparison::Place: return QStringLiteral("Where");
    case CandidateComparison::FirstSeen: return QStringLiteral("First seen");
    case CandidateComparison::Verdict: return QStringLiteral("Verdict if it is the cause");
    case CandidateComparison::Summary: return QStringLiteral("What happened");
    case CandidateComparison::Decisive: return QStringLiteral("Decisive line");
    case CandidateComparison::Explains: return QStringLiteral("Would explain");
    case CandidateComparison::Offset: return QStringLiteral("Time after the first candidate");
    case CandidateComparison::RowCount: break;
    }
    return {};
}

QString decisiveText(const AnalysisData& a, int symptom)
{
    const int o = symptom >= 0 ? a.primaryObservation(symptom) : -1;
    if (o < 0)
        return QStringLiteral("no line kept");
    const auto& r = a.r();
    const engine::Observation& obs = r.observations[static_cast<std::size_t>(o)];
    const QString where = obs.source.file < r.files.size()
        ? qs(r.files[obs.source.file].path) + QLatin1Char(':') + QString::number(obs.source.line)
        : QStringLiteral("unknown file");
    return where + QLatin1Char('\n') + sanitizeLine(qs(obs.text));
}

QString explainsText(const AnalysisData& a, const std::string& symptomId)
{
    QStringList names;
    for (const auto& s : a.r().symptoms)
        if (s.causedBy == symptomId)
            names << qs(s.id);
    if (names.isEmpty())
        return QStringLiteral("nothing else");
    return QString(QString::number(names.size()) + QStringLiteral(" symptom(s): ") + names.join(QStringLiteral(", ")));
}

}  // namespace

CandidateComparison::CandidateComparison(QWidget* parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("candidateComparison"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setSectionsClickable(true);
    connect(horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int column) {
        if (column >= 0 && column < static_cast<int>(m_symptoms.size()) && m_symptoms[column] >= 0)
            Q_EMIT candidateActivated(m_symptoms[column]);
    });
}

void CandidateComparison::setAnalysis(const AnalysisPtr& analysis)
{
    m_analysis = analysis;
    m_symptoms.clear();
    clear();
    const auto& candidates = analysis ? analysis->r().verdict.candidates : std::vector<engine::Candidate>{};
    setColumnCount(static_cast<int>(candidates.size()));
    setRowCount(candidates.empty() ? 0 : RowCount);
    QStringList rows;
    for (int row = 0; row < rowCount(); ++row)
        rows << rowTitle(row);
    setVerticalHeaderLabels(rows);
    const engine::TimeNs first = candidates.empty() ? engine::NoTime : candidates.front().time;
    for (int column = 0; column < columnCount(); ++column) {
        const engine::Candidate& c = candidates[static_cast<std::size_t>(column)];
        const int symptom = analysis->symptomIndex(c.symptomId);
        m_symptoms.push_back(symptom);
        setHorizontalHeaderItem(column, new QTableWidgetItem(QStringLiteral("Candidate %1").arg(column + 1)));
        const auto cell = [this, column](int row, const QString& value) {
            auto* item = new QTableWidgetItem(value);
            item->setToolTip(value);
            setItem(row, column, item);
        };
        cell(Symptom, qs(c.symptom));
        cell(Place, placeText(c.node, c.gpu));
        cell(FirstSeen, whenText(c.time, analysis->r().timeSourceOf(c.symptomId)));
        cell(Verdict, qs(c.terminalState) + QStringLiteral(" / ") + qs(c.subDomain));
        cell(Summary, sanitizeLine(qs(c.summary)));
        cell(Decisive, decisiveText(*analysis, symptom));
        cell(Explains, explainsText(*analysis, c.symptomId));
        cell(Offset,
             c.time == engine::NoTime || first == engine::NoTime
                 ? QStringLiteral("cannot be compared (time unknown)")
                 : QStringLiteral("%1 s").arg(static_cast<double>(c.time - first) / 1e9, 0, 'f', 3));
    }
    for (int row = 0; row < rowCount(); ++row)
        if (rowDiffers(row))
            for (int column = 0; column < columnCount(); ++column)
                item(row, column)->setBackground(DifferTint);
    resizeRowsToContents();
}

void CandidateComparison::resizeEvent(QResizeEvent* event)
{
    QTableWidget::resizeEvent(event);
    // Wrapped cells take the height they need once the stretched columns have their new width (after this event).
    QTimer::singleShot(0, this, [this] { resizeRowsToContents(); });
}

bool CandidateComparison::rowDiffers(int row) const
{
    for (int column = 1; column < columnCount(); ++column)
        if (item(row, column)->text() != item(row, 0)->text())
            return true;
    return false;
}

}  // namespace attrib::views
