// SPDX-License-Identifier: GPL-3.0-or-later
// attrib serve: the Service (docs/service-api.md). Loopback by default; SIGTERM / SIGINT stop accepting,
// answer every admitted request, then exit 0.
#include "app/cli/cli.h"

#include "engine/number.h"
#include "engine/safe_text.h"
#include "service/http_service.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <fstream>
#include <iostream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace attrib::cli {

namespace {

struct ServeOptions {
    std::string listen = "127.0.0.1:8000";
    std::string rulesDir;
    std::string store;
    std::string tokenFile;
    std::string portFile;
    int workers = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
    int queue = 64;
    double maxBodyMiB = 64;
    double timeLimitSeconds = 60;
};

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

}  // namespace

void addServeCommand(CLI::App& app, CliContext& cli)
{
    auto o = std::make_shared<ServeOptions>();
    auto* sub = app.add_subcommand("serve", "run the Service: attributions over HTTP/JSON (docs/service-api.md)");
    sub->add_option("--listen", o->listen, "address and port (default 127.0.0.1:8000; port 0 = any free one)")
        ->option_text("HOST:PORT");
    addRulesOption(*sub, o->rulesDir);
    sub->add_option("--store", o->store, "keep attributions: an SQLite case store file or a postgresql:// URL")
        ->option_text("FILE|URL");
    sub->add_option("--token-file", o->tokenFile, "require 'Authorization: Bearer <token>' with the token in FILE")
        ->option_text("FILE");
    sub->add_option("--workers", o->workers, "attributions computed at once (default: CPU count, at least 2)")
        ->check(CLI::Range(1, 256));
    sub->add_option("--queue", o->queue, "requests waiting for a worker before 429 (default 64)")
        ->check(CLI::Range(0, 100000));
    sub->add_option("--max-body-mib", o->maxBodyMiB, "largest request body in MiB (default 64)")
        ->check(CLI::Range(0.001, 4096.0));
    sub->add_option("--time-limit", o->timeLimitSeconds, "seconds a request may take before 504 (default 60)")
        ->check(CLI::Range(0.01, 86400.0));
    sub->add_option("--port-file", o->portFile, "write the port listened on to FILE (with --listen HOST:0)")
        ->option_text("FILE");
    sub->callback([o, &cli] { cli.exitCode = runServe(*o, cli); });
}

}  // namespace attrib::cli
