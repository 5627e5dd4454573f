// SPDX-License-Identifier: GPL-3.0-or-later
// Listing and downloading the Service's attributions, without blocking the GUI thread.
#include "app/gui/service_browser.h"

#include "engine/verdict.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QTableWidget>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace attrib::app {

namespace {

const char* const Columns[] = {"id", "received_at", "workload_id", "terminal_state", "sub_domain", "root_node"};

}  // namespace

ServiceBrowser::ServiceBrowser(service::ServiceEndpoint endpoint, QString cacheDir, QWidget* parent)
    : QDialog(parent)
    , m_endpoint(std::move(endpoint))
    , m_cacheDir(std::move(cacheDir))
    , m_nam(new QNetworkAccessManager(this))
    , m_terminal(new QComboBox(this))
    , m_node(new QLineEdit(this))
    , m_table(new QTableWidget(0, 6, this))
    , m_status(new QLabel(this))
    , m_more(new QPushButton(QStringLiteral("More"), this))
    , m_open(new QPushButton(QStringLiteral("Open"), this))
{
    setWindowTitle(QStringLiteral("Open from Service \u2014 %1").arg(m_endpoint.base.toString()));
    m_terminal->addItem(QStringLiteral("any terminal state"), QString());
    for (const auto& s : engine::TerminalStates)
        m_terminal->addItem(QString::fromStdString(s), QString::fromStdString(s));
    m_node->setPlaceholderText(QStringLiteral("root-cause node"));
    m_table->setHorizontalHeaderLabels({QStringLiteral("Id"), QStringLiteral("Received"), QStringLiteral("Workload"),
                                        QStringLiteral("Terminal state"), QStringLiteral("Sub-domain"),
                                        QStringLiteral("Root node")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    auto* filters = new QHBoxLayout;
    auto* apply = new QPushButton(QStringLiteral("Filter"), this);
    filters->addWidget(m_terminal);
    filters->addWidget(m_node, 1);
    filters->addWidget(apply);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_more, QDialogButtonBox::ActionRole);
    buttons->addButton(m_open, QDialogButtonBox::AcceptRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(apply, &QPushButton::clicked, this, &ServiceBrowser::refresh);
    connect(m_node, &QLineEdit::returnPressed, this, &ServiceBrowser::refresh);
    connect(m_more, &QPushButton::clicked, this, [this] { loadPage(m_nextCursor); });
    connect(m_open, &QPushButton::clicked, this, [this] { openRow(m_table->currentRow()); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { openRow(row); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_more->setEnabled(false);
    resize(820, 480);
}

void ServiceBrowser::refresh()
{
    m_table->setRowCount(0);
    loadPage({});
}

void ServiceBrowser::loadPage(const QString& cursor)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QStringLiteral("50"));
    if (const QString t = m_terminal->currentData().toString(); !t.isEmpty())
        q.addQueryItem(QStringLiteral("terminal_state"), t);
    if (const QString n = m_node->text().trimmed(); !n.isEmpty())
        q.addQueryItem(QStringLiteral("node"), n);
    if (!cursor.isEmpty())
        q.addQueryItem(QStringLiteral("cursor"), cursor);
    setBusy(QStringLiteral("Loading attributions\u2026"));
    QNetworkReply* reply = service::startRequest(*m_nam, m_endpoint, "GET",
                                                 QStringLiteral("/v1/attributions?") + q.toString(QUrl::FullyEncoded));
    connect(reply, &QNetworkReply::finished, this, [this, reply, append = !cursor.isEmpty()] {
        reply->deleteLater();
        showPage(service::readReply(reply), append);
    });
}

void ServiceBrowser::showPage(const service::ClientReply& reply, bool append)
{
    if (!reply.ok())
        return fail(service::problemText(m_endpoint, reply));
    const QJsonObject page = QJsonDocument::fromJson(reply.body).object();
    if (!append)
        m_table->setRowCount(0);
    for (const auto& value : page.value(QStringLiteral("attributions")).toArray()) {
        const QJsonObject a = value.toObject();
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        for (int c = 0; c < 6; ++c) {
            const QJsonValue v = a.value(QLatin1String(Columns[c]));
            m_table->setItem(row, c,
                             new QTableWidgetItem(v.isDouble() ? QString::number(v.toInteger()) : v.toString()));
        }
    }
    m_nextCursor = page.value(QStringLiteral("next_cursor")).toString();
    m_more->setEnabled(!m_nextCursor.isEmpty());
    m_open->setEnabled(m_table->rowCount() > 0);
    m_status->setText(QStringLiteral("%1 attributions shown%2")
                          .arg(m_table->rowCount())
                          .arg(m_nextCursor.isEmpty() ? QString() : QStringLiteral("; more on the Service")));
    if (m_table->currentRow() < 0 && m_table->rowCount() > 0)
        m_table->selectRow(0);
    Q_EMIT pageLoaded(m_table->rowCount());
}

void ServiceBrowser::openRow(int row)
{
    if (row < 0 || row >= m_table->rowCount() || !m_table->item(row, 0))
        return;
    const qint64 id = m_table->item(row, 0)->text().toLongLong();
    setBusy(QStringLiteral("Downloading attribution %1\u2026").arg(id));
    const QString base = QStringLiteral("/v1/attributions/%1").arg(id);
    QNetworkReply* verdict = service::startRequest(*m_nam, m_endpoint, "GET", base);
    connect(verdict, &QNetworkReply::finished, this, [this, verdict, base, id] {
        verdict->deleteLater();
        const auto v = service::readReply(verdict);
        if (!v.ok())
            return fail(service::problemText(m_endpoint, v));
        QNetworkReply* obs = service::startRequest(*m_nam, m_endpoint, "GET", base + QStringLiteral("/observations"));
        connect(obs, &QNetworkReply::finished, this, [this, obs, body = v.body, id] {
            obs->deleteLater();
            const auto o = service::readReply(obs);
            if (!o.ok())
                return fail(service::problemText(m_endpoint, o));
            writeBundle(id, body, o.body);
        });
    });
}

void ServiceBrowser::writeBundle(qint64 id, const QByteArray& verdict, const QByteArray& observations)
{
    if (observations.isEmpty())
        return fail(QStringLiteral("attribution %1 was stored without its observations").arg(id));
    const QString folder = m_cacheDir + QStringLiteral("/attribution-%1").arg(id);
    QDir().mkpath(folder);
    QFile file(folder + QStringLiteral("/observations.jsonl"));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(observations) != observations.size())
        return fail(QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
    file.close();
    m_status->setText(QStringLiteral("Attribution %1 downloaded; analysing it with the local catalog.").arg(id));
    m_open->setEnabled(true);
    Q_EMIT opened(folder, verdict, id);
}

void ServiceBrowser::setBusy(const QString& text)
{
    m_status->setText(text);
    m_open->setEnabled(false);
    m_more->setEnabled(false);
}

void ServiceBrowser::fail(const QString& text)
{
    m_status->setText(text);
    m_open->setEnabled(true);
    Q_EMIT failed(text);
}

}  // namespace attrib::app
