// SPDX-License-Identifier: GPL-3.0-or-later
// An ambiguous verdict's candidates side by side: one column per candidate, one row per fact (where, when, what the
// verdict would be, the decisive line, what it would explain, how far apart in time). Rows whose values differ are
// tinted so the eye goes to what tells the candidates apart; clicking a column header selects that candidate.
#pragma once

#include "views/analysis_data.h"

#include <QTableWidget>

namespace attrib::views {

class CandidateComparison : public QTableWidget {
    Q_OBJECT

public:
    enum Row { Symptom, Place, FirstSeen, Verdict, Summary, Decisive, Explains, Offset, RowCount };

    explicit CandidateComparison(QWidget* parent = nullptr);
    void setAnalysis(const AnalysisPtr& analysis);
    /// Whether a row's values differ between the candidates (such rows are tinted).
    bool rowDiffers(int row) const;

protected:
    void resizeEvent(QResizeEvent* event) override;

Q_SIGNALS:
    /// A candidate's column header was clicked: its symptom index in the analysis.
    void candidateActivated(int symptom);

private:
    AnalysisPtr m_analysis;
    std::vector<int> m_symptoms;  ///< column -> symptom index (-1 when not in the analysis)
};

}  // namespace attrib::views
