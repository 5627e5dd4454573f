// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval DIR: every bundle with an expected.json, scored on terminal state, sub-domain and root-cause node.
#include "app/cli/cli.h"

#include "engine/expectation.h"
#include "engine/safe_text.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <CLI/CLI.hpp>

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
    std::string rulesDir;
    bool verbose = false;
};

int runEval(const EvalOptions& o, const CliContext& cli)
{
    const auto bundles = bundlesUnder(o.dir);
    if (bundles.empty()) {
        std::cerr << "attrib: no bundle with an expected.json under " << engine::terminalSafe(o.dir) << "\n";
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
            std::cout << engine::terminalSafe(bundle.filename().string() + ": invalid expected.json: " + e.what())
                      << "\n";
            ++score.total;
            continue;
        }
        const auto outcome = importers::analyzeBundle(bundle.string(), catalog);
        ++score.total;
        nlohmann::json got = nlohmann::json::object();
        std::vector<std::string> failures;
        if (outcome.result) {
            // Round trip through the JSON output (invalid UTF-8 in names becomes U+FFFD, as in `analyze --json`).
            const auto verdict =
                nlohmann::ordered_json::parse(engine::dumpJson(engine::verdictToJson(*outcome.result)));
            got = nlohmann::json::parse(verdict.dump());
            failures = engine::compareWithExpected(verdict, expected);
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
        std::cout << std::setw(28) << engine::terminalSafe(bundle.filename().string()) << std::setw(44)
                  << engine::terminalSafe(field(expected, "terminal_state") + "/" + field(expected, "sub_domain") +
                                          "/" + rootNode(expected))
                  << std::setw(44)
                  << engine::terminalSafe(field(got, "terminal_state") + "/" + field(got, "sub_domain") + "/" +
                                          rootNode(got))
                  << (failures.empty() ? "pass" : "FAIL") << "\n";
        if (o.verbose || !failures.empty())
            for (const auto& f : failures)
                std::cout << "    " << engine::terminalSafe(f) << "\n";
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
    auto* sub = app.add_subcommand("eval", "score every bundle with an expected.json under DIR");
    sub->add_option("DIR", options->dir, "folder of labeled bundles (each with an expected.json)")->required();
    addRulesOption(*sub, options->rulesDir);
    sub->add_flag("-v,--verbose", options->verbose, "print every comparison, not only failures");
    sub->callback([options, &cli] { cli.exitCode = runEval(*options, cli); });
}

}  // namespace attrib::cli
