// SPDX-License-Identifier: GPL-3.0-or-later
// attrib analyze BUNDLE --service URL [--token-file F] [--compare]: the bundle's observations analysed by a
// Service; with --compare, the local engine's verdict of the same observations beside the Service's.
#include "app/cli/net/net_commands.h"

#include "engine/safe_text.h"
#include "service/client/service_client.h"
#include "service/core/attribution_runner.h"
#include "service/core/verdict_compare.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace attrib::cli {

namespace {

std::string brief(const std::string& verdictJson)
{
    const auto v = nlohmann::json::parse(verdictJson, nullptr, false);
    if (v.is_discarded() || !v.is_object())
        return "(not a verdict)";
    std::string s = v.value("terminal_state", "?") + " / " + v.value("sub_domain", "?");
    if (v.contains("root_cause") && v["root_cause"].is_object()) {
        const auto& rc = v["root_cause"];
        s += ": " + rc.value("symptom_id", std::string()) + " (" + rc.value("summary", std::string()) + ")";
    }
    const auto& e = v.value("engine", nlohmann::json::object());
    return s + "\ncatalog " + e.value("catalog_version", "?") + " (" + e.value("catalog_hash", "?") + ")";
}

}  // namespace

int analyzeWithService(const engine::AnalysisResult& local, const ServiceCall& call, const engine::CatalogPtr& catalog)
{
    std::unique_ptr<QCoreApplication> app;
    static int argc = 1;
    static char name[] = "attrib";
    static char* argv[] = {name, nullptr};
    if (!QCoreApplication::instance())
        app = std::make_unique<QCoreApplication>(argc, argv);
    service::ServiceEndpoint endpoint{QUrl(QString::fromStdString(call.url)), {}};
    if (!endpoint.base.isValid() ||
        (endpoint.base.scheme() != QLatin1String("http") && endpoint.base.scheme() != QLatin1String("https"))) {
        std::cerr << "attrib: --service " << engine::terminalSafe(call.url) << ": expected http://HOST:PORT\n";
        return 2;
    }
    if (!call.tokenFile.empty()) {
        QString error;
        endpoint.token = service::readTokenFile(QString::fromStdString(call.tokenFile), &error);
        if (!error.isEmpty()) {
            std::cerr << "attrib: " << engine::terminalSafe(error.toStdString()) << "\n";
            return 2;
        }
    }
    const service::ObservationDocument doc = service::exportObservations(local);
    QNetworkAccessManager nam;
    const auto reply = service::blockingRequest(nam, endpoint, "POST", QStringLiteral("/v1/attributions"),
                                                QByteArray::fromStdString(doc.ndjson), "application/x-ndjson");
    if (!reply.ok()) {
        std::cerr << "attrib: " << engine::terminalSafe(service::problemText(endpoint, reply).toStdString()) << "\n";
        return 1;
    }
    const std::string remote = reply.body.toStdString();
    if (!call.compare) {
        std::cout << (call.json ? remote : "service verdict: " + engine::terminalSafeBlock(brief(remote)) + "\n");
        return 0;
    }
    const auto comparison = service::compareVerdicts(service::localVerdictJson(doc, catalog), remote);
    std::cout << engine::terminalSafeBlock(comparison.text("local", "service"));
    std::cout << (comparison.differs() ? "verdicts differ\n" : "verdicts agree\n");
    return comparison.differs() ? 1 : 0;
}

}  // namespace attrib::cli
