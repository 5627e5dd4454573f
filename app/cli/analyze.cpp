// SPDX-License-Identifier: GPL-3.0-or-later
// attrib analyze BUNDLE... [--store FILE]: the verdict of an evidence bundle, as text or JSON; with a store,
// each bundle becomes a case (several bundles are analysed in parallel).
#include "app/cli/cli.h"

#include "engine/report.h"
#include "engine/safe_text.h"
#include "engine/store/case_record.h"
#include "engine/store/sqlite_case_store.h"
#include "engine/verdict_json.h"
#include "importers/analyze_parallel.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

namespace attrib::cli {

namespace {

struct AnalyzeOptions {
    std::vector<std::string> bundles;
    std::string rulesDir;
    std::string traceFile;
    std::string storeFile;
    ServiceCall service;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool json = false;
};

/// Saves one analysed bundle as a case; the case id goes to stderr so stdout stays the report.
int saveCase(const engine::AnalysisResult& result, const std::string& storeFile)
{
    auto caseStore = openStoreFor(storeFile, false);
    if (!caseStore)
        return 1;
    try {
        const auto record = store::makeCaseRecord(result, store::bundleContentHash(result), store::nowNs());
        std::cerr << "attrib: saved as case " << caseStore->addCase(record) << " in " << storeFile << "\n";
        return 0;
    } catch (const store::StoreError& e) {
        std::cerr << "attrib: " << result.bundlePath << ": not saved: " << e.what() << "\n";
        return 1;
    }
}

int runAnalyze(const AnalyzeOptions& o, const CliContext& cli)
{
    if (!o.service.url.empty() && (o.bundles.size() > 1 || !o.storeFile.empty() || !o.traceFile.empty())) {
        std::cerr << "attrib: --service takes one bundle and neither --store nor --trace\n";
        return 2;
    }
    if ((o.service.compare || !o.service.tokenFile.empty()) && o.service.url.empty()) {
        std::cerr << "attrib: --compare and --token-file need --service URL\n";
        return 2;
    }
    if (!o.service.url.empty() && !cli.net.analyzeWithService)
        return relayToNet(cli);
    if (o.bundles.size() > 1 && (o.storeFile.empty() || o.json || !o.traceFile.empty())) {
        std::cerr << "attrib: several bundles need --store FILE (and take neither --json nor --trace)\n";
        return 2;
    }
    const auto catalog = loadCatalogFor(o.rulesDir, cli);
    if (catalog->extractors().empty()) {
        std::cerr << "attrib: no usable rules in " << engine::terminalSafe(catalog->directory()) << "\n";
        return 3;
    }
    if (o.bundles.size() > 1)
        return analyzeIntoStore(o.bundles, o.storeFile, catalog, o.jobs);
    importers::AnalyzeOptions analysis;
    analysis.keepTrace = !o.traceFile.empty() || !o.storeFile.empty() || !o.service.url.empty();
    const auto outcome = importers::analyzeBundleParallel(o.bundles.front(), catalog, analysis, o.jobs);
    if (!outcome.result) {
        std::cerr << "attrib: " << engine::terminalSafe(outcome.error) << "\n";
        return 1;
    }
    const auto& result = *outcome.result;
    if (!o.service.url.empty()) {
        ServiceCall call = o.service;
        call.json = o.json;
        return cli.net.analyzeWithService(result, call, catalog);
    }
    if (!o.traceFile.empty()) {
        std::ofstream trace(o.traceFile, std::ios::binary);
        engine::writeJson(trace, engine::traceToJson(result.trace));
        if (!trace) {
            std::cerr << "attrib: cannot write trace to " << engine::terminalSafe(o.traceFile) << "\n";
            return 1;
        }
    }
    if (o.json)
        engine::writeJson(std::cout, engine::verdictToJson(result));
    else
        std::cout << engine::reportText(result);
    return o.storeFile.empty() ? 0 : saveCase(result, o.storeFile);
}

}  // namespace

void addAnalyzeCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<AnalyzeOptions>();
    auto* sub = app.add_subcommand("analyze", "analyse evidence bundles (folders or archives of one)");
    sub->add_option("BUNDLE", options->bundles, "bundle folder, or a .tar, .tar.gz, .tgz or .zip of one")->required();
    sub->add_flag("--json", options->json, "print the verdict JSON (docs/verdict.md) instead of the text report");
    addRulesOption(*sub, options->rulesDir);
    sub->add_option("--trace", options->traceFile, "write the rule trace (JSON) to FILE")->option_text("FILE");
    sub->add_option("--store", options->storeFile, "save each bundle's analysis as a case in this case store")
        ->option_text("FILE");
    sub->add_option("-j,--jobs", options->jobs,
                    "threads: files of a folder bundle read at once, or bundles analysed at once with --store "
                    "(default: CPU count; the verdict is the same for any value)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--service", options->service.url,
                    "send the bundle's observations to a Service (attrib serve) and print its verdict")
        ->option_text("URL");
    sub->add_option("--token-file", options->service.tokenFile, "the Service's bearer token, read from FILE")
        ->option_text("FILE");
    sub->add_flag("--compare", options->service.compare,
                  "with --service: local and Service verdicts side by side; exit 1 when they differ");
    sub->callback([options, &cli] { cli.exitCode = runAnalyze(*options, cli); });
}

}  // namespace attrib::cli
