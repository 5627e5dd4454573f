// SPDX-License-Identifier: GPL-3.0-or-later
// Symptoms grouped by final status (active, demoted, scrubbed) with node, first seen, count and the
// rule and reason that set the status. Data and roles only; filtering and colour live in SymptomFilterProxy.
#pragma once

#include "views/analysis_data.h"
#include "views/models/tree_structure.h"

namespace attrib::views {

class SymptomTreeModel : public TreeModelBase {
    Q_OBJECT

public:
    enum Columns { SymptomColumn, NodeColumn, RuleColumn, FirstSeenColumn, CountColumn, ReasonColumn, ColumnCount };
    enum Roles {
        SymptomIndexRole = Qt::UserRole,  ///< int, -1 for group rows
        StatusRole,                       ///< int (engine::SymptomStatus) of the row or its group
        EvidenceRoleRole,                 ///< int (EvidenceRole), -1 for group rows
        SortRole,                         ///< raw value for sorting
        IsGroupRole,
        GroupTitleRole,  ///< QString: a group row's name without its count
    };

    explicit SymptomTreeModel(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);
    const AnalysisPtr& analysis() const { return m_analysis; }
    /// Index (column 0) of a symptom's row, invalid when unknown.
    QModelIndex indexOfSymptom(int symptom) const;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant groupData(int group, int column, int role) const;
    QVariant symptomData(int symptom, int column, int role) const;
    QVariant displayText(const engine::Symptom& s, int column) const;

    AnalysisPtr m_analysis;
    std::vector<int> m_itemSymptom;   ///< item -> symptom index (-1: group or root)
    std::vector<int> m_itemGroup;     ///< item -> group (status)
    std::vector<int> m_symptomItem;   ///< symptom -> item
    std::vector<int> m_symptomRanks;  ///< symptom -> distinct ranks among its events
};

}  // namespace attrib::views
