// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/evidence/find_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace attrib::views {

FindBar::FindBar(QWidget* parent)
    : QWidget(parent)
    , m_text(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    m_text->setObjectName(QStringLiteral("findField"));
    m_text->setPlaceholderText(QStringLiteral("Find in lines\u2026"));
    m_text->setClearButtonEnabled(true);
    m_text->setToolTip(QStringLiteral("Enter or F3: next match \u00b7 Shift+Enter or Shift+F3: previous \u00b7 "
                                      "Esc: back to the lines"));
    m_text->installEventFilter(this);
    m_text->setProperty("handlesEscape", true);  // the window's "Esc leaves a field" lets this field close the bar
    m_regex = tool(QStringLiteral(".*"), QStringLiteral("Regular expression (Perl syntax)"), true);
    m_case = tool(QStringLiteral("Aa"), QStringLiteral("Match case"), true);
    QToolButton* prev = tool(QStringLiteral("\u25b2"), QStringLiteral("Previous match (Shift+F3)"));
    QToolButton* next = tool(QStringLiteral("\u25bc"), QStringLiteral("Next match (F3)"));
    QToolButton* keepButton =
        tool(QStringLiteral("Keep only"), QStringLiteral("Filter in: show only the lines that match"));
    QToolButton* hideButton = tool(QStringLiteral("Hide"), QStringLiteral("Filter out: hide the lines that match"));
    QToolButton* closeButton = tool(QStringLiteral("\u2715"), QStringLiteral("Close the find bar (Esc)"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setMinimumWidth(90);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    row->addWidget(m_text, 1);
    for (QToolButton* b : {m_regex, m_case, prev, next, keepButton, hideButton})
        row->addWidget(b);
    row->addWidget(m_status);
    row->addWidget(closeButton);
    connect(m_text, &QLineEdit::textChanged, this, &FindBar::emitQuery);
    connect(m_regex, &QToolButton::toggled, this, &FindBar::emitQuery);
    connect(m_case, &QToolButton::toggled, this, &FindBar::emitQuery);
    connect(prev, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(keepButton, &QToolButton::clicked, this, [this] { Q_EMIT filterRequested(query()); });
    connect(hideButton, &QToolButton::clicked, this, [this] {
        LineQuery q = query();
        q.invert = true;
        Q_EMIT filterRequested(q);
    });
    connect(closeButton, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });
}

QToolButton* FindBar::tool(const QString& text, const QString& tip, bool checkable)
{
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    b->setCheckable(checkable);
    b->setAutoRaise(true);
    return b;
}

LineQuery FindBar::query() const
{
    return {m_text->text(), m_regex->isChecked(), m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive, false};
}

void FindBar::activate()
{
    show();
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
}

void FindBar::setStatus(const QString& text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #b3261e") : QStringLiteral("color: #5f6368"));
}

void FindBar::emitQuery()
{
    const LineQuery q = query();
    const LineMatcher matcher(q);
    if (!matcher.isValid())
        setStatus(QStringLiteral("bad expression: ") + matcher.error(), true);
    Q_EMIT queryChanged(q);
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_text && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();  // Esc leaves the field; it never reaches the window's Cancel
        return true;
    }
    if (watched == m_text && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & Qt::ShiftModifier)
                Q_EMIT findPrevious();
            else
                Q_EMIT findNext();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            Q_EMIT closed();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attrib::views
