// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/coverage/coverage_view.h"

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
    connect(selection, &SelectionModel::analysisChanged, this, &CoverageView::onAnalysisChanged);
    onAnalysisChanged(selection->analysis());
}

void CoverageView::onAnalysisChanged(const AnalysisPtr& analysis)
{
    m_model->setAnalysis(analysis && analysis->hasVerdict() ? analysis : nullptr);
    m_tree->expandToDepth(0);
    for (int c = 0; c < CoverageModel::ErrorsColumn; ++c)
        m_tree->resizeColumnToContents(c);
    if (!analysis || !analysis->hasVerdict()) {
        m_summary->setText(QStringLiteral("Coverage appears when the analysis has read the bundle."));
        return;
    }
    const int problems = m_model->problemCount();
    m_summary->setText(problems == 0
                           ? QStringLiteral("Every collector read its files without problems. Double-click a file "
                                            "to read it.")
                           : QStringLiteral("%1 collector(s) with missing, partial or errored evidence: see Status "
                                            "and Errors. Double-click a file to read it.")
                                 .arg(problems));
    m_summary->setStyleSheet(problems == 0 ? QString() : QStringLiteral("color: #b26a00; font-weight: bold"));
}

}  // namespace attrib::views
