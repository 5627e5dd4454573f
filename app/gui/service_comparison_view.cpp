// SPDX-License-Identifier: GPL-3.0-or-later
// Local vs Service verdict table.
#include "app/gui/service_comparison_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace attrib::app {

ServiceComparisonView::ServiceComparisonView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, 3, this))
{
    setObjectName(QStringLiteral("serviceComparison"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_table->setHorizontalHeaderLabels(
        {QStringLiteral("Field"), QStringLiteral("Local engine"), QStringLiteral("Service")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table);
}

void ServiceComparisonView::setComparison(const service::VerdictComparison& comparison, const QString& title)
{
    m_table->setRowCount(0);
    m_differing = 0;
    const QColor verdictTint(255, 214, 153);  // differences a reader of the verdict would notice
    const QColor versionTint(230, 230, 250);  // version differences: informative
    for (const auto& row : comparison.rows) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        const QString cells[] = {QString::fromStdString(row.field),
                                 row.local.empty() ? QStringLiteral("\u2014") : QString::fromStdString(row.local),
                                 row.remote.empty() ? QStringLiteral("\u2014") : QString::fromStdString(row.remote)};
        for (int c = 0; c < 3; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            if (row.differs)
                item->setBackground(row.versionOnly ? versionTint : verdictTint);
            m_table->setItem(r, c, item);
        }
        if (row.differs && !row.versionOnly)
            ++m_differing;
    }
    m_table->resizeRowsToContents();
    m_summary->setText(title + QStringLiteral("\n") +
                       (m_differing == 0 ? QStringLiteral("The verdicts agree.")
                                         : QStringLiteral("%1 verdict field(s) differ (tinted).").arg(m_differing)));
}

void ServiceComparisonView::setProblem(const QString& text)
{
    m_table->setRowCount(0);
    m_differing = 0;
    m_summary->setText(text);
}

}  // namespace attrib::app
