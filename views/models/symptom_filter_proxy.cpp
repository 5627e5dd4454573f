// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/symptom_filter_proxy.h"

#include "views/analysis_data.h"
#include "views/models/symptom_tree_model.h"
#include "views/presentation.h"

#include <QFont>

namespace attrib::views {

using engine::SymptomStatus;

SymptomFilterProxy::SymptomFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(SymptomTreeModel::SortRole);
}

void SymptomFilterProxy::setShowDemoted(bool show)
{
    if (show == m_showDemoted)
        return;
    m_showDemoted = show;
    invalidateFilter();
}

void SymptomFilterProxy::setShowScrubbed(bool show)
{
    if (show == m_showScrubbed)
        return;
    m_showScrubbed = show;
    invalidateFilter();
}

void SymptomFilterProxy::setFilterText(const QString& text)
{
    setFilterFixedString(text);
}

bool SymptomFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto status = static_cast<SymptomStatus>(index.data(SymptomTreeModel::StatusRole).toInt());
    if ((status == SymptomStatus::Demoted && !m_showDemoted) || (status == SymptomStatus::Scrubbed && !m_showScrubbed))
        return false;
    if (index.data(SymptomTreeModel::IsGroupRole).toBool())
        return filterRegularExpression().pattern().isEmpty();
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

bool SymptomFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    if (left.data(SymptomTreeModel::IsGroupRole).toBool()) {
        // Groups keep their order (active, demoted, scrubbed) whichever way the symptoms are sorted.
        return sortOrder() == Qt::AscendingOrder ? left.row() < right.row() : left.row() > right.row();
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

QVariant SymptomFilterProxy::data(const QModelIndex& index, int role) const
{
    if (role == Qt::DisplayRole && index.column() == 0 &&
        QSortFilterProxyModel::data(index, SymptomTreeModel::IsGroupRole).toBool()) {
        // A group counts what the filter shows, and says so when it hides some.
        const int shown = rowCount(index);
        const int all = sourceModel()->rowCount(mapToSource(index));
        const QString title = QSortFilterProxyModel::data(index, SymptomTreeModel::GroupTitleRole).toString();
        return shown == all ? QStringLiteral("%1  (%2)").arg(title).arg(all)
                            : QStringLiteral("%1  (%2 of %3)").arg(title).arg(shown).arg(all);
    }
    if (role != Qt::ForegroundRole && role != Qt::FontRole)
        return QSortFilterProxyModel::data(index, role);
    const int evidenceRole = QSortFilterProxyModel::data(index, SymptomTreeModel::EvidenceRoleRole).toInt();
    const bool group = QSortFilterProxyModel::data(index, SymptomTreeModel::IsGroupRole).toBool();
    if (role == Qt::FontRole) {
        if (!group && evidenceRole != static_cast<int>(EvidenceRole::RootCause))
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    switch (static_cast<EvidenceRole>(evidenceRole)) {
    case EvidenceRole::RootCause: return QColor::fromRgb(0xb71c1c);
    case EvidenceRole::Interesting: return QColor::fromRgb(0x6d5d3a);
    case EvidenceRole::Demoted:
    case EvidenceRole::Scrubbed: return QColor::fromRgb(0x80868b);
    default: return {};
    }
}

}  // namespace attrib::views
