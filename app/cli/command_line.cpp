// SPDX-License-Identifier: GPL-3.0-or-later
// The attrib command line (attrib and attrib-net). Each subcommand lives in its own file and registers itself here.
#include "app/cli/cli.h"

#include "engine/safe_text.h"
#include "engine/verdict.h"
#include "rules/cpp/builtin_rules.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace attrib;

namespace {

/// `attrib --version`: the engine's version and the catalog it would use.
void printVersion(const cli::CliContext& cli)
{
    const auto catalog = cli::loadCatalogFor({}, cli);
    std::cout << "attrib " << engine::engineVersion() << "\n"
              << "catalog " << engine::terminalSafe(catalog->version().empty() ? "unknown" : catalog->version()) << " ("
              << catalog->hash() << ") from " << engine::terminalSafe(catalog->directory()) << "\n";
}

/// glibc raises its mmap threshold each time a large block is freed, so the vectors an analysis grows by doubling
/// (per-file parts, joined evidence) end up in the heap, whose freed pages stay resident. A fixed threshold (the
/// default's starting value) keeps blocks of 128 KiB and more in mappings of their own, given back when freed:
/// `attrib analyze` of a 1,024-node bundle peaks 3-4 MB lower at the same wall time (docs/performance.md).
void tuneAllocator()
{
#if defined(__GLIBC__)
    if (!std::getenv("MALLOC_MMAP_THRESHOLD_"))  // the user's own setting wins
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    // One arena for every thread: the evidence the reading threads keep otherwise lies in arenas of their own,
    // each with its own free space. `attrib analyze --jobs 2` of a 1,024-node bundle peaked 3 MB higher than at
    // one thread, and the same as one thread with a single arena, at the same wall time: the threads allocate
    // for matched lines only, and the small blocks they free and take again come from their per-thread caches.
    if (!std::getenv("MALLOC_ARENA_MAX"))
        mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace

int cli::runCommandLine(int argc, char** argv, const NetCommands& net)
{
    tuneAllocator();
    CliContext context;
    context.executable = argv[0];
    context.arguments.assign(argv, argv + argc);
    context.net = net;
    CLI::App app{"Finds out why a distributed training job failed: which node, which failure domain, which "
                 "evidence.\nExit 0 when the command ran (whatever the verdict); non-zero with a one-line "
                 "reason on bad input.",
                 "attrib"};
    app.require_subcommand(0, 1);
    app.failure_message(CLI::FailureMessage::help);
    bool version = false;
    app.add_flag("--version", version, "print the engine and catalog versions and exit");
    cli::addAnalyzeCommand(app, context);
    cli::addRulesCommand(app, context);
    cli::addEvalCommand(app, context);
    cli::addReplayCommand(app, context);
    cli::addCasesCommand(app, context);
    cli::addLabelCommand(app, context);
    cli::addServeCommand(app, context);
    cli::addGenCommand(app, context);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    if (version) {
        printVersion(context);
        return 0;
    }
    if (app.get_subcommands().empty()) {
        std::cerr << app.help();
        return 2;
    }
    return context.exitCode;
}
