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

class DeferredRefresh;

class CatalogBrowser : public QWidget {
    Q_OBJECT

public:
    explicit CatalogBrowser(QWidget* parent = nullptr);

    /// The tree of thousands of rules and cases is built when the browser is on screen (or asked for), not when
    /// every analysis hands its catalog over.
    void setCatalog(engine::CatalogPtr catalog);
    CatalogModel* model() const;
    QTreeView* view() const;
    /// Selects and shows a rule by id; false when it is not in the catalog.
    bool showRule(const QString& id);

Q_SIGNALS:
    void openRuleFile(const QString& path, int line);
    void whyNotRequested(const QString& rule);
    void breakpointRequested(const QString& rule);

private:
    void showDetails(const QModelIndex& index);
    void contextMenu(const QPoint& pos);
    void rebuild();

    engine::CatalogPtr m_latest;  ///< the catalog last handed over; the model shows it once rebuilt
    DeferredRefresh* m_refresh;
    CatalogModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTreeView* m_view;
    QPlainTextEdit* m_details;
};

}  // namespace attrib::views
