// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/coverage/coverage_view.h"

#include "views/coverage/coverage_summary.h"
#include "views/deferred_refresh.h"
#include "views/models/coverage_model.h"
#include "views/selection_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace attrib::views {

CoverageView::CoverageView(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_model(new CoverageModel(this))
    , m_tree(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_selection(selection)
    , m_refresh(new DeferredRefresh(this, [this] { rebuild(); }))
{
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(CoverageModel::SortRole);
    m_tree->setModel(proxy);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(-1, Qt::AscendingOrder);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const int file = index.data(CoverageModel::FileIndexRole).toInt();
        if (file >= 0)
            Q_EMIT fileActivated(file);
    });
    connect(selection, &SelectionModel::analysisChanged, m_refresh, &DeferredRefresh::invalidate);
    rebuild();
}

CoverageModel* CoverageView::model()
{
    m_refresh->flush();
    return m_model;
}

bool CoverageView::isOutOfDate() const
{
    return m_refresh->isOutOfDate();
}

void CoverageView::rebuild()
{
    const AnalysisPtr analysis = m_selection->analysis();
    m_model->setAnalysis(analysis && analysis->hasVerdict() ? analysis : nullptr);
    m_tree->expandToDepth(0);
    for (int c = 0; c < CoverageModel::ErrorsColumn; ++c)
        m_tree->resizeColumnToContents(c);
    if (!analysis || !analysis->hasVerdict()) {
        m_summary->setText(QStringLiteral("Coverage appears when the analysis has read the bundle."));
        return;
    }
    const CoverageSummary summary = CoverageSummary::build(analysis->r());
    m_summary->setText(summary.text(12) + QStringLiteral("\nDouble-click a file to read it."));
    m_summary->setStyleSheet(summary.level == CoverageSummary::Level::Ok
                                 ? QString()
                                 : QStringLiteral("color: %1; background: %2; font-weight: bold; padding: 4px")
                                       .arg(summary.foreground().name(), summary.background().name()));
}

}  // namespace attrib::views
