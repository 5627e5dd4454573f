// SPDX-License-Identifier: GPL-3.0-or-later
// The attrib command line: one CLI11 application; every subcommand registers itself from its own file.
#pragma once

#include "engine/catalog.h"
#include "engine/verdict.h"

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attrib::store {
class SqliteCaseStore;
}

namespace attrib::cli {

struct CliContext;
struct ServeOptions;
struct ServiceCall;

/// The commands that need Qt's network modules (`attrib serve`, `attrib analyze --service`) live in a second
/// program, attrib-net (app/cli/net/): linking Qt Core, Network and HttpServer, libpq and their TLS stack costs
/// every analysis ~10 MB of resident memory before it reads a line. attrib-net fills these in; in attrib they
/// stay empty and the command runs attrib-net with the same arguments (relayToNet).
struct NetCommands {
    int (*serve)(const ServeOptions& options, const CliContext& cli) = nullptr;
    int (*analyzeWithService)(const engine::AnalysisResult& local, const ServiceCall& call,
                              const engine::CatalogPtr& catalog) = nullptr;
};

/// What the subcommands share: the program path (to find installed rules and samples), the arguments as given
/// (for relayToNet), the network commands when this program has them, and the exit code the chosen subcommand's
/// callback sets.
struct CliContext {
    std::string executable;
    std::vector<std::string> arguments;
    NetCommands net;
    int exitCode = 0;
};

/// The whole command line: registers every subcommand, parses `argv` and runs the chosen one. Both programs'
/// main() call it; attrib-net passes its network commands in `net`.
int runCommandLine(int argc, char** argv, const NetCommands& net);

/// Replaces this process by attrib-net with the same arguments (beside this program, or in the package's
/// libexec folder); returns only when that fails, with the exit code after printing why.
int relayToNet(const CliContext& cli);

/// Loads the catalog from `--rules DIR` (or the installed / source catalog when empty). A rule file that does not
/// load is never silent: its diagnostics go to stderr as `attrib: catalog: FILE:LINE: ...`.
/// The catalog in `rulesDir` (or the installed one), its diagnostics printed. Commands that only analyse keep the
/// inline cases' counts, not every result (CaseDetail::CountsOnly); the Service keeps them for its catalog reply.
engine::CatalogPtr loadCatalogFor(const std::string& rulesDir, const CliContext& cli,
                                  engine::CaseDetail detail = engine::CaseDetail::CountsOnly);
/// The catalog's error-level diagnostics (rules that did not load).
std::size_t catalogErrors(const engine::Catalog& catalog);

/// Adds the `--rules DIR` option every catalog-reading subcommand takes.
void addRulesOption(CLI::App& sub, std::string& rulesDir, const char* what = "rule catalog folder");

void addAnalyzeCommand(CLI::App& app, CliContext& cli);
void addRulesCommand(CLI::App& app, CliContext& cli);
/// `attrib rules patterns` (added by addRulesCommand under `rules`).
void addRulesPatternsCommand(CLI::App& rules, CliContext& cli);
void addEvalCommand(CLI::App& app, CliContext& cli);
void addReplayCommand(CLI::App& app, CliContext& cli);
void addCasesCommand(CLI::App& app, CliContext& cli);
void addLabelCommand(CLI::App& app, CliContext& cli);
void addServeCommand(CLI::App& app, CliContext& cli);

/// `attrib analyze BUNDLE --service URL`: where the Service is and what to do with its answer. attrib-net's
/// analyzeWithService sends the observations of the local analysis to the Service and prints its verdict (or, with
/// compare, both side by side); exit 1 when the Service cannot answer or, with compare, when the verdicts differ.
struct ServiceCall {
    std::string url;
    std::string tokenFile;
    bool compare = false;
    bool json = false;
};

/// `attrib serve`'s options (app/cli/serve.cpp registers them; attrib-net's runServe runs the Service).
struct ServeOptions {
    std::string listen = "127.0.0.1:8000";
    std::string rulesDir;
    std::string store;
    std::string tokenFile;
    std::string portFile;
    int workers = 2;
    int queue = 64;
    double maxBodyMiB = 64;
    double timeLimitSeconds = 60;
};
void addGenCommand(CLI::App& app, CliContext& cli);

/// Opens a case store; on failure prints "attrib: <reason naming the file>" and returns nullptr.
std::unique_ptr<store::SqliteCaseStore> openStoreFor(const std::string& path, bool readOnly);

/// `attrib analyze BUNDLE... --store FILE`: analyses the bundles in parallel (`jobs` at a time) and saves one
/// case per bundle, in argument order; prints one line per bundle. Returns the exit code.
int analyzeIntoStore(const std::vector<std::string>& bundles, const std::string& storePath,
                     const engine::CatalogPtr& catalog, unsigned jobs);

}  // namespace attrib::cli
