// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence pane's find bar (Ctrl+F): text or regular expression, case toggle, previous/next, match count,
// and "keep only" / "hide" to turn the search into a filter. Enter finds the next match, Shift+Enter the
// previous one, Esc closes the bar and returns to the lines.
#pragma once

#include "views/evidence/evidence_source.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace attrib::views {

class FindBar : public QWidget {
    Q_OBJECT

public:
    explicit FindBar(QWidget* parent = nullptr);

    LineQuery query() const;
    QLineEdit* field() const { return m_text; }
    QToolButton* regexButton() const { return m_regex; }
    QToolButton* caseButton() const { return m_case; }
    /// Shows the bar with the field focused and its text selected.
    void activate();
    void setStatus(const QString& text, bool problem = false);

Q_SIGNALS:
    void queryChanged(const attrib::views::LineQuery& query);
    void findNext();
    void findPrevious();
    void filterRequested(const attrib::views::LineQuery& query);
    void closed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QToolButton* tool(const QString& text, const QString& tip, bool checkable = false);
    void emitQuery();

    QLineEdit* m_text;
    QToolButton* m_regex;
    QToolButton* m_case;
    QLabel* m_status;
};

}  // namespace attrib::views
