// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/debugger_breakpoints_panel.h"

#include "views/presentation.h"

#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QStringListModel>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace attrib::views {

DebuggerBreakpointsPanel::DebuggerBreakpointsPanel(BreakpointModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_kind(new QComboBox(this))
    , m_pattern(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_completions(new QStringListModel(this))
{
    m_kind->addItem(tr("Rule"), static_cast<int>(engine::Breakpoint::Kind::Rule));
    m_kind->addItem(tr("Symptom"), static_cast<int>(engine::Breakpoint::Kind::Symptom));
    m_kind->addItem(tr("Node"), static_cast<int>(engine::Breakpoint::Kind::Node));
    m_pattern->setPlaceholderText(tr("rule id, symptom name or node (globs: nccl_*)"));
    m_pattern->setClearButtonEnabled(true);
    auto* completer = new QCompleter(m_completions, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    m_pattern->setCompleter(completer);
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(m_kind);
    row->addWidget(m_pattern, 1);
    row->addWidget(add);
    row->addWidget(remove);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(BreakpointModel::PatternColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);
    connect(add, &QPushButton::clicked, this, &DebuggerBreakpointsPanel::addFromInputs);
    connect(m_pattern, &QLineEdit::returnPressed, this, &DebuggerBreakpointsPanel::addFromInputs);
    connect(remove, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            m_model->removeBreakpoint(rows.front().row());
    });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &DebuggerBreakpointsPanel::updateCompletions);
}

void DebuggerBreakpointsPanel::setReplay(const ReplayPtr& replay)
{
    std::set<std::string> rules, symptoms, nodes;
    if (replay) {
        for (std::size_t i = 0; i < replay->stepCount(); ++i) {
            const auto& step = replay->step(i);
            if (!step.rule.empty())
                rules.insert(step.rule);
            if (!step.node.empty())
                nodes.insert(step.node);
        }
        for (const auto& s : replay->result().symptoms)
            symptoms.insert(s.name);
    }
    auto toList = [](const std::set<std::string>& set) {
        QStringList list;
        for (const auto& s : set)
            list << qs(s);
        return list;
    };
    m_rules = toList(rules);
    m_symptoms = toList(symptoms);
    m_nodes = toList(nodes);
    updateCompletions();
}

void DebuggerBreakpointsPanel::updateCompletions()
{
    switch (static_cast<engine::Breakpoint::Kind>(m_kind->currentData().toInt())) {
    case engine::Breakpoint::Kind::Rule: m_completions->setStringList(m_rules); break;
    case engine::Breakpoint::Kind::Symptom: m_completions->setStringList(m_symptoms); break;
    case engine::Breakpoint::Kind::Node: m_completions->setStringList(m_nodes); break;
    }
}

bool DebuggerBreakpointsPanel::addFromInputs()
{
    const QString pattern = m_pattern->text().trimmed();
    if (pattern.isEmpty())
        return false;
    m_model->addBreakpoint(static_cast<engine::Breakpoint::Kind>(m_kind->currentData().toInt()), pattern);
    m_pattern->clear();
    return true;
}

}  // namespace attrib::views
