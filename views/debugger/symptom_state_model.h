// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom set as of the debugger's current step, with the change against the previous step
// (added, demoted, promoted, scrubbed) highlighted.
#pragma once

#include "views/debugger/trace_step_model.h"

#include <QAbstractTableModel>
#include <QColor>

namespace attrib::views {

class SymptomStateModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { SymptomColumn, NodeColumn, StatusColumn, ChangeColumn, RuleColumn, ReasonColumn, ColumnCount };
    enum Roles { SymptomIdRole = Qt::UserRole, StatusRole, ChangeRole, SetAtRole };

    explicit SymptomStateModel(QObject* parent = nullptr);

    /// The state after `step` of `replay` (-1: before the first step).
    void setStep(ReplayPtr replay, int step);
    int step() const { return m_step; }
    const std::vector<engine::SymptomState>& states() const { return m_states; }
    /// Row of a symptom id, -1 when not (yet) in the set.
    int rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Background of a change kind (transparent for None).
    static QColor changeColor(engine::StepChange change);

private:
    std::vector<engine::SymptomState> m_states;
    int m_step = -1;
};

}  // namespace attrib::views
