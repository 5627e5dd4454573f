// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/coverage_model.h"

#include "views/presentation.h"

#include <map>

namespace attrib::views {

using namespace attrib::engine;

namespace {

CoverageStatus worse(CoverageStatus a, CoverageStatus b)
{
    const auto rank = [](CoverageStatus s) {
        switch (s) {
        case CoverageStatus::Skipped: return 0;
        case CoverageStatus::Ok: return 1;
        case CoverageStatus::Partial: return 2;
        case CoverageStatus::Missing: return 3;
        case CoverageStatus::Errored: return 4;
        }
        return 0;
    };
    return rank(b) > rank(a) ? b : a;
}

void widen(TimeNs& first, TimeNs& last, TimeNs f, TimeNs l)
{
    if (f != NoTime)
        first = first == NoTime ? f : std::min(first, f);
    if (l != NoTime)
        last = last == NoTime ? l : std::max(last, l);
}

}  // namespace

CoverageModel::CoverageModel(QObject* parent)
    : TreeModelBase(parent)
{
    setAnalysis(nullptr);
}

void CoverageModel::setAnalysis(AnalysisPtr analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_tree.clear();
    m_rows.assign(1, Row{});
    m_problems = 0;
    m_fileIndex.clear();
    if (m_analysis) {
        const auto& files = m_analysis->r().files;
        for (std::size_t i = 0; i < files.size(); ++i)
            m_fileIndex.emplace(files[i].path, static_cast<int>(i));
        for (const auto& c : m_analysis->r().coverage) {
            addCollector(c);
            if (c.status == CoverageStatus::Missing || c.status == CoverageStatus::Errored ||
                c.status == CoverageStatus::Partial)
                ++m_problems;
        }
    }
    endResetModel();
}

int CoverageModel::addRow(int parent, Row row)
{
    const int item = m_tree.add(parent);
    m_rows.push_back(std::move(row));
    return item;
}

void CoverageModel::addCollector(const CollectorCoverage& c)
{
    Row row;
    row.name = QString::fromLatin1(toString(c.kind));
    row.files = static_cast<int>(c.files.size());
    row.lines = c.lines;
    row.skipped = c.skipped;
    row.first = c.first;
    row.last = c.last;
    row.status = c.status;
    for (const auto& e : c.errors)
        row.errors << qs(e);
    const int item = addRow(0, row);
    std::map<std::string, std::vector<const FileCoverage*>> byNode;
    for (const auto& f : m_analysis->r().fileCoverage) {
        if (f.kind == c.kind)
            byNode[f.node].push_back(&f);
    }
    for (const auto& [node, files] : byNode)
        addNode(item, node.empty() ? QStringLiteral("(no node)") : qs(node), files);
    if (c.kind != SourceKind::Kernel && c.kind != SourceKind::App)
        return;
    for (const auto& node : m_analysis->r().context.nodes) {
        if (byNode.count(node))
            continue;
        Row missing;
        missing.level = 1;
        missing.name = qs(node);
        missing.status = CoverageStatus::Missing;
        for (const QString& e : std::as_const(row.errors)) {
            if (e.contains(qs(node)))
                missing.errors << e;
        }
        if (missing.errors.isEmpty())
            missing.errors << QStringLiteral("no %1 evidence for this node").arg(row.name);
        addRow(item, missing);
    }
}

void CoverageModel::addNode(int parent, const QString& node, const std::vector<const FileCoverage*>& files)
{
    Row nodeRow;
    nodeRow.level = 1;
    nodeRow.name = node;
    nodeRow.files = static_cast<int>(files.size());
    nodeRow.status = files.empty() ? CoverageStatus::Missing : files.front()->status;
    std::vector<Row> fileRows;
    for (const FileCoverage* f : files) {
        Row file;
        file.level = 2;
        file.name = qs(f->path);
        file.format = qs(f->format);
        file.files = 1;
        file.lines = f->lines;
        file.skipped = f->skipped;
        file.first = f->first;
        file.last = f->last;
        file.status = f->status;
        for (const auto& e : f->errors)
            file.errors << qs(e);
        const auto it = m_fileIndex.find(f->path);
        file.file = it != m_fileIndex.end() ? it->second : -1;
        nodeRow.lines += file.lines;
        nodeRow.skipped += file.skipped;
        widen(nodeRow.first, nodeRow.last, file.first, file.last);
        nodeRow.status = worse(nodeRow.status, file.status);
        nodeRow.errors << file.errors;
        fileRows.push_back(std::move(file));
    }
    const int item = addRow(parent, std::move(nodeRow));
    for (auto& file : fileRows)
        addRow(item, std::move(file));
}

int CoverageModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && parent.column() != 0 ? 0 : ColumnCount;
}

QVariant CoverageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const Names[] = {"Collector / node / file",
                                        "Format",
                                        "Files",
                                        "Lines read",
                                        "Skipped",
                                        "First (UTC)",
                                        "Last (UTC)",
                                        "Status",
                                        "Errors"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(Names[section]) : QVariant();
}

QVariant CoverageModel::display(const Row& row, int column) const
{
    switch (column) {
    case NameColumn: return row.name;
    case FormatColumn: return row.format;
    case FilesColumn: return row.level == 2 ? QVariant() : QVariant(row.files);
    case LinesColumn: return QVariant::fromValue<qulonglong>(row.lines);
    case SkippedColumn: return QVariant::fromValue<qulonglong>(row.skipped);
    case FirstColumn: return formatUtc(row.first);
    case LastColumn: return formatUtc(row.last);
    case StatusColumn: return QString::fromLatin1(toString(row.status));
    case ErrorsColumn:
        if (row.errors.isEmpty())
            return QString();
        return row.errors.size() == 1
            ? sanitizeLine(row.errors.front())
            : QStringLiteral("%1 problems: ").arg(row.errors.size()) + sanitizeLine(row.errors.front());
    }
    return {};
}

QVariant CoverageModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = m_rows[itemOf(index)];
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case Qt::ToolTipRole:
        return row.errors.isEmpty() ? QVariant() : QVariant(plainToolTip(row.errors.join(QLatin1Char('\n'))));
    case Qt::ForegroundRole:
        return index.column() == StatusColumn || index.column() == ErrorsColumn
            ? QVariant(coverageStatusColor(row.status))
            : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= FilesColumn && index.column() <= SkippedColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case FileIndexRole: return row.file;
    case StatusRole: return static_cast<int>(row.status);
    case LevelRole: return row.level;
    case SortRole: return display(row, index.column());
    }
    return {};
}

}  // namespace attrib::views
