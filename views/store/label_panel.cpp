// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/label_panel.h"

#include "engine/verdict.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTimer>

namespace attrib::views {

namespace {

constexpr int SaveDelayMs = 400;

void fill(QComboBox* box, const std::vector<std::string>& words)
{
    box->addItem(QStringLiteral("(not stated)"), QString());
    for (const auto& w : words)
        box->addItem(QString::fromStdString(w), QString::fromStdString(w));
}

void select(QComboBox* box, const std::string& value)
{
    const int i = box->findData(QString::fromStdString(value));
    box->setCurrentIndex(i < 0 ? 0 : i);
}

}  // namespace

LabelPanel::LabelPanel(QWidget* parent)
    : QWidget(parent)
    , m_state(new QComboBox(this))
    , m_domain(new QComboBox(this))
    , m_node(new QLineEdit(this))
    , m_notes(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("LabelPanel"));
    fill(m_state, engine::TerminalStates);
    fill(m_domain, engine::SubDomains);
    m_node->setPlaceholderText(tr("node where the failure began"));
    m_notes->setPlaceholderText(tr("What was it really? (saved as you type)"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(SaveDelayMs);
    auto* form = new QFormLayout(this);
    form->addRow(tr("True terminal state"), m_state);
    form->addRow(tr("True sub-domain"), m_domain);
    form->addRow(tr("Node"), m_node);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(m_status);
    connect(m_state, &QComboBox::currentIndexChanged, this, &LabelPanel::edited);
    connect(m_domain, &QComboBox::currentIndexChanged, this, &LabelPanel::edited);
    connect(m_node, &QLineEdit::textEdited, this, &LabelPanel::edited);
    connect(m_notes, &QPlainTextEdit::textChanged, this, &LabelPanel::edited);
    connect(m_debounce, &QTimer::timeout, this, [this] { Q_EMIT labelEdited(m_caseId, currentLabel()); });
    setCase(0, std::nullopt, false);
}

void LabelPanel::setCase(qint64 caseId, const std::optional<store::CaseLabel>& label, bool editable)
{
    flush();
    m_loading = true;
    m_caseId = caseId;
    const store::CaseLabel l = label.value_or(store::CaseLabel{});
    select(m_state, l.terminalState);
    select(m_domain, l.subDomain);
    m_node->setText(QString::fromStdString(l.node));
    m_notes->setPlainText(QString::fromStdString(l.notes));
    for (QWidget* w : {static_cast<QWidget*>(m_state), static_cast<QWidget*>(m_domain), static_cast<QWidget*>(m_node),
                       static_cast<QWidget*>(m_notes)})
        w->setEnabled(caseId > 0 && editable);
    m_status->setText(caseId <= 0     ? tr("No case open.")
                          : !editable ? tr("Case %1 (read-only).").arg(caseId)
                          : label ? tr("Case %1, labeled by %2.").arg(caseId).arg(QString::fromStdString(l.labeledBy))
                                  : tr("Case %1, not labeled yet.").arg(caseId));
    m_loading = false;
}

store::CaseLabel LabelPanel::currentLabel() const
{
    store::CaseLabel l;
    l.terminalState = m_state->currentData().toString().toStdString();
    l.subDomain = m_domain->currentData().toString().toStdString();
    l.node = m_node->text().trimmed().toStdString();
    l.notes = m_notes->toPlainText().toStdString();
    return l;
}

void LabelPanel::setSaveStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828") : QString());
}

void LabelPanel::flush()
{
    if (m_debounce->isActive()) {
        m_debounce->stop();
        Q_EMIT labelEdited(m_caseId, currentLabel());
    }
}

void LabelPanel::edited()
{
    if (!m_loading && m_caseId > 0)
        m_debounce->start();
}

}  // namespace attrib::views
