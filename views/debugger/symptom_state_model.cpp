// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/symptom_state_model.h"

#include "views/presentation.h"

#include <QFont>

#include <algorithm>

namespace attrib::views {

using engine::StepChange;
using engine::SymptomStatus;

SymptomStateModel::SymptomStateModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SymptomStateModel::setStep(const ReplayPtr& replay, int step)
{
    States states;
    if (replay && step >= 0)
        states =
            std::make_shared<const std::vector<engine::SymptomState>>(replay->stateAt(static_cast<std::size_t>(step)));
    setStates(step, std::move(states));
}

void SymptomStateModel::setStates(int step, States states)
{
    beginResetModel();
    m_step = step;
    m_states = std::move(states);
    m_stale = false;
    endResetModel();
}

const std::vector<engine::SymptomState>& SymptomStateModel::states() const
{
    static const std::vector<engine::SymptomState> none;
    return m_states ? *m_states : none;
}

void SymptomStateModel::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
}

int SymptomStateModel::rowOf(const QString& id) const
{
    // Sorted by id (TraceReplay::stateAt), so a binary search.
    const std::string key = id.toStdString();
    const auto& all = states();
    auto it = std::lower_bound(all.begin(), all.end(), key,
                               [](const engine::SymptomState& s, const std::string& k) { return s.id < k; });
    return it != all.end() && it->id == key ? static_cast<int>(it - all.begin()) : -1;
}

int SymptomStateModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(states().size());
}

int SymptomStateModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QColor SymptomStateModel::changeColor(StepChange change)
{
    switch (change) {
    case StepChange::None: return Qt::transparent;
    case StepChange::Added: return QColor(0xc8, 0xe6, 0xc9);
    case StepChange::Demoted: return QColor(0xff, 0xe0, 0xb2);
    case StepChange::Promoted: return QColor(0xbb, 0xde, 0xfb);
    case StepChange::Scrubbed: return QColor(0xe0, 0xe0, 0xe0);
    case StepChange::Updated: return QColor(0xff, 0xf9, 0xc4);
    }
    return Qt::transparent;
}

QVariant SymptomStateModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& s = states()[static_cast<std::size_t>(index.row())];
    const bool untouchedActive = s.untouched && s.status == SymptomStatus::Active;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SymptomColumn: return qs(s.id);
        case NodeColumn: return placeText(s.node, s.gpu);
        case StatusColumn: return qs(engine::toString(s.status));
        case ChangeColumn: return qs(engine::toString(s.change));
        case RuleColumn: return untouchedActive ? QString() : qs(s.rule);
        case ReasonColumn: return untouchedActive ? QString() : qs(s.reason);
        }
        break;
    case Qt::ToolTipRole:
        return plainToolTip(
            qs(s.id + " (" + engine::toString(s.status) + ")" + (s.reason.empty() ? std::string() : ": " + s.reason)));
    case Qt::BackgroundRole: return s.change == StepChange::None ? QVariant() : QVariant(changeColor(s.change));
    case Qt::DecorationRole:
        // Also as a swatch, so the change stays visible on a selected row.
        return index.column() == ChangeColumn && s.change != StepChange::None
            ? QVariant(changeColor(s.change).darker(115))
            : QVariant();
    case Qt::ForegroundRole:
        if (m_stale)
            return QColor(0xa0, 0xa0, 0xa0);
        if (index.column() == SymptomColumn)
            return domainColor(s.domain).darker(130);
        return s.status == SymptomStatus::Active ? QVariant() : QVariant(QColor(0x75, 0x75, 0x75));
    case Qt::FontRole:
        if (s.change != StepChange::None) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case SymptomIdRole: return qs(s.id);
    case StatusRole: return static_cast<int>(s.status);
    case ChangeRole: return static_cast<int>(s.change);
    case SetAtRole: return static_cast<qulonglong>(s.setAt);
    }
    return {};
}

QVariant SymptomStateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SymptomColumn: return tr("Symptom");
    case NodeColumn: return tr("Where");
    case StatusColumn: return tr("Status");
    case ChangeColumn: return tr("Change");
    case RuleColumn: return tr("Set by");
    case ReasonColumn: return tr("Reason");
    }
    return {};
}

}  // namespace attrib::views
