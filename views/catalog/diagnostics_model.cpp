// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/catalog/diagnostics_model.h"

#include "views/presentation.h"

#include <QColor>
#include <QDir>
#include <QFont>

namespace attrib::views {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setDiagnostics(std::vector<engine::Diagnostic> diagnostics, const QString& rulesDir,
                                      const std::vector<engine::Diagnostic>& fresh)
{
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    m_dir = rulesDir;
    m_new.assign(m_diagnostics.size(), false);
    for (std::size_t i = 0; i < m_diagnostics.size(); ++i)
        for (const auto& f : fresh)
            m_new[i] = m_new[i] ||
                (f.where.file == m_diagnostics[i].where.file && f.rule == m_diagnostics[i].rule &&
                 f.message == m_diagnostics[i].message);
    endResetModel();
}

int DiagnosticsModel::errorCount() const
{
    int n = 0;
    for (const auto& d : m_diagnostics)
        n += d.severity == engine::Diagnostic::Severity::Error;
    return n;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& d = m_diagnostics[static_cast<std::size_t>(index.row())];
    const bool isNew = m_new[static_cast<std::size_t>(index.row())];
    const bool error = d.severity == engine::Diagnostic::Severity::Error;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn: return QString((error ? tr("error") : tr("warning")) + (isNew ? tr(" (new)") : QString()));
        case LocationColumn: return qs(d.where.str());
        case RuleColumn: return qs(d.rule);
        case MessageColumn: return qs(d.message);
        }
        break;
    case Qt::ToolTipRole: return plainToolTip(qs(d.str()));
    case Qt::ForegroundRole:
        if (index.column() == SeverityColumn)
            return error ? QColor(0xc6, 0x28, 0x28) : QColor(0xef, 0x6c, 0x00);
        return {};
    case Qt::BackgroundRole: return isNew ? QVariant(QColor(0xff, 0xeb, 0xee)) : QVariant();
    case Qt::FontRole:
        if (isNew) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case FileRole: return QDir(m_dir).filePath(qs(d.where.file));
    case LineRole: return d.where.line;
    case NewRole: return isNew;
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case LocationColumn: return tr("File:line");
    case RuleColumn: return tr("Rule");
    case MessageColumn: return tr("Problem");
    }
    return {};
}

}  // namespace attrib::views
