// SPDX-License-Identifier: GPL-3.0-or-later
// "Rule problems": catalog load errors and warnings with file and line. Problems that a rejected edit
// introduced are marked as new.
#pragma once

#include "engine/catalog.h"

#include <QAbstractTableModel>

namespace attrib::views {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Columns { SeverityColumn, LocationColumn, RuleColumn, MessageColumn, ColumnCount };
    enum Roles { FileRole = Qt::UserRole, LineRole, NewRole };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    /// `rulesDir` resolves the relative file names; `fresh` are the problems to mark as new.
    void setDiagnostics(std::vector<engine::Diagnostic> diagnostics, const QString& rulesDir,
                        const std::vector<engine::Diagnostic>& fresh = {});
    const std::vector<engine::Diagnostic>& diagnostics() const { return m_diagnostics; }
    int errorCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<engine::Diagnostic> m_diagnostics;
    std::vector<bool> m_new;
    QString m_dir;
};

}  // namespace attrib::views
