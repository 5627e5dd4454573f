// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/catalog/diagnostics_panel.h"

#include "views/presentation.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace attrib::views {

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new DiagnosticsModel(this))
    , m_caption(new QLabel(this))
    , m_view(new QTableView(this))
{
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_caption);
    layout->addWidget(m_view, 1);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        Q_EMIT openLocation(index.data(DiagnosticsModel::FileRole).toString(),
                            index.data(DiagnosticsModel::LineRole).toInt());
    });
}

void DiagnosticsPanel::showCatalog(const engine::Catalog& catalog)
{
    m_model->setDiagnostics(catalog.diagnostics(), qs(catalog.directory()));
    m_caption->setText(m_model->rowCount() == 0 ? tr("Catalog %1: no problems; %2 inline case(s) pass.")
                                                      .arg(qs(catalog.directory()))
                                                      .arg(catalog.casesPassed())
                                                : tr("Catalog %1: %2 problem(s); %3 inline case(s) pass, %4 fail.")
                                                      .arg(qs(catalog.directory()))
                                                      .arg(m_model->rowCount())
                                                      .arg(catalog.casesPassed())
                                                      .arg(catalog.casesFailed()));
    m_view->resizeColumnsToContents();
}

void DiagnosticsPanel::showRejected(const engine::Catalog& broken, const std::vector<engine::Diagnostic>& fresh)
{
    m_model->setDiagnostics(broken.diagnostics(), qs(broken.directory()), fresh);
    QString first = fresh.empty() ? QString() : qs(fresh.front().str());
    m_caption->setText(tr("The edited catalog has %n new problem(s) and was not used; the last good catalog stays "
                          "active. First: %1",
                          nullptr, static_cast<int>(fresh.size()))
                           .arg(first));
    m_view->resizeColumnsToContents();
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->index(row, 0).data(DiagnosticsModel::NewRole).toBool()) {
            m_view->selectRow(row);
            break;
        }
}

QString DiagnosticsPanel::caption() const
{
    return m_caption->text();
}

}  // namespace attrib::views
