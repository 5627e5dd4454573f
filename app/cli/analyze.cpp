// SPDX-License-Identifier: GPL-3.0-or-later
// attrib analyze BUNDLE: the verdict of one evidence bundle, as text or JSON.
#include "app/cli/cli.h"

#include "engine/report.h"
#include "engine/safe_text.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>

namespace attrib::cli {

namespace {

struct AnalyzeOptions {
    std::string bundle;
    std::string rulesDir;
    std::string traceFile;
    bool json = false;
};

int runAnalyze(const AnalyzeOptions& o, const CliContext& cli)
{
    const auto catalog = loadCatalogFor(o.rulesDir, cli);
    for (const auto& d : catalog->diagnostics())
        std::cerr << "attrib: catalog: " << engine::terminalSafe(d.str()) << "\n";
    if (catalog->extractors().empty()) {
        std::cerr << "attrib: no usable rules in " << engine::terminalSafe(catalog->directory()) << "\n";
        return 3;
    }
    const auto outcome = importers::analyzeBundle(o.bundle, catalog);
    if (!outcome.result) {
        std::cerr << "attrib: " << engine::terminalSafe(outcome.error) << "\n";
        return 1;
    }
    const auto& result = *outcome.result;
    if (!o.traceFile.empty()) {
        std::ofstream trace(o.traceFile, std::ios::binary);
        trace << engine::dumpJson(engine::traceToJson(result.trace));
        if (!trace) {
            std::cerr << "attrib: cannot write trace to " << engine::terminalSafe(o.traceFile) << "\n";
            return 1;
        }
    }
    std::cout << (o.json ? engine::dumpJson(engine::verdictToJson(result)) : engine::reportText(result));
    return 0;
}

}  // namespace

void addAnalyzeCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<AnalyzeOptions>();
    auto* sub = app.add_subcommand("analyze", "analyse an evidence bundle (a folder or an archive of one)");
    sub->add_option("BUNDLE", options->bundle, "bundle folder, or a .tar, .tar.gz, .tgz or .zip of one")->required();
    sub->add_flag("--json", options->json, "print the verdict JSON (docs/verdict.md) instead of the text report");
    addRulesOption(*sub, options->rulesDir);
    sub->add_option("--trace", options->traceFile, "write the rule trace (JSON) to FILE")->option_text("FILE");
    sub->callback([options, &cli] { cli.exitCode = runAnalyze(*options, cli); });
}

}  // namespace attrib::cli
