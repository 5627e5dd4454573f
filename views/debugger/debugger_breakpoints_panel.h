// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger's breakpoint panel: add a rule / symptom / node breakpoint, enable, remove.
#pragma once

#include "views/debugger/breakpoint_model.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QStringListModel;
class QTableView;

namespace attrib::views {

class DebuggerBreakpointsPanel : public QWidget {
    Q_OBJECT

public:
    explicit DebuggerBreakpointsPanel(BreakpointModel* model, QWidget* parent = nullptr);

    /// Offers the trace's rule ids, symptom names and nodes as completions.
    void setReplay(const ReplayPtr& replay);
    /// Adds what the inputs say; returns false when the pattern is empty.
    bool addFromInputs();
    QComboBox* kindCombo() const { return m_kind; }
    QLineEdit* patternEdit() const { return m_pattern; }

private:
    void updateCompletions();

    BreakpointModel* m_model;
    QComboBox* m_kind;
    QLineEdit* m_pattern;
    QTableView* m_table;
    QStringListModel* m_completions;
    QStringList m_rules, m_symptoms, m_nodes;
};

}  // namespace attrib::views
