// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/symptom_state_model.h"

#include "views/presentation.h"

#include <QFont>

namespace attrib::views {

using engine::StepChange;
using engine::SymptomStatus;

SymptomStateModel::SymptomStateModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SymptomStateModel::setStep(ReplayPtr replay, int step)
{
    beginResetModel();
    m_step = step;
    m_states.clear();
    if (replay && step >= 0)
        m_states = replay->stateAt(static_cast<std::size_t>(step));
    endResetModel();
}

int SymptomStateModel::rowOf(const QString& id) const
{
    const std::string key = id.toStdString();
    for (std::size_t i = 0; i < m_states.size(); ++i)
        if (m_states[i].id == key)
            return static_cast<int>(i);
    return -1;
}

int SymptomStateModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_states.size());
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
    const auto& s = m_states[static_cast<std::size_t>(index.row())];
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
