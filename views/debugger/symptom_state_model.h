// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom set as of the debugger's current step, with the change against the previous step
// (added, demoted, promoted, scrubbed) highlighted.
#pragma once

#include "views/debugger/trace_step_model.h"

#include <QAbstractTableModel>
#include <QColor>

#include <memory>
#include <vector>

namespace attrib::views {

class SymptomStateModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { SymptomColumn, NodeColumn, StatusColumn, ChangeColumn, RuleColumn, ReasonColumn, ColumnCount };
    enum Roles { SymptomIdRole = Qt::UserRole, StatusRole, ChangeRole, SetAtRole };

    explicit SymptomStateModel(QObject* parent = nullptr);

    using States = std::shared_ptr<const std::vector<engine::SymptomState>>;

    /// The state after `step` of `replay` (-1: before the first step), computed here (on the caller's thread).
    void setStep(const ReplayPtr& replay, int step);
    /// The state after `step`, computed elsewhere (TraceReplay::stateAt); shared, not copied.
    void setStates(int step, States states);
    int step() const { return m_step; }
    const std::vector<engine::SymptomState>& states() const;
    /// Stale rows (a newer step is being computed) are drawn greyed until the next setStates.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    /// Row of a symptom id, -1 when not (yet) in the set.
    int rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Background of a change kind (transparent for None).
    static QColor changeColor(engine::StepChange change);

private:
    States m_states;
    int m_step = -1;
    bool m_stale = false;
};

}  // namespace attrib::views
