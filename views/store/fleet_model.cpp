// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/fleet_model.h"

#include "engine/json_util.h"
#include "engine/store/case_record.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace attrib::views {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString dash(const std::string& s)
{
    return s.empty() ? QStringLiteral("-") : q(s);
}

engine::TimeNs caseTime(const store::CaseSummary& c)
{
    return c.jobStart != engine::NoTime ? c.jobStart : c.createdAt;
}

QString labelText(const store::CaseSummary& c)
{
    if (!c.label)
        return QStringLiteral("-");
    return dash(c.label->terminalState) + QStringLiteral(" / ") + dash(c.label->subDomain) + QStringLiteral(" / ") +
        dash(c.label->node);
}

}  // namespace

FleetModel::FleetModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void FleetModel::setCases(std::vector<store::CaseSummary> cases)
{
    beginResetModel();
    m_cases = std::move(cases);
    m_casesByNode.clear();
    for (const auto& c : m_cases)
        if (!c.rootNode.empty())
            m_casesByNode[c.rootNode].push_back(c.id);
    endResetModel();
}

const store::CaseSummary* FleetModel::caseAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_cases.size()) ? &m_cases[static_cast<std::size_t>(row)] : nullptr;
}

std::vector<std::pair<std::string, std::vector<std::int64_t>>> FleetModel::repeatOffenders() const
{
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> out;
    for (const auto& [node, ids] : m_casesByNode)
        if (ids.size() > 1)
            out.emplace_back(node, ids);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    return out;
}

int FleetModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_cases.size());
}

int FleetModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FleetModel::display(const store::CaseSummary& c, int column) const
{
    switch (column) {
    case IdColumn: return QVariant::fromValue<qlonglong>(c.id);
    case JobColumn: return dash(c.workloadId);
    case TimeColumn:
        return q(engine::formatTime(caseTime(c)).substr(0, 19)).replace(QLatin1Char('T'), QLatin1Char(' '));
    case StateColumn: return q(c.terminalState);
    case DomainColumn: return q(c.subDomain);
    case NodeColumn: return dash(c.rootNode);
    case LabelColumn: return labelText(c);
    case AgreeColumn: return q(store::agreementText(c));
    default: return {};
    }
}

QVariant FleetModel::sortKey(const store::CaseSummary& c, int column) const
{
    switch (column) {
    case IdColumn: return QVariant::fromValue<qlonglong>(c.id);
    case TimeColumn: return QVariant::fromValue<qlonglong>(caseTime(c));
    default: return display(c, column);
    }
}

QVariant FleetModel::data(const QModelIndex& index, int role) const
{
    const store::CaseSummary* c = index.isValid() ? caseAt(index.row()) : nullptr;
    if (!c || index.column() >= ColumnCount)
        return {};
    const auto node = m_casesByNode.find(c->rootNode);
    const bool repeat = node != m_casesByNode.end() && node->second.size() > 1;
    switch (role) {
    case Qt::DisplayRole: return display(*c, index.column());
    case CaseIdRole: return QVariant::fromValue<qlonglong>(c->id);
    case SortRole: return sortKey(*c, index.column());
    case RepeatOffenderRole: return repeat;
    case Qt::ToolTipRole: {
        QString tip = q(c->bundlePath);
        if (c->label && !c->label->notes.empty())
            tip += QStringLiteral("\n") + q(c->label->notes);
        return tip;
    }
    case Qt::ForegroundRole:
        if (index.column() == AgreeColumn && store::agreementText(*c) == "no")
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case Qt::BackgroundRole:
        if (index.column() == NodeColumn && repeat)
            return QBrush(QColor(0xff, 0xe0, 0xb2));
        return {};
    default: return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[ColumnCount] = {"Case",       "Job",       "Time",  "Terminal state",
                                                   "Sub-domain", "Root node", "Label", "Agrees"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

FleetFilterProxy::FleetFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(FleetModel::SortRole);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setFilterKeyColumn(-1);
}

void FleetFilterProxy::setNodeFilter(const QString& node)
{
    m_node = node;
    invalidateFilter();
}

bool FleetFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_node.isEmpty()) {
        const QModelIndex node = sourceModel()->index(sourceRow, FleetModel::NodeColumn, sourceParent);
        if (node.data().toString() != m_node)
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace attrib::views
