// SPDX-License-Identifier: GPL-3.0-or-later
// The tree plumbing shared by the item models: items with parent, row and children; item 0 is the root.
// A model's QModelIndex stores its item number as internalId (see TreeModelBase).
#pragma once

#include <QAbstractItemModel>

#include <vector>

namespace attrib::views {

class TreeStructure {
public:
    TreeStructure() { clear(); }

    void clear()
    {
        m_parent.assign(1, -1);
        m_row.assign(1, 0);
        m_children.assign(1, {});
    }
    /// Appends a child to `parent` and returns its item number.
    int add(int parent)
    {
        const int item = static_cast<int>(m_parent.size());
        m_parent.push_back(parent);
        m_row.push_back(static_cast<int>(m_children[parent].size()));
        m_children.emplace_back();
        m_children[parent].push_back(item);
        return item;
    }
    int parent(int item) const { return m_parent[item]; }
    int row(int item) const { return m_row[item]; }
    const std::vector<int>& children(int item) const { return m_children[item]; }
    int size() const { return static_cast<int>(m_parent.size()); }

private:
    std::vector<int> m_parent;
    std::vector<int> m_row;
    std::vector<std::vector<int>> m_children;
};

/// index/parent/rowCount over a TreeStructure; subclasses fill `m_tree` and implement data and columns.
class TreeModelBase : public QAbstractItemModel {
    Q_OBJECT

public:
    using QAbstractItemModel::QAbstractItemModel;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    /// Index of an item of the tree (invalid for the root).
    QModelIndex indexOfItem(int item, int column = 0) const;

protected:
    static int itemOf(const QModelIndex& index) { return index.isValid() ? static_cast<int>(index.internalId()) : 0; }

    TreeStructure m_tree;
};

}  // namespace attrib::views
