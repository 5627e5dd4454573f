// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/symptom_tree_model.h"

#include "views/describe.h"
#include "views/presentation.h"

#include <algorithm>
#include <set>

namespace attrib::views {

using namespace attrib::engine;

namespace {

constexpr int GroupCount = 3;

QString groupName(int group)
{
    switch (static_cast<SymptomStatus>(group)) {
    case SymptomStatus::Active: return QStringLiteral("Active");
    case SymptomStatus::Demoted: return QStringLiteral("Demoted (explained away)");
    case SymptomStatus::Scrubbed: return QStringLiteral("Scrubbed (per-node follow-ups)");
    }
    return {};
}

}  // namespace

SymptomTreeModel::SymptomTreeModel(QObject* parent)
    : TreeModelBase(parent)
{
    setAnalysis(nullptr);
}

void SymptomTreeModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_tree.clear();
    m_itemSymptom.assign(1, -1);
    m_itemGroup.assign(1, -1);
    m_symptomItem.clear();
    m_symptomRanks.clear();
    const bool have = m_analysis && m_analysis->hasVerdict();
    for (int g = 0; have && g < GroupCount; ++g) {
        m_tree.add(0);
        m_itemSymptom.push_back(-1);
        m_itemGroup.push_back(g);
    }
    if (have) {
        const auto& symptoms = m_analysis->r().symptoms;
        std::vector<int> order(symptoms.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int>(i);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            if (m_analysis->symptomRole[a] != m_analysis->symptomRole[b])
                return m_analysis->symptomRole[a] > m_analysis->symptomRole[b];
            return symptoms[a].firstSeen < symptoms[b].firstSeen;
        });
        m_symptomItem.assign(symptoms.size(), -1);
        m_symptomRanks.assign(symptoms.size(), 0);
        const auto& events = m_analysis->r().events;
        for (std::size_t s = 0; s < symptoms.size(); ++s) {
            std::set<int> ranks;
            for (std::uint64_t id : symptoms[s].events)
                if (const int e = m_analysis->eventIndex(id); e >= 0 && events[static_cast<std::size_t>(e)].rank >= 0)
                    ranks.insert(events[static_cast<std::size_t>(e)].rank);
            m_symptomRanks[s] = static_cast<int>(ranks.size());
        }
        for (int s : order) {
            const int group = static_cast<int>(symptoms[s].status);
            m_symptomItem[s] = m_tree.add(1 + group);
            m_itemSymptom.push_back(s);
            m_itemGroup.push_back(group);
        }
    }
    endResetModel();
}

QModelIndex SymptomTreeModel::indexOfSymptom(int symptom) const
{
    if (symptom < 0 || symptom >= static_cast<int>(m_symptomItem.size()))
        return {};
    return indexOfItem(m_symptomItem[symptom]);
}

int SymptomTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && parent.column() != 0 ? 0 : ColumnCount;
}

QVariant SymptomTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SymptomColumn: return QStringLiteral("Symptom");
    case NodeColumn: return QStringLiteral("Node");
    case RuleColumn: return QStringLiteral("Status set by");
    case FirstSeenColumn: return QStringLiteral("First seen (UTC)");
    case CountColumn: return QStringLiteral("Count");
    case ReasonColumn: return QStringLiteral("Reason");
    }
    return {};
}

QVariant SymptomTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int item = itemOf(index);
    const int symptom = m_itemSymptom[item];
    return symptom < 0 ? groupData(m_itemGroup[item], index.column(), role)
                       : symptomData(symptom, index.column(), role);
}

QVariant SymptomTreeModel::groupData(int group, int column, int role) const
{
    const int count = static_cast<int>(m_tree.children(1 + group).size());
    switch (role) {
    case Qt::DisplayRole:
        return column == SymptomColumn ? QVariant(groupName(group) + QStringLiteral("  (%1)").arg(count)) : QVariant();
    case GroupTitleRole: return groupName(group);
    case SymptomIndexRole:
    case EvidenceRoleRole: return -1;
    case StatusRole:
    case SortRole: return group;
    case IsGroupRole: return true;
    }
    return {};
}

QVariant SymptomTreeModel::displayText(const Symptom& s, int column) const
{
    switch (column) {
    case SymptomColumn: return qs(s.name);
    case NodeColumn: {
        // A symptom that gathers several ranks names how many, not the first one's.
        const auto index = static_cast<std::size_t>(&s - m_analysis->r().symptoms.data());
        const int ranks = index < m_symptomRanks.size() ? m_symptomRanks[index] : 0;
        if (ranks <= 1)
            return placeText(s.node, s.gpu, s.rank);
        return QString(placeText(s.node, s.gpu, -1) + QStringLiteral(" · %1 ranks").arg(ranks));
    }
    case FirstSeenColumn: return formatUtc(s.firstSeen, false);
    case CountColumn: return s.count;
    case RuleColumn: return qs(s.statusRule);
    case ReasonColumn: {
        // An ambiguous verdict's demotions name the candidate that matched first; the other could explain them too.
        const auto& candidates = m_analysis->r().verdict.candidates;
        const bool byCandidate = candidates.size() > 1 && !m_analysis->r().verdict.rootCause &&
            std::any_of(candidates.begin(), candidates.end(),
                        [&](const engine::Candidate& c) { return c.symptomId == s.causedBy; });
        const QString reason = sanitizeLine(qs(s.statusReason));
        return byCandidate ? reason + QStringLiteral(" (ambiguous verdict: another candidate could explain it too)")
                           : reason;
    }
    }
    return {};
}

QVariant SymptomTreeModel::symptomData(int symptom, int column, int role) const
{
    const Symptom& s = m_analysis->r().symptoms[symptom];
    switch (role) {
    case Qt::DisplayRole: return displayText(s, column);
    case Qt::ToolTipRole: return plainToolTip(describeSymptom(*m_analysis, symptom));
    case Qt::DecorationRole: return column == SymptomColumn ? QVariant(domainColor(s.domain)) : QVariant();
    case Qt::TextAlignmentRole: return column == CountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SymptomIndexRole: return symptom;
    case StatusRole: return static_cast<int>(s.status);
    case EvidenceRoleRole: return static_cast<int>(m_analysis->symptomRole[symptom]);
    case IsGroupRole: return false;
    case SortRole:
        if (column == FirstSeenColumn)
            return static_cast<qlonglong>(s.firstSeen);
        return column == CountColumn ? QVariant(s.count) : displayText(s, column);
    }
    return {};
}

}  // namespace attrib::views
