// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence lines of the symptom selected in the debugger; each offers "Which rules looked at this line?".
#pragma once

#include "engine/verdict.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace attrib::views {

class DebuggerEvidencePanel : public QWidget {
    Q_OBJECT

public:
    explicit DebuggerEvidencePanel(QWidget* parent = nullptr);

    void showSymptom(const engine::AnalysisSnapshot& result, const QString& symptomId);
    int lineCount() const;
    /// Observation id of a row.
    quint64 observationAt(int row) const;

Q_SIGNALS:
    /// "Which rules looked at this line?" was asked for an observation.
    void lineRequested(quint64 observation);
    void observationSelected(quint64 observation);

private:
    QLabel* m_title;
    QTreeWidget* m_lines;
};

}  // namespace attrib::views
