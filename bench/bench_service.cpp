// SPDX-License-Identifier: GPL-3.0-or-later
// The Service under load: 8 concurrent clients post the nvlink sample's observations to `attrib serve`
// (stateless, SQLite store, PostgreSQL store) and the requests/s and p50/p99 latency are printed. A benchmark,
// not a timed test: `make bench` (ctest -L bench). Numbers: docs/performance.md, "The Service".
#include "tests/service/service_fixture.h"
#include "tests/service/throwaway_postgres.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>

using namespace attrib;

namespace {

constexpr int Clients = 8;
constexpr int PerClient = 25;

struct Run {
    std::vector<double> latenciesMs;
    int errors = 0;
    double seconds = 0;
};

quint16 startServe(QProcess& p, const QString& portFile, const QString& store)
{
    QStringList args{
        "serve",     "--listen", "127.0.0.1:0", "--port-file", portFile, "--rules", ATTRIB_SOURCE_RULES_DIR,
        "--workers", "2",        "--queue",     "64"};
    if (!store.isEmpty())
        args << "--store" << store;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(ATTRIB_CLI, args);
    for (int i = 0; i < 600 && p.state() != QProcess::NotRunning; ++i) {
        QFile f(portFile);
        if (f.open(QIODevice::ReadOnly) && f.size() > 0)
            return static_cast<quint16>(f.readAll().trimmed().toUInt());
        QTest::qWait(50);
    }
    return 0;
}

/// `clients` chains of `perClient` sequential POSTs each, all at once.
Run load(quint16 port, const QByteArray& body, int clients, int perClient)
{
    Run run;
    std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
    int outstanding = clients;
    QEventLoop loop;
    QElapsedTimer total;
    total.start();
    std::function<void(QNetworkAccessManager*, int)> next = [&](QNetworkAccessManager* nam, int left) {
        if (left == 0) {
            if (--outstanding == 0)
                loop.quit();
            return;
        }
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/v1/attributions").arg(port)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/x-ndjson");
        auto clock = std::make_shared<QElapsedTimer>();
        clock->start();
        QNetworkReply* reply = nam->post(request, body);
        QObject::connect(reply, &QNetworkReply::finished, [&, reply, clock, nam, left] {
            run.latenciesMs.push_back(clock->nsecsElapsed() / 1e6);
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
                ++run.errors;
            reply->deleteLater();
            next(nam, left - 1);
        });
    };
    for (int c = 0; c < clients; ++c) {
        nams.push_back(std::make_unique<QNetworkAccessManager>());
        nams.back()->setProxy(QNetworkProxy::NoProxy);
        next(nams.back().get(), perClient);
    }
    loop.exec();
    run.seconds = total.nsecsElapsed() / 1e9;
    return run;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(std::lround(p * (v.size() - 1))))];
}

bool measure(const char* name, const QString& store, const QByteArray& body, const QString& dir)
{
    QProcess serve;
    const quint16 port = startServe(serve, dir + "/port-" + name, store);
    if (port == 0) {
        std::printf("%s: attrib serve did not start\n", name);
        return false;
    }
    load(port, body, Clients, 2);  // warm-up: connections, page cache, store creation
    const Run r = load(port, body, Clients, PerClient);
    const std::size_t n = r.latenciesMs.size();
    std::printf("%-10s %d clients x %d requests: %zu in %.2f s = %.1f req/s; latency p50 %.1f ms, p99 %.1f ms; "
                "%d errors\n",
                name, Clients, PerClient, n, r.seconds, n / r.seconds, percentile(r.latenciesMs, 0.5),
                percentile(r.latenciesMs, 0.99), r.errors);
    std::fflush(stdout);
    ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
    serve.waitForFinished(30000);
    return r.errors == 0;
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const auto doc = tests::sampleDocument();
    const QByteArray body = QByteArray::fromStdString(doc.ndjson);
    std::printf("body: %zu observations, %lld bytes (samples/nvlink-xid149); server: --workers 2; %d cores\n",
                doc.observations, static_cast<long long>(body.size()), QThread::idealThreadCount());
    bool ok = measure("stateless", {}, body, dir.path());
    ok = measure("sqlite", dir.path() + "/bench.sqlite", body, dir.path()) && ok;
    tests::ThrowawayPostgres pg;
    if (const QString problem = pg.start(); problem.isEmpty())
        ok = measure("postgresql", pg.conninfo(), body, dir.path()) && ok;
    else
        std::printf("postgresql: skipped (%s)\n", qPrintable(problem));
    return ok ? 0 : 1;
}
