// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench as a Service client against a real Service: File > Open from Service lists the stored
// attributions, opens one (its observations analysed by the local engine) and shows the Service's verdict beside
// the local one; an unreachable Service and a wrong token give clear, non-blocking messages. With
// ATTRIB_SERVICE_SCREENSHOTS=DIR the comparison window (1024x700) and the main window are saved there.
#include "../common/test_catalog.h"
#include "../service/http_client.h"
#include "../service/service_fixture.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/service_actions.h"
#include "app/gui/service_browser.h"
#include "app/gui/service_comparison_view.h"
#include "app/gui/settings.h"

#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestServiceWorkbench : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<service::Service> m_service;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_service->port()); }

private Q_SLOTS:
    void initTestCase()
    {
        service::ServiceConfig config;
        config.token = "gui-token";
        auto store = std::make_shared<service::StorePool>(m_dir.filePath(QStringLiteral("svc.sqlite")).toStdString());
        m_service = tests::startService(config, store);
        QNetworkAccessManager nam;
        const auto posted = tests::httpCall(nam, "POST", base() + QStringLiteral("/v1/attributions"),
                                            QByteArray::fromStdString(tests::sampleDocument().ndjson),
                                            "application/x-ndjson", "gui-token");
        QCOMPARE(posted.status, 200);
        m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
        m_window = std::make_unique<MainWindow>(m_settings.get(), QStringLiteral(ATTRIB_SOURCE_RULES_DIR), false);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void settingsAreKept()
    {
        QVERIFY(m_window->serviceActions()->setEndpoint(base(), "gui-token"));
        QCOMPARE(m_settings->serviceUrl(), base());
        QCOMPARE(m_settings->serviceToken(), QByteArray("gui-token"));
        // The token is in its own owner-only file, never in the settings file.
        m_settings->sync();
        QFile ini(m_settings->fileName());
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains("gui-token"));
        QFile token(m_settings->serviceTokenPath());
        QCOMPARE(token.permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }

    void aTokenLeftInTheSettingsFileMovesOut()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.ini"));
        {
            QSettings old(path, QSettings::IniFormat);
            old.setValue(QStringLiteral("service/version"), 1);
            old.setValue(QStringLiteral("service/url"), QStringLiteral("http://svc:8000"));
            old.setValue(QStringLiteral("service/token"), QStringLiteral("legacy"));
        }
        Settings settings(path);
        QCOMPARE(settings.serviceToken(), QByteArray("legacy"));
        QVERIFY(settings.setService(settings.serviceUrl(), settings.serviceToken()));
        settings.sync();
        QFile ini(path);
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains("legacy"));
        QCOMPARE(settings.serviceToken(), QByteArray("legacy"));
        QVERIFY(settings.setService(settings.serviceUrl(), {}));  // an empty token removes the file
        QVERIFY(!QFile::exists(settings.serviceTokenPath()));
        QVERIFY(settings.serviceToken().isEmpty());
    }

    void openFromServiceComparesVerdicts()
    {
        ServiceActions* actions = m_window->serviceActions();
        QSignalSpy compared(actions, &ServiceActions::compared);
        ServiceBrowser* browser = actions->openFromService();
        QTRY_VERIFY_WITH_TIMEOUT(browser->table()->rowCount() >= 1, 30000);
        QCOMPARE(browser->table()->item(0, 3)->text(), QStringLiteral("hardware_failure"));
        browser->openRow(0);
        QTRY_COMPARE_WITH_TIMEOUT(compared.size(), 1, 120000);
        QCOMPARE(compared.at(0).at(0).toInt(), 0);  // same catalog, same observations: the verdicts agree
        QTableWidget* table = actions->comparisonView()->table();
        QVERIFY(table->rowCount() > 5);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("terminal_state"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("hardware_failure"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("hardware_failure"));
        QVERIFY(m_window->bundleController()->currentBundle().contains(QStringLiteral("attribution-")));
        browser->close();
        const QByteArray shots = qgetenv("ATTRIB_SERVICE_SCREENSHOTS");
        if (!shots.isEmpty()) {
            ServiceComparisonView* view = actions->comparisonView();
            view->resize(1024, 700);
            QTest::qWait(100);
            QVERIFY(view->grab().save(QString::fromUtf8(shots) + QStringLiteral("/service-comparison.png")));
            QVERIFY(m_window->grab().save(QString::fromUtf8(shots) + QStringLiteral("/service-open-full.png")));
        }
    }

    void errorsAreClearAndNonBlocking()
    {
        ServiceActions* actions = m_window->serviceActions();
        actions->setEndpoint(base(), "wrong-token");
        ServiceBrowser* browser = actions->openFromService();
        QSignalSpy failed(browser, &ServiceBrowser::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("401")),
                 qPrintable(failed.at(0).at(0).toString()));
        browser->close();
        actions->setEndpoint(QStringLiteral("http://127.0.0.1:1"), {});
        browser = actions->openFromService();
        QSignalSpy unreachable(browser, &ServiceBrowser::failed);
        QTRY_COMPARE_WITH_TIMEOUT(unreachable.size(), 1, 30000);
        QVERIFY(unreachable.at(0).at(0).toString().contains(QStringLiteral("cannot reach")));
        browser->close();
    }
};

QTEST_MAIN(TestServiceWorkbench)
#include "tst_service_workbench.moc"
