// SPDX-License-Identifier: GPL-3.0-or-later
// attrib serve in attrib-net: the Service (docs/service-api.md). Loopback by default; SIGTERM / SIGINT stop
// accepting, answer every admitted request, then exit 0. Its options: app/cli/serve.cpp.
#include "app/cli/net/net_commands.h"

#include "engine/number.h"
#include "engine/safe_text.h"
#include "service/http_service.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <fstream>
#include <iostream>
#include <sys/socket.h>
#include <unistd.h>

namespace attrib::cli {

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1);
}

/// "HOST:PORT", ":PORT" (loopback) or "[v6]:PORT".
bool parseListen(const std::string& text, QHostAddress& address, quint16& port)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos)
        return false;
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const auto p = engine::parseIntegerIn<int>(text.substr(colon + 1), 0, 65535);
    if (!p || !address.setAddress(QString::fromStdString(host.empty() ? "127.0.0.1" : host)))
        return false;
    port = static_cast<quint16>(*p);
    return true;
}

bool readToken(const std::string& file, QByteArray& token)
{
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        std::cerr << "attrib: cannot read the token file " << engine::terminalSafe(file) << "\n";
        return false;
    }
    token = QByteArray::fromStdString(text).trimmed();
    if (token.isEmpty() || token.contains('\n')) {
        std::cerr << "attrib: " << engine::terminalSafe(file) << ": the token file must hold one non-empty line\n";
        return false;
    }
    return true;
}

bool buildConfig(const ServeOptions& o, service::ServiceConfig& c)
{
    if (!parseListen(o.listen, c.address, c.port)) {
        std::cerr << "attrib: --listen " << engine::terminalSafe(o.listen) << ": expected HOST:PORT\n";
        return false;
    }
    if (!o.tokenFile.empty() && !readToken(o.tokenFile, c.token))
        return false;
    c.workers = o.workers;
    c.queueLimit = o.queue;
    c.maxBodyBytes = static_cast<qint64>(o.maxBodyMiB * 1024 * 1024);
    c.timeLimitMs = static_cast<int>(o.timeLimitSeconds * 1000);
    return true;
}

std::shared_ptr<service::StorePool> openStore(const std::string& spec)
{
    if (spec.empty())
        return nullptr;
    try {
        return std::make_shared<service::StorePool>(spec);
    } catch (const std::exception& e) {
        std::cerr << "attrib: " << engine::terminalSafe(e.what()) << "\n";
        return nullptr;
    }
}

void announce(const service::ServiceConfig& c, quint16 port, const engine::Catalog& catalog, const ServeOptions& o)
{
    std::cerr << "attrib serve: listening on http://" << c.address.toString().toStdString() << ":" << port
              << " (catalog " << engine::terminalSafe(catalog.version()) << " " << catalog.hash() << ", "
              << (o.store.empty() ? std::string("stateless")
                      : service::isPostgresSpec(o.store)
                      ? std::string("PostgreSQL store")  // the URL may hold a password
                      : "store " + engine::terminalSafe(o.store))
              << ", " << (c.token.isEmpty() ? "no token" : "bearer token") << ", " << c.workers << " workers)\n";
    if (!c.address.isLoopback() && c.token.isEmpty())
        std::cerr << "attrib serve: warning: reachable beyond this host without a token (--token-file)\n";
    if (!o.portFile.empty())
        std::ofstream(o.portFile) << port << "\n";
}

}  // namespace

int runServe(const ServeOptions& o, const CliContext& cli)
{
    service::ServiceConfig config;
    if (!buildConfig(o, config))
        return 2;
    const auto catalog = loadCatalogFor(o.rulesDir, cli, engine::CaseDetail::Keep);
    auto store = openStore(o.store);
    if (!o.store.empty() && !store)
        return 1;
    static int argc = 1;
    static char name[] = "attrib";
    static char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    service::Service service(config, catalog, store);
    QString error;
    if (!service.listen(&error)) {
        std::cerr << "attrib: cannot listen on " << error.toStdString() << "\n";
        return 1;
    }
    announce(config, service.port(), *catalog, o);
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return 1;
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &service, [&] {
        char byte;
        [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &byte, 1);
        std::cerr << "attrib serve: stopping: answering " << service.admitted() << " admitted requests\n";
        service.drain();
    });
    QObject::connect(&service, &service::Service::drained, &app, [&] { app.quit(); });
    std::signal(SIGTERM, onSignal);
    std::signal(SIGINT, onSignal);
    const int code = app.exec();
    std::cerr << "attrib serve: stopped\n";
    return code;
}

}  // namespace attrib::cli
