// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/rule_look_model.h"

#include "views/presentation.h"

#include <QColor>

namespace attrib::views {

RuleLookModel::RuleLookModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RuleLookModel::setLooks(std::vector<engine::LineLook> looks)
{
    beginResetModel();
    m_looks = std::move(looks);
    endResetModel();
}

int RuleLookModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_looks.size());
}

int RuleLookModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString detail(const engine::LineLook& look)
{
    QString text = qs(look.summary);
    QStringList captures;
    for (const auto& [k, v] : look.captures)
        captures << qs(k) + QLatin1Char('=') + qs(v);
    if (!captures.isEmpty())
        text += QStringLiteral(" {") + captures.join(QStringLiteral(", ")) + QLatin1Char('}');
    return text;
}

}  // namespace

QVariant RuleLookModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& look = m_looks[static_cast<std::size_t>(index.row())];
    const bool extractor = look.phase == engine::TracePhase::Extract;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RuleColumn: return qs(look.rule);
        case PhaseColumn: return qs(toString(look.phase));
        case ResultColumn:
            return extractor ? (look.matched ? tr("matched") : tr("no match"))
                             : (look.matched ? tr("fired") : tr("did not fire"));
        case StepColumn: return look.step ? QVariant(static_cast<qulonglong>(*look.step)) : QVariant();
        case DetailColumn: return detail(look);
        }
        break;
    case Qt::ToolTipRole: return plainToolTip(detail(look));
    case Qt::ForegroundRole: return look.matched ? QVariant() : QVariant(QColor(0x80, 0x80, 0x80));
    case StepRole: return look.step ? QVariant(static_cast<qulonglong>(*look.step)) : QVariant();
    case RuleIdRole: return qs(look.rule);
    }
    return {};
}

QVariant RuleLookModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RuleColumn: return tr("Rule");
    case PhaseColumn: return tr("Phase");
    case ResultColumn: return tr("Result");
    case StepColumn: return tr("Step");
    case DetailColumn: return tr("Detail");
    }
    return {};
}

}  // namespace attrib::views
