// SPDX-License-Identifier: GPL-3.0-or-later
// The local verdict beside the Service's: terminal state, sub-domain, root cause, each symptom's status and
// the engine and catalog versions; rows that differ are tinted (versions in a lighter tint: informative).
#pragma once

#include "service/core/verdict_compare.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attrib::app {

class ServiceComparisonView : public QWidget {
    Q_OBJECT

public:
    explicit ServiceComparisonView(QWidget* parent = nullptr);

    /// Shows a comparison; `title` names what was compared ("attribution 17 from http://...").
    void setComparison(const service::VerdictComparison& comparison, const QString& title);
    /// Shows why there is no comparison.
    void setProblem(const QString& text);

    QTableWidget* table() const { return m_table; }
    int differingRows() const { return m_differing; }

private:
    QLabel* m_summary;
    QTableWidget* m_table;
    int m_differing = 0;
};

}  // namespace attrib::app
