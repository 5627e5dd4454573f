// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/tree_structure.h"

namespace attrib::views {

QModelIndex TreeModelBase::index(int row, int column, const QModelIndex& parent) const
{
    const int p = itemOf(parent);
    if (row < 0 || column < 0 || column >= columnCount(parent) || p >= m_tree.size() ||
        row >= static_cast<int>(m_tree.children(p).size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(m_tree.children(p)[row]));
}

QModelIndex TreeModelBase::parent(const QModelIndex& child) const
{
    const int item = itemOf(child);
    if (item <= 0 || item >= m_tree.size() || m_tree.parent(item) <= 0)
        return {};
    const int p = m_tree.parent(item);
    return createIndex(m_tree.row(p), 0, static_cast<quintptr>(p));
}

int TreeModelBase::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const int p = itemOf(parent);
    return p < m_tree.size() ? static_cast<int>(m_tree.children(p).size()) : 0;
}

QModelIndex TreeModelBase::indexOfItem(int item, int column) const
{
    if (item <= 0 || item >= m_tree.size())
        return {};
    return createIndex(m_tree.row(item), column, static_cast<quintptr>(item));
}

}  // namespace attrib::views
