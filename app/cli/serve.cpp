// SPDX-License-Identifier: GPL-3.0-or-later
// attrib serve: its options. The Service itself runs in attrib-net (app/cli/net/serve_run.cpp); attrib hands the
// command over to it with the same arguments.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <thread>

namespace attrib::cli {

void addServeCommand(CLI::App& app, CliContext& cli)
{
    auto o = std::make_shared<ServeOptions>();
    o->workers = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
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
    sub->callback([o, &cli] { cli.exitCode = cli.net.serve ? cli.net.serve(*o, cli) : relayToNet(cli); });
}

}  // namespace attrib::cli
