// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval DIR: every bundle with an expected.json (sample or real-corpus format, tests/real/README.md),
// scored on terminal state, sub-domain and culprit node, with per-domain and confusion tables and floors.
// attrib eval --store FILE: the same score against the analysts' labels of the stored cases.
#include "app/cli/cli.h"
#include "app/cli/eval_report.h"

#include "engine/expectation.h"
#include "engine/safe_text.h"
#include "engine/store/case_record.h"
#include "engine/store/sqlite_case_store.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iomanip>
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
        if (f.status == engine::CoverageStatus::Skipped && f.role == engine::FileRole::Evidence &&
            readableText(bundle / f.path))
            ++n;
    return n;
}

struct EvalOptions {
    std::string dir;
    std::string storeFile;
    std::string rulesDir;
    std::string heldout = "all";
    std::string floorFile;
    bool json = false;
    bool stored = false;
    bool verbose = false;
};

/// Per label field: how many cases state it and how many verdicts match.
struct LabelScore {
    int cases = 0;
    int passed = 0;
    std::array<int, 3> stated{};
    std::array<int, 3> agreed{};
};

/// The verdict a labeled case is scored on: the current catalog's (bundle re-analysed) or the stored one.
struct Scored {
    std::string terminalState, subDomain, rootNode, source;
};

Scored verdictFor(const store::CaseSummary& c, const engine::CatalogPtr& catalog)
{
    Scored stored{c.terminalState, c.subDomain, c.rootNode, "stored"};
    std::error_code ec;
    if (!catalog)
        return stored;
    if (!fs::exists(c.bundlePath, ec))
        return {c.terminalState, c.subDomain, c.rootNode, "stored (bundle missing)"};
    const auto outcome = importers::analyzeBundle(c.bundlePath, catalog);
    if (!outcome.result)
        return {c.terminalState, c.subDomain, c.rootNode, "stored (" + outcome.error + ")"};
    const auto& v = outcome.result->verdict;
    std::string source = "re-analysed";
    try {
        if (store::bundleContentHash(*outcome.result) != c.bundleHash)
            source += " (bundle changed since saved)";
    } catch (const store::StoreError&) {
        source += " (bundle unreadable)";
    }
    return {v.terminalState, v.subDomain, v.rootCause ? v.rootCause->node : std::string(), source};
}

int runStoreEval(const EvalOptions& o, const CliContext& cli)
{
    auto caseStore = openStoreFor(o.storeFile, true);
    if (!caseStore)
        return 1;
    store::CaseFilter filter;
    filter.labeledOnly = true;
    auto cases = caseStore->listCases(filter);
    if (cases.empty()) {
        std::cerr << "attrib: " << o.storeFile << ": no labeled case (attrib label FILE ID ...)\n";
        return 2;
    }
    std::reverse(cases.begin(), cases.end());
    const engine::CatalogPtr catalog = o.stored ? nullptr : loadCatalogFor(o.rulesDir, cli);
    LabelScore score;
    std::cout << std::left << std::setw(8) << "case" << std::setw(44) << "label (state/domain/node)" << std::setw(44)
              << "got" << std::setw(8) << "result"
              << "verdict\n";
    auto dash = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
    for (const auto& c : cases) {
        const Scored got = verdictFor(c, catalog);
        const auto a = store::compareLabel(*c.label, got.terminalState, got.subDomain, got.rootNode);
        const std::array<std::pair<const std::string*, bool>, 3> fields{
            {{&c.label->terminalState, a.terminalState}, {&c.label->subDomain, a.subDomain}, {&c.label->node, a.node}}};
        for (std::size_t i = 0; i < fields.size(); ++i) {
            score.stated[i] += !fields[i].first->empty();
            score.agreed[i] += !fields[i].first->empty() && fields[i].second;
        }
        ++score.cases;
        score.passed += a.stated == a.agreed;
        std::cout << std::setw(8) << c.id << std::setw(44)
                  << (dash(c.label->terminalState) + "/" + dash(c.label->subDomain) + "/" + dash(c.label->node))
                  << std::setw(44) << (got.terminalState + "/" + got.subDomain + "/" + dash(got.rootNode))
                  << std::setw(8) << (a.stated == a.agreed ? "pass" : "FAIL") << got.source << "\n";
    }
    std::cout << "\nterminal_state " << score.agreed[0] << "/" << score.stated[0] << ", sub_domain " << score.agreed[1]
              << "/" << score.stated[1] << ", root-cause node " << score.agreed[2] << "/" << score.stated[2] << "\n";
    std::cout << score.passed << " passed, " << score.cases - score.passed << " failed (" << score.cases
              << " labeled cases in " << o.storeFile << ")\n";
    return score.passed == score.cases ? 0 : 1;
}

engine::CaseScore evaluateBundle(const fs::path& bundle, const nlohmann::json& expected,
                                 const engine::CatalogPtr& catalog)
{
    const std::string name = bundle.filename().string();
    const auto outcome = importers::analyzeBundle(bundle.string(), catalog);
    if (!outcome.result)
        return engine::scoreCase(name, expected, nullptr, outcome.error, {});
    // Round trip through the JSON output: invalid UTF-8 in names becomes U+FFFD, as in `analyze --json`.
    const auto verdict = nlohmann::ordered_json::parse(engine::dumpJson(engine::verdictToJson(*outcome.result)));
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
    if (o.dir.empty() == o.storeFile.empty()) {
        std::cerr << "attrib: eval takes either DIR or --store FILE\n";
        return 2;
    }
    if (!o.storeFile.empty())
        return runStoreEval(o, cli);
    const auto filter = engine::parseHeldoutFilter(o.heldout);
    if (!filter) {
        std::cerr << "attrib: --heldout takes all, only, unseen or exclude\n";
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
    if (const std::size_t errors = catalogErrors(*catalog); errors > 0) {
        // Figures of a catalog that lost rules are not the catalog's figures: never a pass.
        std::cerr << "attrib: the catalog has " << errors
                  << " error(s) (above): these figures are of the rules that loaded, not of the catalog\n";
        return 1;
    }
    if (!o.floorFile.empty())
        return floorMisses.empty() ? 0 : 1;
    return std::all_of(scores.begin(), scores.end(), [](const auto& s) { return s.passed(); }) ? 0 : 1;
}

}  // namespace

void addEvalCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<EvalOptions>();
    auto* sub = app.add_subcommand(
        "eval", "score the catalog: every bundle with an expected.json under DIR, or the labeled cases of a store");
    sub->add_option("DIR", options->dir, "folder of labeled bundles (each with an expected.json)");
    sub->add_option("--store", options->storeFile, "score against the labels of this case store's cases")
        ->option_text("FILE");
    sub->add_flag("--stored", options->stored,
                  "with --store: score the stored verdicts instead of re-analysing the bundles");
    addRulesOption(*sub, options->rulesDir);
    sub->add_option("--heldout", options->heldout,
                    "which cases: all, only (the held-out part), unseen (held-out cases no rule author saw) or exclude")
        ->check(CLI::IsMember({"all", "only", "exclude"}));
    sub->add_flag("--json", options->json, "print the figures and per-case scores as JSON");
    sub->add_option("--floor", options->floorFile,
                    "JSON floor of figures (tests/real/README.md); exit 1 when any figure misses it");
    sub->add_flag("-v,--verbose", options->verbose, "print every comparison, not only failures");
    sub->callback([options, &cli] { cli.exitCode = runEval(*options, cli); });
}

}  // namespace attrib::cli
