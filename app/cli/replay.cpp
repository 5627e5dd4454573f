// SPDX-License-Identifier: GPL-3.0-or-later
// attrib replay [DIR] [--rules NEW] [--baseline OLD]: two catalogs over every bundle of a corpus (the
// samples by default); lists each verdict that changed.
#include "app/cli/cli.h"

#include "engine/corpus_impact.h"
#include "engine/safe_text.h"
#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace fs = std::filesystem;

namespace attrib::cli {

namespace {

/// The sample corpus: next to an installed binary, else the source tree's samples/.
std::string defaultCorpus(const std::string& executable)
{
    return rules::findSamplesDir(executable);
}

nlohmann::ordered_json impactJson(const engine::CorpusImpact& impact)
{
    nlohmann::ordered_json j;
    j["baseline"] = {{"rules", impact.baselineDir}, {"hash", impact.baselineHash}};
    j["new"] = {{"rules", impact.candidateDir}, {"hash", impact.candidateHash}};
    j["new_problems"] = impact.newProblems;
    auto list = nlohmann::ordered_json::array();
    for (const auto& b : impact.bundles) {
        nlohmann::ordered_json e;
        e["bundle"] = b.name;
        e["changed"] = b.changed();
        e["baseline"] = b.baseline;
        e["new"] = b.candidate;
        if (!b.error.empty())
            e["error"] = b.error;
        auto symptoms = nlohmann::ordered_json::array();
        for (const auto& s : b.diff.symptoms)
            symptoms.push_back({{"id", s.id}, {"change", s.describe()}});
        e["symptoms"] = symptoms;
        list.push_back(std::move(e));
    }
    j["bundles"] = list;
    j["changed"] = impact.changedCount();
    return j;
}

struct ReplayOptions {
    std::string corpus;
    std::string rulesDir;
    std::string baselineDir;
    bool json = false;
    bool verbose = false;
};

int runReplay(const ReplayOptions& o, const CliContext& cli)
{
    const std::string corpus = o.corpus.empty() ? defaultCorpus(cli.executable) : o.corpus;
    const auto bundles = engine::listBundles(corpus);
    if (bundles.empty()) {
        std::cerr << "attrib: no bundle under " << engine::terminalSafe(corpus) << "\n";
        return 1;
    }
    const auto baseline = loadCatalogFor(o.baselineDir, cli);
    const auto candidate = loadCatalogFor(o.rulesDir, cli);
    if (baseline->directory() == candidate->directory())
        std::cerr << "attrib: note: baseline and new catalog are the same folder ("
                  << engine::terminalSafe(baseline->directory()) << "); give --rules NEW (and --baseline OLD)\n";
    const engine::BundleAnalyzer analyze = [](const std::string& bundle, const engine::CatalogPtr& catalog,
                                              std::string& err) -> engine::AnalysisSnapshot {
        auto outcome = importers::analyzeBundle(bundle, catalog);
        err = outcome.error;
        return outcome.result;
    };
    const auto impact = engine::runCorpusImpact(bundles, baseline, candidate, analyze);
    if (o.json)
        std::cout << impactJson(impact).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        std::cout << engine::terminalSafeBlock(engine::corpusImpactText(impact, o.verbose));
    return 0;
}

}  // namespace

void addReplayCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<ReplayOptions>();
    auto* sub = app.add_subcommand("replay", "run two catalogs over a corpus and list every verdict that changes");
    sub->add_option("DIR", options->corpus, "corpus of bundles (default: the samples)");
    addRulesOption(*sub, options->rulesDir, "the new catalog");
    sub->add_option("--baseline", options->baselineDir,
                    "the baseline catalog (default: the installed or source catalog)")
        ->option_text("DIR");
    sub->add_flag("--json", options->json, "print the comparison as JSON");
    sub->add_flag("-v,--verbose", options->verbose, "list unchanged bundles too");
    sub->callback([options, &cli] { cli.exitCode = runReplay(*options, cli); });
}

}  // namespace attrib::cli
