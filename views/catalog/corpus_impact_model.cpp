// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/catalog/corpus_impact_model.h"

#include "views/presentation.h"

#include <QColor>

namespace attrib::views {

CorpusImpactModel::CorpusImpactModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CorpusImpactModel::setImpact(engine::CorpusImpact impact)
{
    beginResetModel();
    m_impact = std::move(impact);
    endResetModel();
}

int CorpusImpactModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_impact.bundles.size());
}

int CorpusImpactModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString changes(const engine::BundleImpact& b)
{
    QStringList lines;
    if (!b.error.empty())
        lines << qs(b.error);
    for (const auto& s : b.diff.symptoms)
        lines << qs(s.id + ": " + s.describe());
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

QVariant CorpusImpactModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& b = m_impact.bundles[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case BundleColumn: return qs(b.name);
        case ResultColumn: return b.changed() ? tr("CHANGED") : tr("same");
        case BaselineColumn: return qs(b.baseline);
        case NewColumn: return qs(b.candidate);
        case ChangesColumn: return changes(b);
        }
        break;
    case Qt::ToolTipRole: return plainToolTip(changes(b));
    case Qt::ForegroundRole:
        if (index.column() == ResultColumn)
            return b.changed() ? QColor(0xc6, 0x28, 0x28) : QColor(0x2e, 0x7d, 0x32);
        return {};
    case Qt::BackgroundRole:
        return index.column() == NewColumn && (b.diff.terminalChanged() || b.diff.rootCauseChanged())
            ? QVariant(QColor(0xff, 0xf3, 0xe0))
            : QVariant();
    case ChangedRole: return b.changed();
    case BundlePathRole: return qs(b.bundle);
    }
    return {};
}

QVariant CorpusImpactModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BundleColumn: return tr("Bundle");
    case ResultColumn: return tr("Verdict");
    case BaselineColumn: return tr("Baseline catalog");
    case NewColumn: return tr("New catalog");
    case ChangesColumn: return tr("Symptoms whose status changed");
    }
    return {};
}

}  // namespace attrib::views
