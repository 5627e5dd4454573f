// SPDX-License-Identifier: GPL-3.0-or-later
// "Which rules looked at this line?": the extractors of the line's source kind (matched or not, with
// captures) and every trace step that used the line's events or symptoms.
#pragma once

#include "engine/trace_why.h"

#include <QAbstractTableModel>

namespace attrib::views {

class RuleLookModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { RuleColumn, PhaseColumn, ResultColumn, StepColumn, DetailColumn, ColumnCount };
    enum Roles { StepRole = Qt::UserRole, RuleIdRole };

    explicit RuleLookModel(QObject* parent = nullptr);

    void setLooks(std::vector<engine::LineLook> looks);
    const std::vector<engine::LineLook>& looks() const { return m_looks; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<engine::LineLook> m_looks;
};

}  // namespace attrib::views
