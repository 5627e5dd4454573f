// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/why_not_model.h"

#include "views/presentation.h"

#include <QColor>

namespace attrib::views {

namespace {
constexpr quintptr TopLevel = 0;
}

WhyNotModel::WhyNotModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void WhyNotModel::setAnswer(engine::WhyNot answer)
{
    beginResetModel();
    m_answer = std::move(answer);
    endResetModel();
}

QModelIndex WhyNotModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_answer.evaluations.size()) ? createIndex(row, column, TopLevel) : QModelIndex();
    if (parent.internalId() != TopLevel || parent.column() != 0)
        return {};
    const auto& conditions = m_answer.evaluations[static_cast<std::size_t>(parent.row())].conditions;
    return row < static_cast<int>(conditions.size()) ? createIndex(row, column, static_cast<quintptr>(parent.row()) + 1)
                                                     : QModelIndex();
}

QModelIndex WhyNotModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == TopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, TopLevel);
}

int WhyNotModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_answer.evaluations.size());
    if (parent.internalId() != TopLevel || parent.column() != 0)
        return 0;
    return static_cast<int>(m_answer.evaluations[static_cast<std::size_t>(parent.row())].conditions.size());
}

int WhyNotModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant WhyNotModel::evaluationData(const engine::Evaluation& e, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        if (column == WhatColumn)
            return e.target.empty() ? tr("step %1").arg(e.step) : tr("step %1: %2").arg(e.step).arg(qs(e.target));
        return qs(e.sentence);
    case Qt::ToolTipRole: return plainToolTip(qs(e.sentence));
    case StepRole: return static_cast<qulonglong>(e.step);
    }
    return {};
}

QVariant WhyNotModel::conditionData(const engine::Condition& c, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        if (column == WhatColumn)
            return c.holds ? QString(qs(c.name) +
                                     (*c.holds ? QStringLiteral("  \u2714 holds") : QStringLiteral("  \u2718 failed")))
                           : qs(c.name);
        return qs(c.value);
    case Qt::ForegroundRole:
        if (c.holds)
            return *c.holds ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
        return {};
    case HoldsRole: return c.holds ? QVariant(*c.holds) : QVariant();
    }
    return {};
}

QVariant WhyNotModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == TopLevel)
        return evaluationData(m_answer.evaluations[static_cast<std::size_t>(index.row())], index.column(), role);
    const auto& e = m_answer.evaluations[index.internalId() - 1];
    if (role == StepRole)
        return static_cast<qulonglong>(e.step);
    return conditionData(e.conditions[static_cast<std::size_t>(index.row())], index.column(), role);
}

QVariant WhyNotModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == WhatColumn ? tr("Evaluation / condition") : tr("Value at evaluation time");
}

}  // namespace attrib::views
