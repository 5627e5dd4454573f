// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/demotion/demotion_view.h"

#include "views/glossary.h"

#include "views/models/symptom_filter_proxy.h"
#include "views/models/symptom_tree_model.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

namespace attrib::views {

DemotionView::DemotionView(SelectionModel* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new SymptomTreeModel(this))
    , m_proxy(new SymptomFilterProxy(this))
    , m_tree(new QTreeView(this))
    , m_showDemoted(new QCheckBox(QStringLiteral("Show demoted"), this))
    , m_showScrubbed(new QCheckBox(QStringLiteral("Show scrubbed"), this))
    , m_filter(new QLineEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_tree->setModel(m_proxy);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(-1, Qt::AscendingOrder);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setIconSize(QSize(10, 10));
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    // Column widths are fitted to the rows on screen and up to 100 more (capped widths below), not to every
    // symptom: thousands of expanded rows of a large bundle took ~60 ms of text measuring per verdict.
    m_tree->header()->setResizeContentsPrecision(100);
    m_showDemoted->setChecked(true);
    m_showScrubbed->setChecked(true);
    m_showDemoted->setToolTip(glossary(Term::Demoted) + QStringLiteral("\n\n") + glossary(Term::Interesting));
    m_showScrubbed->setToolTip(glossary(Term::Scrubbed));
    m_filter->setPlaceholderText(QStringLiteral("Filter symptoms, nodes, rules\u2026"));
    m_filter->setClearButtonEnabled(true);

    auto* tools = new QHBoxLayout;
    tools->addWidget(m_showDemoted);
    tools->addWidget(m_showScrubbed);
    tools->addWidget(m_filter, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(tools);
    layout->addWidget(m_tree, 1);

    connect(m_showDemoted, &QCheckBox::toggled, m_proxy, &SymptomFilterProxy::setShowDemoted);
    connect(m_showScrubbed, &QCheckBox::toggled, m_proxy, &SymptomFilterProxy::setShowScrubbed);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &SymptomFilterProxy::setFilterText);
    const auto regroup = [this] {
        spanGroups();
        m_tree->expandAll();
    };
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, regroup);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, regroup);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, regroup);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &DemotionView::onCurrentChanged);
    connect(m_selection, &SelectionModel::analysisChanged, this, &DemotionView::onAnalysisChanged);
    connect(m_selection, &SelectionModel::selectionChanged, this, &DemotionView::onSelectionChanged);
    onAnalysisChanged(m_selection->analysis());
}

void DemotionView::onAnalysisChanged(const AnalysisPtr& analysis)
{
    m_syncing = true;
    m_model->setAnalysis(analysis);
    spanGroups();
    m_tree->expandAll();
    // Group titles span all columns, so contents-based widths follow the symptoms; capped so that
    // "status set by" stays in view in the default layout.
    static constexpr int MaxWidths[] = {250, 170, 240, 120, 60};
    for (int c = 0; c < SymptomTreeModel::ReasonColumn; ++c) {
        m_tree->resizeColumnToContents(c);
        m_tree->setColumnWidth(c, std::min(m_tree->columnWidth(c), MaxWidths[c]));
    }
    m_syncing = false;
}

void DemotionView::spanGroups()
{
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        m_tree->setFirstColumnSpanned(row, QModelIndex(), true);
}

void DemotionView::onSelectionChanged(const Selection& selection)
{
    if (m_syncing)
        return;
    m_syncing = true;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->indexOfSymptom(selection.symptom));
    if (proxyIndex.isValid()) {
        m_tree->setCurrentIndex(proxyIndex);
        m_tree->scrollTo(proxyIndex);
    } else {
        m_tree->clearSelection();
    }
    m_syncing = false;
}

void DemotionView::onCurrentChanged(const QModelIndex& current)
{
    if (m_syncing || !current.isValid())
        return;
    const int symptom = current.data(SymptomTreeModel::SymptomIndexRole).toInt();
    if (symptom >= 0 && symptom != m_selection->current().symptom)
        m_selection->selectSymptom(symptom);
}

}  // namespace attrib::views
