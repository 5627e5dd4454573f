// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval DIR: every bundle with an expected.json (sample or real-corpus format, tests/real/README.md),
// scored on terminal state, sub-domain and culprit node, with per-domain and confusion tables and floors.
#include "app/cli/cli.h"
#include "app/cli/eval_report.h"

#include "engine/expectation.h"
#include "engine/safe_text.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace fs = std::filesystem;

namespace attrib::cli {

namespace {

std::vector<fs::path> bundlesUnder(const fs::path& dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    if (fs::exists(dir / "expected.json", ec))
        out.push_back(dir);
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (it->is_directory() && fs::exists(it->path() / "expected.json"))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool isMetadata(const std::string& rel)
{
    return rel == "expected.json" || rel == "SOURCE" || rel == "README.md" || rel == "LESSON.md";
}

/// Non-empty, and no NUL byte in its first 64 KiB: text a reader could use.
bool readableText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return false;
    std::string head(1 << 16, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return !head.empty() && head.find('\0') == std::string::npos;
}

int skippedTextFiles(const engine::AnalysisResult& result, const fs::path& bundle)
{
    int n = 0;
    for (const auto& f : result.fileCoverage)
        if (f.status == engine::CoverageStatus::Skipped && !isMetadata(f.path) && readableText(bundle / f.path))
            ++n;
    return n;
}

struct EvalOptions {
    std::string dir;
    std::string rulesDir;
    std::string heldout = "all";
    std::string floorFile;
    bool json = false;
    bool verbose = false;
};

engine::CaseScore evaluateBundle(const fs::path& bundle, const nlohmann::json& expected,
                                 const engine::CatalogPtr& catalog)
{
    const std::string name = bundle.filename().string();
    const auto outcome = importers::analyzeBundle(bundle.string(), catalog);
    if (!outcome.result)
        return engine::scoreCase(name, expected, nullptr, outcome.error, {});
    const auto verdict = engine::verdictToJson(*outcome.result);
    engine::CaseFacts facts;
    facts.skippedTextFiles = skippedTextFiles(*outcome.result, bundle);
    return engine::scoreCase(name, expected, &verdict, {}, facts);
}

/// Reads every case's truth first, analyses only the selected ones.
std::vector<engine::CaseScore> scoreAll(const std::vector<fs::path>& bundles, engine::HeldoutFilter filter,
                                        const engine::CatalogPtr& catalog)
{
    std::vector<engine::CaseScore> scores;
    for (const auto& bundle : bundles) {
        const std::string name = bundle.filename().string();
        nlohmann::json expected;
        try {
            std::ifstream in(bundle / "expected.json");
            in >> expected;
            engine::CaseScore probe;
            probe.truth = engine::readCaseTruth(expected);
            if (!engine::selectedBy(probe, filter))
                continue;
        } catch (const std::exception& e) {
            scores.push_back(engine::errorCase(name, std::string("invalid expected.json: ") + e.what()));
            continue;
        }
        scores.push_back(evaluateBundle(bundle, expected, catalog));
    }
    return scores;
}

/// Exit code: with a floor, 1 when a figure misses it; without, 1 when any case fails.
int runEval(const EvalOptions& o, const CliContext& cli)
{
    const auto filter = engine::parseHeldoutFilter(o.heldout);
    if (!filter) {
        std::cerr << "attrib: --heldout takes all, only or exclude\n";
        return 2;
    }
    nlohmann::json floor;
    if (!o.floorFile.empty()) {
        std::ifstream in(o.floorFile);
        try {
            if (!in)
                throw std::runtime_error("cannot be read");
            in >> floor;
            engine::checkFloor(evalFigures({}), floor);  // an unknown figure is bad input: say so before analysing
        } catch (const std::exception& e) {
            std::cerr << "attrib: " << o.floorFile << ": " << e.what() << "\n";
            return 2;
        }
    }
    const auto bundles = bundlesUnder(o.dir);
    if (bundles.empty()) {
        std::cerr << "attrib: no bundle with an expected.json under " << engine::terminalSafe(o.dir) << "\n";
        return 2;
    }
    const auto catalog = loadCatalogFor(o.rulesDir, cli);
    const auto scores = scoreAll(bundles, *filter, catalog);
    const auto figures = evalFigures(scores);
    std::vector<std::string> floorMisses;
    if (!o.floorFile.empty()) {
        try {
            floorMisses = engine::checkFloor(figures, floor);
        } catch (const std::exception& e) {
            std::cerr << "attrib: " << o.floorFile << ": " << e.what() << "\n";
            return 2;
        }
    }
    if (o.json)
        printEvalJson(std::cout, scores, figures, floorMisses);
    else
        printEvalText(std::cout, scores, o.verbose, floorMisses);
    if (!o.floorFile.empty())
        return floorMisses.empty() ? 0 : 1;
    return std::all_of(scores.begin(), scores.end(), [](const auto& s) { return s.passed(); }) ? 0 : 1;
}

}  // namespace

void addEvalCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<EvalOptions>();
    auto* sub = app.add_subcommand("eval", "score every bundle with an expected.json under DIR");
    sub->add_option("DIR", options->dir, "folder of labeled bundles (each with an expected.json)")->required();
    addRulesOption(*sub, options->rulesDir);
    sub->add_option("--heldout", options->heldout, "which cases: all, only (the held-out part) or exclude")
        ->check(CLI::IsMember({"all", "only", "exclude"}));
    sub->add_flag("--json", options->json, "print the figures and per-case scores as JSON");
    sub->add_option("--floor", options->floorFile,
                    "JSON floor of figures (tests/real/README.md); exit 1 when any figure misses it");
    sub->add_flag("-v,--verbose", options->verbose, "print every comparison, not only failures");
    sub->callback([options, &cli] { cli.exitCode = runEval(*options, cli); });
}

}  // namespace attrib::cli
