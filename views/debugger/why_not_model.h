// SPDX-License-Identifier: GPL-3.0-or-later
// "Why didn't this fire?": each recorded non-firing evaluation of a rule, with every condition and its
// value at evaluation time as children (failing ones marked).
#pragma once

#include "engine/trace_why.h"

#include <QAbstractItemModel>

namespace attrib::views {

class WhyNotModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Columns { WhatColumn, ValueColumn, ColumnCount };
    enum Roles { StepRole = Qt::UserRole, HoldsRole };

    explicit WhyNotModel(QObject* parent = nullptr);

    void setAnswer(engine::WhyNot answer);
    const engine::WhyNot& answer() const { return m_answer; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant evaluationData(const engine::Evaluation& e, int column, int role) const;
    QVariant conditionData(const engine::Condition& c, int column, int role) const;

    engine::WhyNot m_answer;
};

}  // namespace attrib::views
