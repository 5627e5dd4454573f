// SPDX-License-Identifier: GPL-3.0-or-later
// The bundle's files as a flat table: path, kind, node, size, lines, matched lines. Filled as soon as the
// bundle is indexed (before the analysis finishes) and refined when coverage is known.
#pragma once

#include "views/analysis_data.h"

#include <QAbstractTableModel>

namespace attrib::views {

class BundleFileModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { PathColumn, KindColumn, NodeColumn, SizeColumn, LinesColumn, MatchedColumn, ColumnCount };
    enum Roles { FileIndexRole = Qt::UserRole, SortRole };

    explicit BundleFileModel(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    AnalysisPtr m_analysis;
    std::vector<const engine::FileCoverage*> m_coverage;  ///< per file, null when not read (yet)
};

}  // namespace attrib::views
