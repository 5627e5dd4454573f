// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/debugger_why_panel.h"

#include "views/presentation.h"

#include <QHeaderView>
#include <QStackedWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace attrib::views {

DebuggerWhyPanel::DebuggerWhyPanel(QWidget* parent)
    : QWidget(parent)
    , m_stack(new QStackedWidget(this))
    , m_whyNot(new WhyNotModel(this))
    , m_looks(new RuleLookModel(this))
    , m_whyNotView(new QTreeView(this))
    , m_lookView(new QTableView(this))
{
    m_whyNotView->setModel(m_whyNot);
    m_whyNotView->setUniformRowHeights(true);
    m_whyNotView->header()->setStretchLastSection(true);
    m_whyNotView->setColumnWidth(WhyNotModel::WhatColumn, 320);
    m_lookView->setModel(m_looks);
    m_lookView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_lookView->verticalHeader()->hide();
    m_lookView->horizontalHeader()->setStretchLastSection(true);
    m_stack->addWidget(m_whyNotView);
    m_stack->addWidget(m_lookView);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_stack, 1);
    connect(m_whyNotView, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const QVariant step = index.data(WhyNotModel::StepRole);
        if (step.isValid())
            Q_EMIT stepRequested(step.toInt());
    });
    connect(m_lookView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QVariant step = index.data(RuleLookModel::StepRole);
        if (step.isValid())
            Q_EMIT stepRequested(step.toInt());
        else
            Q_EMIT ruleRequested(index.data(RuleLookModel::RuleIdRole).toString());
    });
}

QString DebuggerWhyPanel::whyStatusText(const engine::WhyStatus& answer)
{
    return tr("Why %1?  %2").arg(qs(answer.symptom), qs(answer.sentence));
}

QString DebuggerWhyPanel::showWhyNot(engine::WhyNot answer)
{
    QString text = tr("Why didn't %1 fire?  %2").arg(qs(answer.rule), qs(answer.summary));
    m_whyNot->setAnswer(std::move(answer));
    m_whyNotView->expandAll();
    m_stack->setCurrentWidget(m_whyNotView);
    return text;
}

QString DebuggerWhyPanel::showLooks(const QString& line, std::vector<engine::LineLook> looks)
{
    int matched = 0;
    for (const auto& l : looks)
        matched += l.phase == engine::TracePhase::Extract && l.matched;
    QString text = tr("Rules that looked at: %1  (%n extractor(s) matched)", nullptr, matched).arg(sanitizeLine(line));
    m_looks->setLooks(std::move(looks));
    m_lookView->resizeColumnsToContents();
    m_stack->setCurrentWidget(m_lookView);
    return text;
}

}  // namespace attrib::views
