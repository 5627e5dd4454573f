// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet view: all stored cases in a filterable, sortable table; a chart of verdicts by sub-domain over
// time (QCustomPlot, stacked bars per day); repeat-offender nodes with their history (click: their cases).
#pragma once

#include "engine/store/case_store.h"

#include <QWidget>

class QCustomPlot;
class QLineEdit;
class QListWidget;
class QTableView;

namespace attrib::views {

class FleetFilterProxy;
class FleetModel;

class FleetView : public QWidget {
    Q_OBJECT

public:
    explicit FleetView(QWidget* parent = nullptr);

    void setCases(std::vector<store::CaseSummary> cases);

    FleetModel* model() const { return m_model; }
    FleetFilterProxy* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QCustomPlot* chart() const { return m_chart; }
    QListWidget* offenders() const { return m_offenders; }
    QLineEdit* filterEdit() const { return m_filter; }

    /// Shows only the cases whose root cause is on `node` ("" = all).
    void showNode(const QString& node);

Q_SIGNALS:
    /// A case was double-clicked (or Enter pressed on it).
    void caseActivated(qint64 caseId);

private:
    void rebuildChart();
    void rebuildOffenders();

    FleetModel* m_model;
    FleetFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_table;
    QCustomPlot* m_chart;
    QListWidget* m_offenders;
};

}  // namespace attrib::views
