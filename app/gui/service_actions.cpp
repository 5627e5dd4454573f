// SPDX-License-Identifier: GPL-3.0-or-later
// Settings > Service, File > Open from Service, Analysis > Analyze with Service, and the comparison window.
#include "app/gui/service_actions.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/service_browser.h"
#include "app/gui/service_comparison_view.h"
#include "app/gui/settings.h"
#include "engine/verdict_json.h"
#include "service/core/observation_document.h"
#include "views/analysis_data.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProgressDialog>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace attrib::app {

ServiceActions::ServiceActions(Settings* settings, BundleController* bundles, QWidget* window)
    : QObject(window)
    , m_settings(settings)
    , m_bundles(bundles)
    , m_window(window)
    , m_nam(new QNetworkAccessManager(this))
{
}

namespace {

QMenu* menuTitled(QMenuBar* bar, const QString& title)
{
    for (QAction* a : bar->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    return bar->addMenu(title);
}

}  // namespace

void ServiceActions::install(QMenuBar* bar)
{
    QMenu* file = menuTitled(bar, QStringLiteral("&File"));
    QMenu* analysis = menuTitled(bar, QStringLiteral("&Analysis"));
    QMenu* settingsMenu = new QMenu(QStringLiteral("&Settings"), bar);
    QAction* help = nullptr;
    for (QAction* a : bar->actions())
        if (a->menu() && a->text() == QStringLiteral("&Help"))
            help = a;
    bar->insertMenu(help, settingsMenu);
    file->addAction(QStringLiteral("Open from &Service\u2026"), this, [this] { openFromService(); });
    analysis->addAction(QStringLiteral("Analyze with &Service"), this, &ServiceActions::analyzeWithService);
    settingsMenu->addAction(QStringLiteral("&Service\u2026"), this, &ServiceActions::showSettings);
}

service::ServiceEndpoint ServiceActions::endpoint() const
{
    return {QUrl(m_settings->serviceUrl()), m_settings->serviceToken()};
}

bool ServiceActions::setEndpoint(const QString& url, const QByteArray& token)
{
    return m_settings->setService(url, token);
}

void ServiceActions::showSettings()
{
    auto* dialog = new QDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QStringLiteral("Service"));
    auto* url = new QLineEdit(m_settings->serviceUrl(), dialog);
    auto* token = new QLineEdit(QString::fromUtf8(m_settings->serviceToken()), dialog);
    token->setEchoMode(QLineEdit::Password);
    auto* result = new QLabel(dialog);
    result->setTextFormat(Qt::PlainText);
    result->setWordWrap(true);
    auto* test = new QPushButton(QStringLiteral("Test connection"), dialog);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("URL"), url);
    form->addRow(QStringLiteral("Token"), token);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, dialog);
    buttons->addButton(test, QDialogButtonBox::ActionRole);
    auto* layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(result);
    layout->addWidget(buttons);
    connect(test, &QPushButton::clicked, dialog, [this, url, token, result] {
        const service::ServiceEndpoint e{QUrl(url->text().trimmed()), token->text().trimmed().toUtf8()};
        result->setText(QStringLiteral("Connecting\u2026"));
        QNetworkReply* reply = service::startRequest(*m_nam, e, "GET", QStringLiteral("/v1/catalog"));
        connect(reply, &QNetworkReply::finished, result, [reply, result, e] {
            reply->deleteLater();
            const auto r = service::readReply(reply);
            result->setText(r.ok() ? QStringLiteral("Connected: the Service answers with its catalog.")
                                   : service::problemText(e, r));
        });
    });
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, url, token, result] {
        if (setEndpoint(url->text().trimmed(), token->text().trimmed().toUtf8()))
            dialog->accept();
        else
            result->setText(QStringLiteral("The token could not be saved to %1; nothing was changed.")
                                .arg(m_settings->serviceTokenPath()));
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    dialog->show();
}

