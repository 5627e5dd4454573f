// SPDX-License-Identifier: GPL-3.0-or-later
// Scale-out: a throwaway PostgreSQL (initdb into a temporary folder, pg_ctl on a free port, Unix socket only),
// two `attrib serve` replicas sharing it (both migrate at once: the advisory lock makes that safe), posts
// through both and lists through each. Skipped only when PostgreSQL is not installed.
#include "tests/service/http_client.h"
#include "tests/service/service_fixture.h"
#include "tests/service/throwaway_postgres.h"

#include "engine/store/case_result.h"
#include "engine/store_pg/pg_case_store.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <unistd.h>

using namespace attrib;
using namespace attrib::tests;

class TestServicePostgres : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ThrowawayPostgres m_pg;
    QString m_conninfo;

    void launch(QProcess& p, const QString& name)
    {
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(ATTRIB_CLI,
                {"serve", "--listen", "127.0.0.1:0", "--port-file", m_dir.path() + "/port-" + name, "--rules",
                 ATTRIB_SOURCE_RULES_DIR, "--store", m_conninfo, "--workers", "2"});
    }

    quint16 waitForPort(QProcess& p, const QString& name)
    {
        const QString portFile = m_dir.path() + "/port-" + name;
        for (int i = 0; i < 2400 && p.state() != QProcess::NotRunning; ++i) {
            QFile f(portFile);
            if (f.open(QIODevice::ReadOnly) && f.size() > 0)
                return static_cast<quint16>(f.readAll().trimmed().toUInt());
            QTest::qWait(50);
        }
        return 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (ThrowawayPostgres::binDir().isEmpty())
            QSKIP("PostgreSQL is not installed (scripts/install-deps installs the postgresql package)");
        QVERIFY(m_dir.isValid());
        const QString problem = m_pg.start();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_conninfo = m_pg.conninfo();
    }

    void cleanupTestCase() { m_pg.stop(); }

    void twoReplicasShareOneStore()
    {
        QProcess a, b;
        launch(a, "a");  // both start together: the schema is created once, under the advisory lock
        launch(b, "b");
        const quint16 portA = waitForPort(a, "a");
        const quint16 portB = waitForPort(b, "b");
        QVERIFY(portA && portB);
        QNetworkAccessManager nam;
        const auto base = [](quint16 port) { return QStringLiteral("http://127.0.0.1:%1").arg(port); };
        const auto doc = sampleDocument();
        const auto postA = httpCall(nam, "POST", base(portA) + "/v1/attributions",
                                    QByteArray::fromStdString(doc.ndjson), "application/x-ndjson");
        QCOMPARE(postA.status, 200);
        const auto postB =
            httpCall(nam, "POST", base(portB) + "/v1/attributions", tinyDocument(), "application/x-ndjson");
        QCOMPARE(postB.status, 200);
        const QByteArray idA = postA.header("X-Attribution-Id");
        const QByteArray idB = postB.header("X-Attribution-Id");
        QVERIFY(!idA.isEmpty() && !idB.isEmpty() && idA != idB);
        for (quint16 port : {portA, portB}) {
            const auto list = httpCall(nam, "GET", base(port) + "/v1/attributions");
            QCOMPARE(list.status, 200);
            const auto j = nlohmann::json::parse(list.body);
            QCOMPARE(j["attributions"].size(), std::size_t(2));
            QCOMPARE(QByteArray::number(j["attributions"][0]["id"].get<long long>()), idB);  // newest first
            QCOMPARE(QByteArray::number(j["attributions"][1]["id"].get<long long>()), idA);
        }
        const auto fetched = httpCall(nam, "GET", base(portB) + "/v1/attributions/" + QString::fromLatin1(idA));
        QCOMPARE(fetched.body, postA.body);
        const auto obs =
            httpCall(nam, "GET", base(portB) + "/v1/attributions/" + QString::fromLatin1(idA) + "/observations");
        QCOMPARE(obs.body, doc.ndjson);
        for (QProcess* p : {&a, &b}) {
            ::kill(static_cast<pid_t>(p->processId()), SIGTERM);
            QVERIFY(p->waitForFinished(30000));
            QCOMPARE(p->exitCode(), 0);
        }
        // The stored case keeps the analysis' events: reopened, it has every event, not one per symptom.
        auto store = store::PgCaseStore::open(m_conninfo.toStdString());
        const auto record = store->getCase(idA.toLongLong());
        QVERIFY(record && !record->eventsJson.empty());
        QVERIFY(record->eventCount > record->symptoms.size());
        const auto reopened = store::caseToResult(*record);
        QCOMPARE(reopened->events.size(), record->eventCount);
    }
};

QTEST_GUILESS_MAIN(TestServicePostgres)
#include "tst_service_postgres.moc"
