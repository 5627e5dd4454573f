// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/store/fleet_view.h"

#include "views/presentation.h"
#include "views/store/fleet_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "views/timeline/qcp.h"

#include <map>
#include <set>

namespace attrib::views {

namespace {

constexpr double SecondsPerDay = 86400.0;

double dayOf(const store::CaseSummary& c)
{
    const engine::TimeNs t = c.jobStart != engine::NoTime ? c.jobStart : c.createdAt;
    const engine::TimeNs wholeSeconds = t / engine::NsPerSec;
    const double seconds = static_cast<double>(wholeSeconds);
    return std::floor(seconds / SecondsPerDay) * SecondsPerDay;
}

}  // namespace

FleetView::FleetView(QWidget* parent)
    : QWidget(parent)
    , m_model(new FleetModel(this))
    , m_proxy(new FleetFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_chart(new QCustomPlot(this))
    , m_offenders(new QListWidget(this))
{
    setObjectName(QStringLiteral("FleetView"));
    m_proxy->setSourceModel(m_model);
    m_filter->setPlaceholderText(tr("Filter cases (job, state, sub-domain, node, label)…"));
    m_filter->setClearButtonEnabled(true);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FleetModel::IdColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_chart->setMinimumHeight(220);
    m_chart->plotLayout()->insertRow(0);
    m_chart->plotLayout()->addElement(
        0, 0,
        new QCPTextElement(m_chart, tr("Verdicts by sub-domain over time"), QFont(font().family(), 10, QFont::Bold)));
    m_chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    auto* offendersBox = new QWidget(this);
    auto* offendersLayout = new QVBoxLayout(offendersBox);
    offendersLayout->setContentsMargins(0, 0, 0, 0);
    offendersLayout->addWidget(new QLabel(tr("Repeat offenders (root cause in more than one case)"), offendersBox));
    offendersLayout->addWidget(m_offenders);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_chart);
    bottom->addWidget(offendersBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(bottom);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(split);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        Q_EMIT caseActivated(index.data(FleetModel::CaseIdRole).toLongLong());
    });
    connect(m_offenders, &QListWidget::currentRowChanged, this, [this](int row) {
        const auto* item = m_offenders->item(row);
        showNode(item ? item->data(Qt::UserRole).toString() : QString());
    });
}

void FleetView::setCases(std::vector<store::CaseSummary> cases)
{
    m_model->setCases(std::move(cases));
    m_table->resizeColumnsToContents();
    rebuildChart();
    rebuildOffenders();
}

void FleetView::showNode(const QString& node)
{
    m_proxy->setNodeFilter(node);
}

void FleetView::rebuildChart()
{
    m_chart->clearPlottables();
    std::map<std::string, std::map<double, double>> counts;  // sub-domain -> day -> cases
    std::set<double> days;
    for (const auto& c : m_model->cases()) {
        counts[c.subDomain][dayOf(c)] += 1;
        days.insert(dayOf(c));
    }
    QCPBars* below = nullptr;
    for (const auto& [domain, perDay] : counts) {
        auto* bars = new QCPBars(m_chart->xAxis, m_chart->yAxis);
        bars->setName(QString::fromStdString(domain));
        bars->setWidth(SecondsPerDay * 0.8);
        const QColor color = domainColor(domain);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        QVector<double> x, y;
        for (const double day : days) {
            x << day + SecondsPerDay / 2;
            const auto it = perDay.find(day);
            y << (it == perDay.end() ? 0.0 : it->second);
        }
        bars->setData(x, y, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("MMM d"));
    ticker->setDateTimeSpec(Qt::UTC);
    m_chart->xAxis->setTicker(ticker);
    m_chart->xAxis->setLabel(tr("day (job start, UTC)"));
    m_chart->yAxis->setLabel(tr("cases"));
    m_chart->legend->setVisible(!counts.empty());
    m_chart->rescaleAxes(true);
    if (!days.empty())
        m_chart->xAxis->setRange(*days.begin() - SecondsPerDay / 2, *days.rbegin() + SecondsPerDay * 1.5);
    m_chart->yAxis->setRangeLower(0);
    m_chart->yAxis->setRangeUpper(m_chart->yAxis->range().upper + 1);
    m_chart->replot();
}

void FleetView::rebuildOffenders()
{
    m_offenders->clear();
    auto* all = new QListWidgetItem(tr("All cases"), m_offenders);
    all->setData(Qt::UserRole, QString());
    for (const auto& [node, ids] : m_model->repeatOffenders()) {
        QStringList history;
        for (const auto id : ids)
            history << QString::number(id);
        auto* item = new QListWidgetItem(QStringLiteral("%1: %2 cases (%3)")
                                             .arg(QString::fromStdString(node))
                                             .arg(ids.size())
                                             .arg(history.join(QStringLiteral(", "))),
                                         m_offenders);
        item->setData(Qt::UserRole, QString::fromStdString(node));
        item->setBackground(QColor(0xff, 0xe0, 0xb2));
    }
}

}  // namespace attrib::views
