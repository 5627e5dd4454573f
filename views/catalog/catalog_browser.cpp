// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/catalog/catalog_browser.h"

#include "views/deferred_refresh.h"
#include "views/presentation.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace attrib::views {

CatalogBrowser::CatalogBrowser(QWidget* parent)
    : QWidget(parent)
    , m_refresh(new DeferredRefresh(this, [this] { rebuild(); }))
    , m_model(new CatalogModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_details(new QPlainTextEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_filter->setPlaceholderText(tr("Filter rules, cases, files\u2026"));
    m_filter->setClearButtonEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setColumnWidth(CatalogModel::NameColumn, 260);
    m_view->setColumnWidth(CatalogModel::CasesColumn, 120);
    m_view->setColumnWidth(CatalogModel::SourceColumn, 200);
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select a rule or case."));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_filter);
    layout->addWidget(split, 1);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        if (!text.isEmpty())
            m_view->expandAll();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CatalogBrowser::showDetails);
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const QString file = index.data(CatalogModel::FileRole).toString();
        if (!file.isEmpty())
            Q_EMIT openRuleFile(file, index.data(CatalogModel::LineRole).toInt());
    });
    connect(m_view, &QWidget::customContextMenuRequested, this, &CatalogBrowser::contextMenu);
}

void CatalogBrowser::setCatalog(engine::CatalogPtr catalog)
{
    if (catalog && catalog == m_latest)
        return;  // every analysis hands its catalog over; the same one needs no rebuilt tree (thousands of cases)
    m_latest = std::move(catalog);
    m_refresh->invalidate();
}

CatalogModel* CatalogBrowser::model() const
{
    m_refresh->flush();
    return m_model;
}

QTreeView* CatalogBrowser::view() const
{
    m_refresh->flush();
    return m_view;
}

void CatalogBrowser::rebuild()
{
    if (m_latest && m_latest == m_model->catalog())
        return;
    m_model->setCatalog(m_latest);
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex group = m_proxy->index(row, 0);
        m_view->setExpanded(group, group.data(CatalogModel::FailedRole).toBool() || row > 0);
    }
}

bool CatalogBrowser::showRule(const QString& id)
{
    m_refresh->flush();
    const QModelIndex source = m_model->findRule(id);
    if (!source.isValid())
        return false;
    m_filter->clear();
    const QModelIndex index = m_proxy->mapFromSource(source);
    m_view->expand(index.parent());
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    return true;
}

void CatalogBrowser::showDetails(const QModelIndex& index)
{
    if (!index.isValid()) {
        m_details->clear();
        return;
    }
    auto column = [&](int c) { return index.siblingAtColumn(c).data().toString(); };
    QString text = column(CatalogModel::NameColumn) + QLatin1Char('\n');
    if (!column(CatalogModel::SourceColumn).isEmpty())
        text += tr("source: %1\n").arg(column(CatalogModel::SourceColumn));
    if (!column(CatalogModel::CasesColumn).isEmpty())
        text += tr("cases: %1\n").arg(column(CatalogModel::CasesColumn));
    text += QLatin1Char('\n') + column(CatalogModel::DescriptionColumn);
    m_details->setPlainText(text);
}

void CatalogBrowser::contextMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    const QString rule = index.data(CatalogModel::RuleIdRole).toString();
    const QString file = index.data(CatalogModel::FileRole).toString();
    const int line = index.data(CatalogModel::LineRole).toInt();
    QMenu menu;
    if (!file.isEmpty())
        menu.addAction(tr("Open in editor"), this, [this, file, line] { Q_EMIT openRuleFile(file, line); });
    if (!rule.isEmpty()) {
        menu.addAction(tr("Why didn't %1 fire?").arg(rule), this, [this, rule] { Q_EMIT whyNotRequested(rule); });
        menu.addAction(tr("Break on rule %1").arg(rule), this, [this, rule] { Q_EMIT breakpointRequested(rule); });
    }
    if (!menu.isEmpty())
        menu.exec(m_view->viewport()->mapToGlobal(pos));
}

}  // namespace attrib::views
