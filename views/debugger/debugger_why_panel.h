// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger's answer tables: "Why didn't this fire?" (evaluations and their condition values) and
// "Which rules looked at this line?". Each show* returns the one-line answer the debugger puts on top.
// Double-click jumps to the step.
#pragma once

#include "views/debugger/rule_look_model.h"
#include "views/debugger/why_not_model.h"

#include <QWidget>

class QStackedWidget;
class QTableView;
class QTreeView;

namespace attrib::views {

class DebuggerWhyPanel : public QWidget {
    Q_OBJECT

public:
    explicit DebuggerWhyPanel(QWidget* parent = nullptr);

    static QString whyStatusText(const engine::WhyStatus& answer);
    QString showWhyNot(engine::WhyNot answer);
    QString showLooks(const QString& line, std::vector<engine::LineLook> looks);
    WhyNotModel* whyNotModel() const { return m_whyNot; }
    RuleLookModel* lookModel() const { return m_looks; }

Q_SIGNALS:
    void stepRequested(int step);
    void ruleRequested(const QString& rule);

private:
    QStackedWidget* m_stack;
    WhyNotModel* m_whyNot;
    RuleLookModel* m_looks;
    QTreeView* m_whyNotView;
    QTableView* m_lookView;
};

}  // namespace attrib::views
