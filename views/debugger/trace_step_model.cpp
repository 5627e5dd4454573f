// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/trace_step_model.h"

#include "views/presentation.h"

#include <QColor>
#include <QFont>

namespace attrib::views {

TraceStepModel::TraceStepModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TraceStepModel::setReplay(ReplayPtr replay)
{
    beginResetModel();
    m_replay = std::move(replay);
    m_hits.assign(m_replay ? m_replay->stepCount() : 0, false);
    m_current = -1;
    endResetModel();
}

void TraceStepModel::setBreakpoints(const std::vector<engine::Breakpoint>& breakpoints)
{
    if (!m_replay || m_hits.empty())
        return;
    for (std::size_t i = 0; i < m_hits.size(); ++i) {
        bool hit = false;
        for (const auto& bp : breakpoints)
            hit = hit || (bp.enabled && m_replay->hits(i, bp));
        m_hits[i] = hit;
    }
    Q_EMIT dataChanged(index(0, StepColumn), index(rowCount() - 1, StepColumn));
}

void TraceStepModel::setCurrentStep(int step)
{
    const int old = m_current;
    m_current = step;
    for (int row : {old, step})
        if (row >= 0 && row < rowCount())
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), {Qt::FontRole});
}

int TraceStepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_replay ? 0 : static_cast<int>(m_replay->stepCount());
}

int TraceStepModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TraceStepModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_replay)
        return {};
    const auto& step = m_replay->step(static_cast<std::size_t>(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn:
            return QString((m_hits[index.row()] ? QStringLiteral("\u25cf ") : QString()) + QString::number(step.index));
        case PhaseColumn: return qs(toString(step.phase));
        case RuleColumn: return qs(step.rule);
        case SummaryColumn: return qs(step.summary);
        }
        break;
    case Qt::ToolTipRole: return index.column() == SummaryColumn ? plainToolTip(qs(step.summary)) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == StepColumn && m_hits[index.row()])
            return QColor(0xc6, 0x28, 0x28);
        return step.fired ? QVariant() : QVariant(QColor(0x80, 0x80, 0x80));
    case Qt::FontRole:
        if (index.row() == m_current) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return step.fired ? QVariant() : QVariant([] {
            QFont f;
            f.setItalic(true);
            return f;
        }());
    case StepIndexRole: return index.row();
    case FiredRole: return step.fired;
    case BreakpointHitRole: return bool(m_hits[index.row()]);
    case RuleIdRole: return qs(step.rule);
    }
    return {};
}

QVariant TraceStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn: return tr("Step");
    case PhaseColumn: return tr("Phase");
    case RuleColumn: return tr("Rule");
    case SummaryColumn: return tr("Summary");
    }
    return {};
}

}  // namespace attrib::views
