// SPDX-License-Identifier: GPL-3.0-or-later
// attrib replay [DIR] [--rules NEW] [--baseline OLD]: two catalogs over every bundle of a corpus (the
// samples by default); lists each verdict that changed.
#include "app/cli/commands.h"

#include "engine/corpus_impact.h"
#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;

namespace attrib::cli {

namespace {

/// The sample corpus: next to an installed binary, else the source tree's samples/.
std::string defaultCorpus(const std::string& executable)
{
    std::error_code ec;
    const fs::path exe = fs::weakly_canonical(fs::path(executable), ec);
    const fs::path installed = exe.parent_path().parent_path() / "share" / "attribution-workbench" / "samples";
    if (fs::is_directory(installed, ec))
        return installed.string();
    return (fs::path(ATTRIB_SOURCE_RULES_DIR).parent_path() / "samples").string();
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

}  // namespace

int runReplay(std::vector<std::string> args, const std::string& executable)
{
    std::string baselineDir;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--baseline")
            continue;
        if (i + 1 >= args.size()) {
            std::cerr << "attrib: --baseline needs a value\n";
            return 2;
        }
        baselineDir = args[i + 1];
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
        break;
    }
    Options o;
    std::string error;
    if (!parseOptions(args, o, error) || o.positional.size() > 1) {
        std::cerr << "attrib: " << (error.empty() ? "replay takes at most one DIR" : error) << "\n";
        return 2;
    }
    const std::string corpus = o.positional.empty() ? defaultCorpus(executable) : o.positional[0];
    const auto bundles = engine::listBundles(corpus);
    if (bundles.empty()) {
        std::cerr << "attrib: no bundle under " << corpus << "\n";
        return 1;
    }
    const auto baseline = rules::loadCatalog(rules::findRulesDir(baselineDir, executable));
    const auto candidate = rules::loadCatalog(rules::findRulesDir(o.rulesDir, executable));
    if (baseline->directory() == candidate->directory())
        std::cerr << "attrib: note: baseline and new catalog are the same folder (" << baseline->directory()
                  << "); give --rules NEW (and --baseline OLD)\n";
    const engine::BundleAnalyzer analyze = [](const std::string& bundle, const engine::CatalogPtr& catalog,
                                              std::string& err) -> engine::AnalysisSnapshot {
        auto outcome = importers::analyzeBundle(bundle, catalog);
        err = outcome.error;
        return outcome.result;
    };
    const auto impact = engine::runCorpusImpact(bundles, baseline, candidate, analyze);
    if (o.json)
        std::cout << impactJson(impact).dump(2) << "\n";
    else
        std::cout << engine::corpusImpactText(impact, o.verbose);
    return 0;
}

}  // namespace attrib::cli
