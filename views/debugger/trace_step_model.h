// SPDX-License-Identifier: GPL-3.0-or-later
// The rule debugger's step list: one row per recorded trace step (phase, rule, summary).
#pragma once

#include "engine/trace_replay.h"

#include <QAbstractTableModel>

#include <memory>

namespace attrib::views {

using ReplayPtr = std::shared_ptr<const engine::TraceReplay>;

class TraceStepModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { StepColumn, PhaseColumn, RuleColumn, SummaryColumn, ColumnCount };
    enum Roles { StepIndexRole = Qt::UserRole, FiredRole, BreakpointHitRole, RuleIdRole };

    explicit TraceStepModel(QObject* parent = nullptr);

    void setReplay(ReplayPtr replay);
    const ReplayPtr& replay() const { return m_replay; }
    /// Steps that hit an enabled breakpoint get a marker in the step column.
    void setBreakpoints(const std::vector<engine::Breakpoint>& breakpoints);
    /// The step the debugger stands on is shown in bold.
    void setCurrentStep(int step);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ReplayPtr m_replay;
    std::vector<bool> m_hits;
    int m_current = -1;
};

}  // namespace attrib::views
