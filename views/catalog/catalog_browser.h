// SPDX-License-Identifier: GPL-3.0-or-later
// The catalog browser: rules grouped by phase with description, source and inline-case results;
// filter box; double-click opens the rule's file at its line; context menu asks why a rule did not fire.
#pragma once

#include "views/catalog/catalog_model.h"

#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace attrib::views {

class CatalogBrowser : public QWidget {
    Q_OBJECT

public:
    explicit CatalogBrowser(QWidget* parent = nullptr);

    void setCatalog(engine::CatalogPtr catalog);
    CatalogModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    /// Selects and shows a rule by id; false when it is not in the catalog.
    bool showRule(const QString& id);

Q_SIGNALS:
    void openRuleFile(const QString& path, int line);
    void whyNotRequested(const QString& rule);
    void breakpointRequested(const QString& rule);

private:
    void showDetails(const QModelIndex& index);
    void contextMenu(const QPoint& pos);

    CatalogModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTreeView* m_view;
    QPlainTextEdit* m_details;
};

}  // namespace attrib::views
