// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet: every stored case as a table row (job, time, verdict, root-cause node, label, agreement), and the
// nodes that were the root cause of more than one case (repeat offenders).
#pragma once

#include "engine/store/case_store.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <map>

namespace attrib::views {

class FleetModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns {
        IdColumn,
        JobColumn,
        TimeColumn,
        StateColumn,
        DomainColumn,
        NodeColumn,
        LabelColumn,
        AgreeColumn,
        ColumnCount
    };
    enum Roles { CaseIdRole = Qt::UserRole, SortRole, RepeatOffenderRole };

    explicit FleetModel(QObject* parent = nullptr);

    void setCases(std::vector<store::CaseSummary> cases);
    const std::vector<store::CaseSummary>& cases() const { return m_cases; }
    const store::CaseSummary* caseAt(int row) const;

    /// Root-cause nodes of more than one case, most cases first (ties by name), with their case ids.
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> repeatOffenders() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const store::CaseSummary& c, int column) const;
    QVariant sortKey(const store::CaseSummary& c, int column) const;

    std::vector<store::CaseSummary> m_cases;
    std::map<std::string, std::vector<std::int64_t>> m_casesByNode;
};

/// Sorting by the model's SortRole and a case-insensitive text filter over every column; optionally only the
/// cases of one root-cause node.
class FleetFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit FleetFilterProxy(QObject* parent = nullptr);
    void setNodeFilter(const QString& node);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_node;
};

}  // namespace attrib::views
