// SPDX-License-Identifier: GPL-3.0-or-later
// Coverage of the evidence: collector -> node -> file, with files, lines read/skipped, time span,
// status and errors. Nodes of the job that a collector did not cover appear as "missing" rows.
#pragma once

#include "views/analysis_data.h"
#include "views/models/tree_structure.h"

#include <map>

namespace attrib::views {

class CoverageModel : public TreeModelBase {
    Q_OBJECT

public:
    enum Columns {
        NameColumn,
        FormatColumn,
        FilesColumn,
        LinesColumn,
        SkippedColumn,
        FirstColumn,
        LastColumn,
        StatusColumn,
        ErrorsColumn,
        ColumnCount
    };
    enum Roles {
        FileIndexRole = Qt::UserRole,  ///< bundle file index for file rows, -1 otherwise
        StatusRole,                    ///< int (engine::CoverageStatus)
        LevelRole,                     ///< 0 collector, 1 node, 2 file
        SortRole,
    };

    explicit CoverageModel(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);
    /// Number of collectors whose status is missing, errored or partial.
    int problemCount() const { return m_problems; }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// One row's values, whatever its level.
    struct Row {
        int level = 0;
        QString name;
        QString format;
        int files = 0;
        std::uint64_t lines = 0;
        std::uint64_t skipped = 0;
        engine::TimeNs first = engine::NoTime;
        engine::TimeNs last = engine::NoTime;
        engine::CoverageStatus status = engine::CoverageStatus::Ok;
        QStringList errors;
        int file = -1;
    };
    void addCollector(const engine::CollectorCoverage& collector);
    void addNode(int parent, const QString& node, const std::vector<const engine::FileCoverage*>& files);
    int addRow(int parent, Row row);
    QVariant display(const Row& row, int column) const;

    AnalysisPtr m_analysis;
    std::vector<Row> m_rows;                 ///< per item (item 0 is the root)
    std::map<std::string, int> m_fileIndex;  ///< bundle path -> file index
    int m_problems = 0;
};

}  // namespace attrib::views
