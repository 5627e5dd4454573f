// SPDX-License-Identifier: GPL-3.0-or-later
// attrib rules test: evaluates every rule's inline cases and prints every catalog problem.
#include "app/cli/cli.h"

#include "engine/safe_text.h"
#include "importers/kept_cases.h"
#include "rules/cpp/builtin_rules.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace attrib::cli {

namespace {

struct RulesTestOptions {
    std::string rulesDir;
    bool verbose = false;
    bool rawOnly = false;  ///< skip the cases' second reading through the importers
};

int runRulesTest(const RulesTestOptions& o, const CliContext& cli)
{
    // Every case runs: this command is how a rule author checks them, so no outcome kept from an earlier load.
    const auto catalog = rules::loadCatalog(rules::findRulesDir(o.rulesDir, cli.executable), rules::CaseRuns::Fresh);
    for (const auto& r : catalog->caseResults()) {
        if (!r.passed)
            std::cout << "FAIL "
                      << engine::terminalSafe(r.where.str() + ": " + r.rule + " / " + r.name + ": " + r.failure)
                      << "\n";
        else if (o.verbose)
            std::cout << "ok   " << engine::terminalSafe(r.rule + " / " + r.name) << "\n";
    }
    for (const auto& d : catalog->diagnostics())
        std::cout << engine::terminalSafe(d.str()) << "\n";
    // Each case again as analyze reads it: the line through the importers, the text they keep through the catalog's
    // extractor set. Its own class of failure: the loader does not leave a rule out for it, only this command fails.
    importers::KeptCaseReport kept;
    if (!o.rawOnly)
        kept = importers::checkKeptCases(*catalog);
    for (const auto& f : kept.findings)
        std::cout << "KEPT "
                  << engine::terminalSafe(f.where.str() + ": " + f.rule + " / case " + std::to_string(f.caseIndex) +
                                          ": " + f.message)
                  << "\n";
    std::cout << "catalog " << engine::terminalSafe(catalog->directory()) << ": " << catalog->symptoms().size()
              << " symptoms, " << catalog->extractors().size() << " extractors, " << catalog->codeRules().size()
              << " C++ rules, " << catalog->refineRules().size() << " refinement rules, "
              << catalog->priorityTables().size() << " priority tables\n";
    // A catalog error (a file that does not parse, a rule left out) fails the run as a failed case does, and the
    // last line says so: the pass count alone would read as green.
    const std::size_t errors = catalogErrors(*catalog);
    std::cout << catalog->casesPassed() << " passed, " << catalog->casesFailed() << " failed";
    if (errors > 0)
        std::cout << "; " << errors << (errors == 1 ? " catalog error" : " catalog errors") << " (see above)";
    if (!kept.findings.empty())
        std::cout << "; " << kept.findings.size() << " of " << kept.checked
                  << " cases decided otherwise on the text analyze keeps (KEPT above)";
    std::cout << "\n";
    return catalog->casesFailed() == 0 && errors == 0 && kept.findings.empty() ? 0 : 1;
}

}  // namespace

engine::CatalogPtr loadCatalogFor(const std::string& rulesDir, const CliContext& cli, engine::CaseDetail detail)
{
    auto catalog = rules::loadCatalog(rules::findRulesDir(rulesDir, cli.executable), rules::CaseRuns::Reuse, detail);
    for (const auto& d : catalog->diagnostics())
        std::cerr << "attrib: catalog: " << engine::terminalSafe(d.str()) << "\n";
    return catalog;
}

std::size_t catalogErrors(const engine::Catalog& catalog)
{
    const auto& all = catalog.diagnostics();
    return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [](const engine::Diagnostic& d) {
        return d.severity == engine::Diagnostic::Severity::Error;
    }));
}

void addRulesOption(CLI::App& sub, std::string& rulesDir, const char* what)
{
    sub.add_option("--rules", rulesDir, std::string(what) + " (default: the installed or source catalog)")
        ->option_text("DIR");
}

void addRulesCommand(CLI::App& app, CliContext& cli)
{
    auto* rules = app.add_subcommand("rules", "work with the rule catalog");
    rules->require_subcommand(1);
    auto options = std::make_shared<RulesTestOptions>();
    auto* test = rules->add_subcommand("test", "run every rule's inline cases (\"N passed, M failed\")");
    addRulesOption(*test, options->rulesDir);
    test->add_flag("-v,--verbose", options->verbose, "list passing cases too");
    test->add_flag("--raw-only", options->rawOnly,
                   "check cases on their raw lines only (skip reading them through the importers as analyze does)");
    test->callback([options, &cli] { cli.exitCode = runRulesTest(*options, cli); });
    addRulesPatternsCommand(*rules, cli);
}

}  // namespace attrib::cli
