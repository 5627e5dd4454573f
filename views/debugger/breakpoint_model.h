// SPDX-License-Identifier: GPL-3.0-or-later
// Debugger breakpoints: filters on the recorded steps (a rule id, a symptom name or id, a node; globs).
#pragma once

#include "views/debugger/trace_step_model.h"

#include <QAbstractTableModel>

namespace attrib::views {

class BreakpointModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { KindColumn, PatternColumn, HitsColumn, ColumnCount };

    explicit BreakpointModel(QObject* parent = nullptr);

    const std::vector<engine::Breakpoint>& breakpoints() const { return m_breakpoints; }
    /// Adds a breakpoint (ignored when the same one exists); returns its row.
    int addBreakpoint(engine::Breakpoint::Kind kind, const QString& pattern);
    void removeBreakpoint(int row);
    void clear();
    /// Recounts the hits column for a new trace.
    void setReplay(ReplayPtr replay);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// Any add, remove, enable or disable.
    void breakpointsChanged();

private:
    int hitCount(const engine::Breakpoint& bp) const;

    std::vector<engine::Breakpoint> m_breakpoints;
    std::vector<int> m_hits;
    ReplayPtr m_replay;
};

}  // namespace attrib::views
