// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval DIR: every bundle with an expected.json, scored on terminal state, sub-domain and root-cause node.
// attrib eval --store FILE: the same score against the analysts' labels of the stored cases.
#include "app/cli/cli.h"

#include "engine/expectation.h"
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

struct Score {
    int total = 0;
    int terminal = 0;
    int subDomain = 0;
    int node = 0;
    int passed = 0;
};

std::string field(const nlohmann::json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || j[key].is_null())
        return "-";
    return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

std::string rootNode(const nlohmann::json& j)
{
    return j.contains("root_cause") && j["root_cause"].is_object() ? field(j["root_cause"], "node") : "-";
}

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

struct EvalOptions {
    std::string dir;
    std::string storeFile;
    std::string rulesDir;
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

int runEval(const EvalOptions& o, const CliContext& cli)
{
    if (o.dir.empty() == o.storeFile.empty()) {
        std::cerr << "attrib: eval takes either DIR or --store FILE\n";
        return 2;
    }
    if (!o.storeFile.empty())
        return runStoreEval(o, cli);
    const auto bundles = bundlesUnder(o.dir);
    if (bundles.empty()) {
        std::cerr << "attrib: no bundle with an expected.json under " << o.dir << "\n";
        return 2;
    }
    const auto catalog = loadCatalogFor(o.rulesDir, cli);
    Score score;
    std::cout << std::left << std::setw(28) << "bundle" << std::setw(44) << "expected (state/domain/node)"
              << std::setw(44) << "got"
              << "result\n";
    for (const auto& bundle : bundles) {
        std::ifstream in(bundle / "expected.json");
        nlohmann::json expected;
        try {
            in >> expected;
        } catch (const std::exception& e) {
            std::cout << bundle.filename().string() << ": invalid expected.json: " << e.what() << "\n";
            ++score.total;
            continue;
        }
        const auto outcome = importers::analyzeBundle(bundle.string(), catalog);
        ++score.total;
        nlohmann::json got = nlohmann::json::object();
        std::vector<std::string> failures;
        if (outcome.result) {
            got = nlohmann::json::parse(engine::verdictToJson(*outcome.result).dump());
            failures = engine::compareWithExpected(engine::verdictToJson(*outcome.result), expected);
        } else {
            failures.push_back(outcome.error);
        }
        const bool terminalOk = field(expected, "terminal_state") == field(got, "terminal_state");
        const bool domainOk =
            !expected.contains("sub_domain") || field(expected, "sub_domain") == field(got, "sub_domain");
        const bool nodeOk = !expected.contains("root_cause") || rootNode(expected) == rootNode(got);
        score.terminal += terminalOk;
        score.subDomain += domainOk;
        score.node += nodeOk;
        score.passed += failures.empty();
        std::cout << std::setw(28) << bundle.filename().string() << std::setw(44)
                  << (field(expected, "terminal_state") + "/" + field(expected, "sub_domain") + "/" +
                      rootNode(expected))
                  << std::setw(44)
                  << (field(got, "terminal_state") + "/" + field(got, "sub_domain") + "/" + rootNode(got))
                  << (failures.empty() ? "pass" : "FAIL") << "\n";
        if (o.verbose || !failures.empty())
            for (const auto& f : failures)
                std::cout << "    " << f << "\n";
    }
    std::cout << "\nterminal_state " << score.terminal << "/" << score.total << ", sub_domain " << score.subDomain
              << "/" << score.total << ", root-cause node " << score.node << "/" << score.total << "\n";
    std::cout << score.passed << " passed, " << score.total - score.passed << " failed\n";
    return score.passed == score.total ? 0 : 1;
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
    sub->add_flag("-v,--verbose", options->verbose, "print every comparison, not only failures");
    sub->callback([options, &cli] { cli.exitCode = runEval(*options, cli); });
}

}  // namespace attrib::cli
