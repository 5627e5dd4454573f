// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/bundle_file_model.h"

#include "views/presentation.h"

#include <map>

namespace attrib::views {

using namespace attrib::engine;

BundleFileModel::BundleFileModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void BundleFileModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_coverage.clear();
    if (m_analysis) {
        std::map<std::string, const FileCoverage*> byPath;
        for (const auto& f : m_analysis->r().fileCoverage)
            byPath.emplace(f.path, &f);
        for (const auto& file : m_analysis->r().files) {
            auto it = byPath.find(file.path);
            m_coverage.push_back(it != byPath.end() ? it->second : nullptr);
        }
    }
    endResetModel();
}

int BundleFileModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_analysis ? 0 : static_cast<int>(m_analysis->r().files.size());
}

int BundleFileModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BundleFileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const Names[] = {"File", "Kind", "Node", "Size", "Lines", "Matched"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(Names[section]) : QVariant();
}

QVariant BundleFileModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const BundleFile& file = m_analysis->r().files[row];
    const FileCoverage* cov = m_coverage[row];
    if (role == FileIndexRole)
        return row;
    if (role == Qt::ToolTipRole)
        return plainToolTip(qs(file.path));
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case PathColumn: return qs(file.path);
    case KindColumn: return cov ? QString::fromLatin1(toString(cov->kind)) : QString();
    case NodeColumn: return cov ? qs(cov->node) : QString();
    case SizeColumn:
        return role == SortRole ? QVariant::fromValue<qulonglong>(file.size) : QVariant(formatBytes(file.size));
    case LinesColumn: return cov ? QVariant::fromValue<qulonglong>(cov->lines) : QVariant();
    case MatchedColumn:
        return row < static_cast<int>(m_analysis->fileObservations.size())
            ? QVariant::fromValue<qulonglong>(m_analysis->fileObservations[row].size())
            : QVariant();
    }
    return {};
}

}  // namespace attrib::views