ServiceBrowser* ServiceActions::openFromService()
{
    const QString cache =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/service-attributions");
    auto* browser = new ServiceBrowser(endpoint(), cache, m_window);
    browser->setAttribute(Qt::WA_DeleteOnClose);
    connect(browser, &ServiceBrowser::opened, this, &ServiceActions::onOpened);
    connect(browser, &ServiceBrowser::failed, this, &ServiceActions::statusMessage);
    browser->show();
    browser->refresh();
    return browser;
}

void ServiceActions::onOpened(const QString& folder, const QByteArray& serviceVerdict, qint64 id)
{
    // The local engine analyses the same observations as a bundle (rules can be stepped through as usual);
    // the comparison follows when its verdict is shown.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(m_bundles, &BundleController::verdictShown, this, [this, connection, serviceVerdict, id] {
        disconnect(*connection);
        compareWithCurrent(serviceVerdict,
                           QStringLiteral("Attribution %1 from %2: the Service's verdict beside the "
                                          "local catalog's on the same observations")
                               .arg(id)
                               .arg(endpoint().base.toString()));
    });
    if (!m_bundles->open(folder)) {
        disconnect(*connection);
        showProblem(QStringLiteral("The downloaded observations in %1 could not be opened.").arg(folder));
    }
}

void ServiceActions::analyzeWithService()
{
    const auto analysis = m_bundles->analysis();
    if (!analysis || !analysis->hasVerdict())
        return showProblem(QStringLiteral("Open a bundle first: Analyze with Service sends its observations."));
    const auto doc = service::exportObservations(analysis->r());
    m_upload = service::startRequest(*m_nam, endpoint(), "POST", QStringLiteral("/v1/attributions"),
                                     QByteArray::fromStdString(doc.ndjson), "application/x-ndjson");
    m_progress =
        new QProgressDialog(QStringLiteral("Sending %1 observations to the Service\u2026").arg(doc.observations),
                            QStringLiteral("Cancel"), 0, 100, m_window);
    m_progress->setAttribute(Qt::WA_DeleteOnClose);
    m_progress->setMinimumDuration(300);
    connect(m_progress, &QProgressDialog::canceled, m_upload, &QNetworkReply::abort);
    connect(m_upload, &QNetworkReply::uploadProgress, m_progress, [this](qint64 sent, qint64 total) {
        if (m_progress && total > 0)
            m_progress->setValue(static_cast<int>(sent * 99 / total));
    });
    QNetworkReply* reply = m_upload;
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_progress)
            m_progress->close();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return Q_EMIT statusMessage(QStringLiteral("Analyze with Service: cancelled"));
        const auto r = service::readReply(reply);
        if (!r.ok())
            return showProblem(service::problemText(endpoint(), r));
        compareWithCurrent(r.body,
                           QStringLiteral("%1 analysed by %2 beside the local analysis")
                               .arg(m_bundles->currentBundle(), endpoint().base.toString()));
    });
}

void ServiceActions::compareWithCurrent(const QByteArray& serviceVerdict, const QString& title)
{
    const auto analysis = m_bundles->analysis();
    if (!analysis || !analysis->hasVerdict())
        return showProblem(QStringLiteral("The local analysis has no verdict to compare with."));
    try {
        const auto comparison = service::compareVerdicts(engine::dumpJson(engine::verdictToJson(analysis->r())),
                                                         serviceVerdict.toStdString());
        comparisonView()->setComparison(comparison, title);
        comparisonView()->show();
        comparisonView()->raise();
        Q_EMIT compared(comparisonView()->differingRows());
    } catch (const std::exception& e) {
        showProblem(QString::fromStdString(e.what()));
    }
}

ServiceComparisonView* ServiceActions::comparisonView()
{
    if (!m_view) {
        m_view = new ServiceComparisonView(m_window);
        m_view->setWindowFlag(Qt::Window);
        m_view->setWindowTitle(QStringLiteral("Local vs Service verdict"));
        m_view->resize(900, 560);
    }
    return m_view;
}

void ServiceActions::showProblem(const QString& text)
{
    comparisonView()->setProblem(text);
    comparisonView()->show();
    Q_EMIT statusMessage(text);
}

}  // namespace attrib::app
