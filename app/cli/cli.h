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

/// What the subcommands share: the program path (to find installed rules and samples) and the exit code the
/// chosen subcommand's callback sets.
struct CliContext {
    std::string executable;
    int exitCode = 0;
};

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

/// `attrib analyze BUNDLE --service URL`: where the Service is and what to do with its answer.
struct ServiceCall {
    std::string url;
    std::string tokenFile;
    bool compare = false;
    bool json = false;
};
/// Sends the observations of `local` to the Service and prints its verdict (or, with compare, both side by
/// side). Returns the exit code: 1 when the Service cannot answer or, with compare, when the verdicts differ.
int analyzeWithService(const engine::AnalysisResult& local, const ServiceCall& call, const engine::CatalogPtr& catalog);
void addGenCommand(CLI::App& app, CliContext& cli);

/// Opens a case store; on failure prints "attrib: <reason naming the file>" and returns nullptr.
std::unique_ptr<store::SqliteCaseStore> openStoreFor(const std::string& path, bool readOnly);

/// `attrib analyze BUNDLE... --store FILE`: analyses the bundles in parallel (`jobs` at a time) and saves one
/// case per bundle, in argument order; prints one line per bundle. Returns the exit code.
int analyzeIntoStore(const std::vector<std::string>& bundles, const std::string& storePath,
                     const engine::CatalogPtr& catalog, unsigned jobs);

}  // namespace attrib::cli
