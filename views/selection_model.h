// SPDX-License-Identifier: GPL-3.0-or-later
// The one selection every view follows: a symptom, an event or an evidence line of the current analysis.
#pragma once

#include "views/analysis_data.h"

#include <QObject>

namespace attrib::views {

/// What is selected. `focus` tells which of the three the user picked; the others are derived from it.
struct Selection {
    enum class Focus { None, Symptom, Event, Observation };
    Focus focus = Focus::None;
    int symptom = -1;      ///< index into AnalysisResult::symptoms
    int event = -1;        ///< index into AnalysisResult::events
    int observation = -1;  ///< index into AnalysisResult::observations

    bool operator==(const Selection&) const = default;
};

/// Shared by all views of a window: select in any, the others follow through `selectionChanged`.
class SelectionModel : public QObject {
    Q_OBJECT

public:
    explicit SelectionModel(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);
    const AnalysisPtr& analysis() const { return m_analysis; }
    const Selection& current() const { return m_current; }

    void selectSymptom(int symptom);
    void selectEvent(int event);
    /// `event` narrows which event of the line is meant (-1: the strongest one).
    void selectObservation(int observation, int event = -1);
    void clear();

Q_SIGNALS:
    void selectionChanged(const attrib::views::Selection& selection);
    void analysisChanged(const attrib::views::AnalysisPtr& analysis);

private:
    void apply(const Selection& selection);

    AnalysisPtr m_analysis;
    Selection m_current;
};

}  // namespace attrib::views
