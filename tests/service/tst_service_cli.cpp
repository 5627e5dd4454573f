// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib serve` as a process: the CLI client against it (--service, --token-file, --compare), and SIGTERM
// draining the admitted requests before exit 0.
#include "tests/service/http_client.h"
#include "tests/service/service_fixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <fstream>

using namespace attrib;
using namespace attrib::tests;

class TestServiceCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_tokenFile;

    /// Starts `attrib serve` on a free port; returns the port (0 on failure).
    quint16 startServe(QProcess& p, const QStringList& extra)
    {
        const QString portFile = m_dir.path() + "/port-" + QString::number(QRandomGenerator::global()->generate());
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(ATTRIB_CLI,
                QStringList{"serve", "--listen", "127.0.0.1:0", "--port-file", portFile, "--rules",
                            ATTRIB_SOURCE_RULES_DIR} +
                    extra);
        for (int i = 0; i < 2400 && p.state() != QProcess::NotRunning; ++i) {
            QFile f(portFile);
            if (f.open(QIODevice::ReadOnly) && f.size() > 0)
                return static_cast<quint16>(f.readAll().trimmed().toUInt());
            QTest::qWait(50);
        }
        return 0;
    }

    /// Attribution requests the Service holds (running and queued) by its /metrics; -1 when it does not answer.
    static int heldRequests(quint16 port)
    {
        QNetworkAccessManager nam;
        const HttpAnswer a =
            httpCall(nam, "GET", QStringLiteral("http://127.0.0.1:%1/metrics").arg(port), {}, {}, {}, 10000);
        if (a.status != 200)
            return -1;
        int held = 0;
        for (const QByteArray& line : QByteArray::fromStdString(a.body).split('\n'))
            if (line.startsWith("attrib_requests_in_flight{"))
                held += line.mid(line.lastIndexOf(' ') + 1).toInt();
        return held;
    }

    static QString run(const QStringList& args, int& code)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(ATTRIB_CLI, args);
        p.waitForFinished(120000);
        code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        return QString::fromUtf8(p.readAll());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_tokenFile = m_dir.path() + "/token";
        std::ofstream(m_tokenFile.toStdString()) << "cli-token-123\n";
    }

    void analyzeThroughServiceAndCompare()
    {
        QProcess serve;
        const quint16 port = startServe(serve, {"--token-file", m_tokenFile, "--store", m_dir.path() + "/cli.sqlite"});
        QVERIFY(port != 0);
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        const QString sample = QString::fromStdString(samplePath("nvlink-xid149"));
        int code = -1;
        QString out = run({"analyze", sample, "--service", url, "--token-file", m_tokenFile, "--compare"}, code);
        QVERIFY2(code == 0, qPrintable(out));
        QVERIFY2(out.contains("verdicts agree") && out.contains("hardware_failure | hardware_failure"),
                 qPrintable(out));
        // One row per line (the table's own line breaks, not escapes), as the attrib-net process printed it.
        QVERIFY2(out.contains(QStringLiteral("\n  sub_domain")) && !out.contains(QStringLiteral("\\n")),
                 qPrintable(out));
        out = run({"analyze", sample, "--service", url, "--token-file", m_tokenFile, "--json"}, code);
        QCOMPARE(code, 0);
        QVERIFY(out.contains("\"terminal_state\": \"hardware_failure\""));
        out = run({"analyze", sample, "--service", url}, code);
        QCOMPARE(code, 1);
        QVERIFY2(out.contains("401"), qPrintable(out));
        out = run({"analyze", sample, "--service", "http://127.0.0.1:1"}, code);
        QCOMPARE(code, 1);
        QVERIFY2(out.contains("cannot reach the Service"), qPrintable(out));
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(30000));
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
    }

    /// attrib itself maps no Qt library (the loader's own list of what it loaded): `serve` and `--service` run in
    /// attrib-net, so an analysis does not pay Qt's resident memory.
    void analysisProgramMapsNoQt()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LD_DEBUG", "libs");
        p.setProcessEnvironment(env);
        p.start(ATTRIB_CLI, {"--help"});
        QVERIFY(p.waitForFinished(60000));
        const QString loaded = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(loaded.contains("libre2"), qPrintable(loaded.left(2000)));  // the loader did report
        QVERIFY2(!loaded.contains("libQt6"), qPrintable(loaded.left(2000)));
    }

    /// Without attrib-net beside it (nor in a libexec folder), attrib says why `serve` cannot run, naming the path.
    void missingNetProgramIsNamed()
    {
        const QString lone = m_dir.path() + "/lone/bin";
        QVERIFY(QDir().mkpath(lone));
        QVERIFY(QFile::copy(ATTRIB_CLI, lone + "/attrib"));
        QFile::setPermissions(lone + "/attrib", QFile::permissions(ATTRIB_CLI));
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(lone + "/attrib", {"serve", "--listen", "127.0.0.1:0"});
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAll());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(out.contains("attrib-net") && out.contains("cannot be started"), qPrintable(out));
    }

    void sigtermDrainsAdmittedRequests()
    {
        QProcess serve;
        const quint16 port = startServe(serve, {"--workers", "1"});
        QVERIFY(port != 0);
        const QByteArray body = QByteArray::fromStdString(sampleDocument().ndjson);
        std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
        std::vector<QNetworkReply*> replies;
        for (int i = 0; i < 3; ++i) {
            nams.push_back(std::make_unique<QNetworkAccessManager>());
            nams.back()->setProxy(QNetworkProxy::NoProxy);
            QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/attributions").arg(port)));
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/x-ndjson");
            replies.push_back(nams.back()->post(request, body));
        }
        // SIGTERM once the Service has admitted all three (running, queued or already answered): on a loaded machine
        // the second and third may still be on their way when the first is answered.
        const auto answered = [&] {
            return int(std::count_if(replies.begin(), replies.end(), [](auto* r) { return r->isFinished(); }));
        };
        QTRY_VERIFY_WITH_TIMEOUT(heldRequests(port) + answered() >= 3, 60000);
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);  // every admitted request is answered
        for (auto* r : replies) {
            QTRY_VERIFY_WITH_TIMEOUT(r->isFinished(), 60000);
            QCOMPARE(r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        }
        // It may have exited already while the answers were awaited (waitForFinished is false then).
        QVERIFY(serve.state() == QProcess::NotRunning || serve.waitForFinished(30000));
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestServiceCli)
#include "tst_service_cli.moc"
