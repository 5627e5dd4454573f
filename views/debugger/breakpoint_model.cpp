// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/breakpoint_model.h"

#include "views/presentation.h"

namespace attrib::views {

BreakpointModel::BreakpointModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int BreakpointModel::hitCount(const engine::Breakpoint& bp) const
{
    if (!m_replay)
        return 0;
    int hits = 0;
    for (std::size_t i = 0; i < m_replay->stepCount(); ++i)
        hits += m_replay->hits(i, bp);
    return hits;
}

int BreakpointModel::addBreakpoint(engine::Breakpoint::Kind kind, const QString& pattern)
{
    const std::string p = pattern.trimmed().toStdString();
    for (std::size_t i = 0; i < m_breakpoints.size(); ++i)
        if (m_breakpoints[i].kind == kind && m_breakpoints[i].pattern == p)
            return static_cast<int>(i);
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_breakpoints.push_back({kind, p, true});
    m_hits.push_back(hitCount(m_breakpoints.back()));
    endInsertRows();
    Q_EMIT breakpointsChanged();
    return row;
}

void BreakpointModel::removeBreakpoint(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    m_breakpoints.erase(m_breakpoints.begin() + row);
    m_hits.erase(m_hits.begin() + row);
    endRemoveRows();
    Q_EMIT breakpointsChanged();
}

void BreakpointModel::clear()
{
    beginResetModel();
    m_breakpoints.clear();
    m_hits.clear();
    endResetModel();
    Q_EMIT breakpointsChanged();
}

void BreakpointModel::setReplay(ReplayPtr replay)
{
    m_replay = std::move(replay);
    for (std::size_t i = 0; i < m_breakpoints.size(); ++i)
        m_hits[i] = hitCount(m_breakpoints[i]);
    if (!m_breakpoints.empty())
        Q_EMIT dataChanged(index(0, HitsColumn), index(rowCount() - 1, HitsColumn));
}

int BreakpointModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_breakpoints.size());
}

int BreakpointModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BreakpointModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& bp = m_breakpoints[static_cast<std::size_t>(index.row())];
    if (role == Qt::CheckStateRole && index.column() == KindColumn)
        return bp.enabled ? Qt::Checked : Qt::Unchecked;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case KindColumn: return qs(engine::toString(bp.kind));
    case PatternColumn: return qs(bp.pattern);
    case HitsColumn: return m_hits[static_cast<std::size_t>(index.row())];
    }
    return {};
}

bool BreakpointModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        role != Qt::CheckStateRole || index.column() != KindColumn)
        return false;
    m_breakpoints[static_cast<std::size_t>(index.row())].enabled = value.toInt() == Qt::Checked;
    Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
    Q_EMIT breakpointsChanged();
    return true;
}

Qt::ItemFlags BreakpointModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == KindColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant BreakpointModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn: return tr("On");
    case PatternColumn: return tr("Pattern");
    case HitsColumn: return tr("Hits");
    }
    return {};
}

}  // namespace attrib::views
