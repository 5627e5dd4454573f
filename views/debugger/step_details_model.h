// SPDX-License-Identifier: GPL-3.0-or-later
// One trace step in detail: what the rule bound (node, GPU, link, window), the condition values it
// tested, its captures, the events it used and the symptoms it changed. A two-level tree of key/value rows.
#pragma once

#include "views/debugger/trace_step_model.h"

#include <QAbstractItemModel>

#include <optional>

namespace attrib::views {

class StepDetailsModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Columns { KeyColumn, ValueColumn, ColumnCount };
    enum Roles { HoldsRole = Qt::UserRole, SymptomIdRole };

    explicit StepDetailsModel(QObject* parent = nullptr);

    void setStep(const ReplayPtr& replay, int step);
    int step() const { return m_step; }
    /// The value of a row by its key within a section, for tests ("" when absent).
    QString value(const QString& section, const QString& key) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString key;
        QString value;
        std::optional<bool> holds;
        QString symptom;
    };
    struct Section {
        QString title;
        std::vector<Row> rows;
    };

    void build(const engine::TraceReplay& replay, const engine::TraceStep& step);
    void addBinding(const engine::AnalysisResult& result, const engine::TraceStep& step);
    void addEvents(const engine::AnalysisResult& result, const engine::TraceStep& step);

    std::vector<Section> m_sections;
    int m_step = -1;
};

}  // namespace attrib::views
