// SPDX-License-Identifier: GPL-3.0-or-later
// The "Rule problems" dock: load errors of the catalog (or of a rejected edit) with file and line;
// double-click opens the file at the line.
#pragma once

#include "views/catalog/diagnostics_model.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace attrib::views {

class DiagnosticsPanel : public QWidget {
    Q_OBJECT

public:
    explicit DiagnosticsPanel(QWidget* parent = nullptr);

    /// The active catalog's problems.
    void showCatalog(const engine::Catalog& catalog);
    /// A rejected edit: the broken catalog's problems, the new ones marked.
    void showRejected(const engine::Catalog& broken, const std::vector<engine::Diagnostic>& fresh);

    DiagnosticsModel* model() const { return m_model; }
    QString caption() const;

Q_SIGNALS:
    void openLocation(const QString& path, int line);

private:
    DiagnosticsModel* m_model;
    QLabel* m_caption;
    QTableView* m_view;
};

}  // namespace attrib::views
