// SPDX-License-Identifier: GPL-3.0-or-later
// The Service over real HTTP on a free loopback port: the sample's verdict equals the local one byte for
// byte, attributions list and fetch back with their observations intact, every answer matches the OpenAPI
// document, and bad requests get 400 / 413 / 401 / 429 / 504 while the Service keeps answering.
#include "engine/verdict_json.h"
#include "service/core/attribution_runner.h"
#include "tests/service/http_client.h"
#include "tests/service/openapi_check.h"
#include "tests/service/service_fixture.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <set>

using namespace attrib;
using namespace attrib::tests;

class TestService : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<service::Service> m_service;
    QNetworkAccessManager m_nam;
    std::unique_ptr<OpenApiCheck> m_api;
    service::ObservationDocument m_sample;
    std::string m_localVerdict;
    std::string m_sampleId;
    const QByteArray m_token = "s3cret-token-for-tests";

    QString url(const std::string& path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_service->port()).arg(QString::fromStdString(path));
    }

    /// One call; the answer is checked against the OpenAPI document for `route` (the path template).
    HttpAnswer call(const QByteArray& verb, const std::string& path, const std::string& route,
                    const QByteArray& body = {}, const QByteArray& type = {}, const QByteArray& token = "default")
    {
        HttpAnswer a = httpCall(m_nam, verb, url(path), body, type, token == "default" ? m_token : token);
        const std::string problem = m_api->check(route, verb.toLower().toStdString(), a.status, a.contentType, a.body);
        if (!problem.empty())
            qWarning("OpenAPI: %s\n%s", problem.c_str(), a.body.substr(0, 400).c_str());
        [&] { QVERIFY2(problem.empty(), problem.c_str()); }();
        return a;
    }

    std::string errorField(const HttpAnswer& a)
    {
        const auto j = nlohmann::json::parse(a.body, nullptr, false);
        return j.is_object() ? j["error"].value("field", std::string()) : std::string();
    }

    /// `n` POSTs at once, each on its own connection; status -> count.
    std::map<int, int> concurrentPosts(const QString& target, const QByteArray& body, int n)
    {
        std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
        std::vector<QNetworkReply*> replies;
        for (int i = 0; i < n; ++i) {
            nams.push_back(std::make_unique<QNetworkAccessManager>());
            nams.back()->setProxy(QNetworkProxy::NoProxy);
            QNetworkRequest request{QUrl(target)};
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/x-ndjson");
            replies.push_back(nams.back()->post(request, body));
        }
        std::map<int, int> statuses;
        for (auto* r : replies) {
            for (int i = 0; i < 6000 && !r->isFinished(); ++i)
                QTest::qWait(10);
            ++statuses[r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()];
            r->deleteLater();
        }
        return statuses;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_api = std::make_unique<OpenApiCheck>(std::string(ATTRIB_SOURCE_DIR) + "/docs/service-openapi.json");
        m_sample = sampleDocument();
        m_localVerdict = service::localVerdictJson(m_sample, sourceCatalog());
        service::ServiceConfig config;
        config.token = m_token;
        config.workers = 2;
        config.queueLimit = 64;
        config.maxBodyBytes = 4 << 20;
        auto store = std::make_shared<service::StorePool>((m_dir.path() + "/service.sqlite").toStdString());
        m_service = startService(config, store);
    }

    void sampleVerdictEqualsLocal()
    {
        const auto a = call("POST", "/v1/attributions", "/v1/attributions", QByteArray::fromStdString(m_sample.ndjson),
                            "application/x-ndjson");
        QCOMPARE(a.status, 200);
        QCOMPARE(a.body, m_localVerdict);  // byte for byte
        const auto v = nlohmann::json::parse(a.body);
        QCOMPARE(v["terminal_state"].get<std::string>(), std::string("hardware_failure"));
        QCOMPARE(v["sub_domain"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(v["root_cause"]["node"].get<std::string>(), std::string("node-02"));
        m_sampleId = a.header("X-Attribution-Id").toStdString();
        QVERIFY(!m_sampleId.empty());
        QCOMPARE(a.header("Location").toStdString(), "/v1/attributions/" + m_sampleId);
    }

    void jsonFormsAgreeWithNdjson()
    {
        nlohmann::json object{{"observations", nlohmann::json::array()}};
        nlohmann::json array = nlohmann::json::array();
        std::size_t start = 0;
        while (start < m_sample.ndjson.size()) {
            const std::size_t end = m_sample.ndjson.find('\n', start);
            const auto line = nlohmann::json::parse(m_sample.ndjson.substr(start, end - start));
            array.push_back(line);
            if (line.contains("context"))
                object["context"] = line["context"];
            else
                object["observations"].push_back(line);
            start = end + 1;
        }
        for (const auto& body : {object, array}) {
            const auto a = call("POST", "/v1/attributions?trace=false", "/v1/attributions",
                                QByteArray::fromStdString(body.dump()), "application/json");
            QCOMPARE(a.status, 200);
            QCOMPARE(a.body, m_localVerdict);
        }
    }

    void archiveUploadEqualsLocal()
    {
        const QString archive = m_dir.path() + "/sample.tar.gz";
        QCOMPARE(
            QProcess::execute("tar", {"-czf", archive, "-C", QString::fromStdString(samplePath("")), "nvlink-xid149"}),
            0);
        QFile f(archive);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto a = call("POST", "/v1/attributions", "/v1/attributions", f.readAll(), "application/gzip");
        QCOMPARE(a.status, 200);
        const auto local = importers::analyzeBundle(archive.toStdString(), sourceCatalog());
        QVERIFY(local.result);
        QCOMPARE(a.body, engine::dumpJson(engine::verdictToJson(*local.result)));
    }

    void listAndFetchRoundTrip()
    {
        const auto list = call("GET", "/v1/attributions?terminal_state=hardware_failure&sub_domain=nvlink&node=node-02",
                               "/v1/attributions");
        QCOMPARE(list.status, 200);
        const auto j = nlohmann::json::parse(list.body);
        QVERIFY(j["attributions"].size() >= 2);
        bool found = false;
        for (const auto& item : j["attributions"])
            found = found || std::to_string(item["id"].get<long long>()) == m_sampleId;
        QVERIFY(found);
        const auto verdict = call("GET", "/v1/attributions/" + m_sampleId, "/v1/attributions/{id}");
        QCOMPARE(verdict.status, 200);
        QCOMPARE(verdict.body, m_localVerdict);
        const auto obs =
            call("GET", "/v1/attributions/" + m_sampleId + "/observations", "/v1/attributions/{id}/observations");
        QCOMPARE(obs.status, 200);
        QCOMPARE(obs.contentType, std::string("application/x-ndjson"));
        QCOMPARE(obs.body, m_sample.ndjson);  // the observations round-trip intact
        QCOMPARE(call("GET", "/v1/attributions/999999", "/v1/attributions/{id}").status, 404);
        const auto bad = call("GET", "/v1/attributions/abc", "/v1/attributions/{id}");
        QCOMPARE(bad.status, 400);
        QCOMPARE(errorField(bad), std::string("id"));
    }

    void paginates()
    {
        std::set<long long> seen;
        std::string cursor;
        int pages = 0;
        do {
            const auto a = call("GET", "/v1/attributions?limit=1" + (cursor.empty() ? "" : "&cursor=" + cursor),
                                "/v1/attributions");
            QCOMPARE(a.status, 200);
            const auto j = nlohmann::json::parse(a.body);
            QVERIFY(j["attributions"].size() <= 1);
            for (const auto& item : j["attributions"])
                QVERIFY(seen.insert(item["id"].get<long long>()).second);
            cursor = j["next_cursor"].is_null() ? "" : j["next_cursor"].get<std::string>();
            ++pages;
        } while (!cursor.empty() && pages < 100);
        QVERIFY(seen.size() >= 4);
        QCOMPARE(call("GET", "/v1/attributions?limit=0", "/v1/attributions").status, 400);
        const auto unknown = call("GET", "/v1/attributions?colour=red", "/v1/attributions");
        QCOMPARE(errorField(unknown), std::string("colour"));
    }

    void catalogAndProbes()
    {
        const auto c = call("GET", "/v1/catalog", "/v1/catalog");
        QCOMPARE(c.status, 200);
        const auto j = nlohmann::json::parse(c.body);
        QCOMPARE(j["catalog_hash"].get<std::string>(), sourceCatalog()->hash());
        QVERIFY(j["self_test"]["ok"].get<bool>());
        QVERIFY(!j["rules"].empty());
        QCOMPARE(call("GET", "/healthz", "/healthz", {}, {}, QByteArray()).status, 200);  // probes need no token
        QCOMPARE(call("GET", "/readyz", "/readyz", {}, {}, QByteArray()).status, 200);
    }

    void metricsExposition()
    {
        const auto m = call("GET", "/metrics", "/metrics");
        QCOMPARE(m.status, 200);
        QVERIFY(m.contentType.rfind("text/plain", 0) == 0);
        QVERIFY(m.body.find("attrib_http_requests_total{route=\"/v1/attributions\",method=\"POST\",status=\"200\"}") !=
                std::string::npos);
        QVERIFY(m.body.find("attrib_http_request_duration_seconds_bucket{route=\"/v1/attributions\",le=\"+Inf\"}") !=
                std::string::npos);
        QVERIFY(m.body.find("attrib_verdicts_total{terminal_state=\"hardware_failure\"}") != std::string::npos);
        QVERIFY(m.body.find("attrib_catalog_case_failures 0") != std::string::npos);
    }

    void badRequestsAreRefusedAndTheServiceGoesOn()
    {
        const auto malformed =
            call("POST", "/v1/attributions", "/v1/attributions", "[{\"source\": \"kernel\",", "application/json");
        QCOMPARE(malformed.status, 400);
        QCOMPARE(errorField(malformed), std::string("body"));
        const auto wrong = call("POST", "/v1/attributions", "/v1/attributions",
                                R"({"observations": [{"source": "kernel", "text": "x"}, {"source": 7, "text": "y"}]})",
                                "application/json");
        QCOMPARE(wrong.status, 400);
        QCOMPARE(errorField(wrong), std::string("observations[1].source"));
        const auto unknownKind =
            call("POST", "/v1/attributions", "/v1/attributions",
                 "{\"source\": \"kernel\", \"text\": \"a\"}\n{\"source\": \"tea\", \"text\": \"b\"}",
                 "application/x-ndjson");
        QCOMPARE(unknownKind.status, 400);
        QCOMPARE(errorField(unknownKind), std::string("line 2.source"));
        const auto badTime = call("POST", "/v1/attributions", "/v1/attributions",
                                  R"([{"source": "kernel", "text": "a", "time": "yesterday"}])", "application/json");
        QCOMPARE(errorField(badTime), std::string("[0].time"));
        const auto oversize =
            call("POST", "/v1/attributions", "/v1/attributions", QByteArray(5 << 20, ' '), "application/json");
        QCOMPARE(oversize.status, 413);
        QCOMPARE(call("POST", "/v1/attributions", "/v1/attributions", "x", "image/png").status, 415);
        QCOMPARE(call("GET", "/v1/attributions", "/v1/attributions", {}, {}, QByteArray()).status, 401);
        QCOMPARE(call("GET", "/v1/attributions", "/v1/attributions", {}, {}, "wrong-token").status, 401);
        QCOMPARE(call("GET", "/metrics", "/metrics", {}, {}, QByteArray()).status, 401);
        QCOMPARE(call("GET", "/healthz", "/healthz").status, 200);
        const auto again = call("POST", "/v1/attributions", "/v1/attributions", tinyDocument(), "application/x-ndjson");
        QCOMPARE(again.status, 200);
    }

    void tooManyAtOnceGets429()
    {
        service::ServiceConfig config;
        config.workers = 1;
        config.queueLimit = 0;  // one running request at a time, none waiting
        auto busy = startService(config);
        const QString post = QStringLiteral("http://127.0.0.1:%1/v1/attributions").arg(busy->port());
        std::map<int, int> statuses = concurrentPosts(post, QByteArray::fromStdString(m_sample.ndjson), 6);
        QVERIFY2(statuses[429] >= 1 && statuses[200] >= 1 && statuses[200] + statuses[429] == 6,
                 qPrintable(QStringLiteral("200: %1, 429: %2").arg(statuses[200]).arg(statuses[429])));
        QNetworkAccessManager nam;  // and it still answers
        QCOMPARE(httpCall(nam, "GET", post.chopped(15) + "healthz").status, 200);
        QCOMPARE(httpCall(nam, "POST", post, tinyDocument(), "application/x-ndjson").status, 200);
    }

    void timeLimitGets504()
    {
        service::ServiceConfig config;
        config.timeLimitMs = 1;
        auto slow = startService(config);
        QNetworkAccessManager nam;
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(slow->port());
        const auto a = httpCall(nam, "POST", base + "/v1/attributions", QByteArray::fromStdString(m_sample.ndjson),
                                "application/x-ndjson");
        QCOMPARE(a.status, 504);
        QVERIFY(m_api->check("/v1/attributions", "post", a.status, a.contentType, a.body).empty());
        QTRY_COMPARE_WITH_TIMEOUT(slow->admitted(), 0, 30000);  // the cancelled analysis ends
        QCOMPARE(httpCall(nam, "GET", base + "/healthz").status, 200);
    }

    void fiftyConcurrentClients()
    {
        const QByteArray tiny = tinyDocument();
        std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
        int outstanding = 50, errors = 0, answered = 0;
        QString firstError;
        QEventLoop loop;
        std::function<void(QNetworkAccessManager*, int)> next = [&](QNetworkAccessManager* nam, int left) {
            if (left == 0) {
                if (--outstanding == 0)
                    loop.quit();
                return;
            }
            static const char* paths[] = {"/v1/attributions", "/v1/attributions?limit=5", "/v1/catalog", "/healthz"};
            const int kind = left % 4;
            QNetworkRequest request(url(paths[kind]));
            request.setRawHeader("Authorization", "Bearer " + m_token);
            request.setHeader(QNetworkRequest::ContentTypeHeader, "application/x-ndjson");
            QNetworkReply* reply = kind == 0 ? nam->post(request, tiny) : nam->get(request);
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply, nam, left] {
                ++answered;
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                if (status != 200 && errors++ == 0)
                    firstError = QStringLiteral("%1: %2").arg(status).arg(QString::fromUtf8(reply->readAll()));
                reply->deleteLater();
                next(nam, left - 1);
            });
        };
        for (int c = 0; c < 50; ++c) {
            nams.push_back(std::make_unique<QNetworkAccessManager>());
            nams.back()->setProxy(QNetworkProxy::NoProxy);
            next(nams.back().get(), 20);
        }
        QTimer::singleShot(240000, &loop, &QEventLoop::quit);
        loop.exec();
        QCOMPARE(answered, 1000);
        QVERIFY2(errors == 0, qPrintable(firstError));
    }

    void tokenCompare()
    {
        QVERIFY(service::tokenMatches("Bearer abc", "abc"));
        QVERIFY(!service::tokenMatches("Bearer abd", "abc"));
        QVERIFY(!service::tokenMatches("Bearer abcd", "abc"));
        QVERIFY(!service::tokenMatches("Bearer ab", "abc"));
        QVERIFY(!service::tokenMatches("", "abc"));
    }
};

QTEST_GUILESS_MAIN(TestService)
#include "tst_service.moc"
