// SPDX-License-Identifier: GPL-3.0-or-later
// attrib analyze / attrib rules test.
#include "app/cli/commands.h"

#include "engine/report.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"
#include "rules/cpp/builtin_rules.h"

#include <fstream>
#include <iostream>

namespace attrib::cli {

bool parseOptions(const std::vector<std::string>& args, Options& o, std::string& error)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= args.size()) {
                error = a + " needs a value";
                return false;
            }
            out = args[++i];
            return true;
        };
        if (a == "--json")
            o.json = true;
        else if (a == "--verbose" || a == "-v")
            o.verbose = true;
        else if (a == "--rules") {
            if (!value(o.rulesDir))
                return false;
        } else if (a == "--trace") {
            if (!value(o.traceFile))
                return false;
        } else if (a.size() > 1 && a[0] == '-') {
            error = "unknown option " + a;
            return false;
        } else {
            o.positional.push_back(a);
        }
    }
    return true;
}

namespace {

engine::CatalogPtr catalogFor(const Options& o)
{
    return rules::loadCatalog(rules::findRulesDir(o.rulesDir, o.executable));
}

}  // namespace

int runAnalyze(const Options& o)
{
    if (o.positional.size() != 1) {
        std::cerr << "attrib: analyze needs exactly one BUNDLE\n";
        return 2;
    }
    const auto catalog = catalogFor(o);
    for (const auto& d : catalog->diagnostics())
        std::cerr << "attrib: catalog: " << d.str() << "\n";
    if (catalog->extractors().empty()) {
        std::cerr << "attrib: no usable rules in " << catalog->directory() << "\n";
        return 3;
    }
    const auto outcome = importers::analyzeBundle(o.positional[0], catalog);
    if (!outcome.result) {
        std::cerr << "attrib: " << outcome.error << "\n";
        return 1;
    }
    const auto& result = *outcome.result;
    if (!o.traceFile.empty()) {
        std::ofstream trace(o.traceFile, std::ios::binary);
        trace << engine::dumpJson(engine::traceToJson(result.trace));
        if (!trace) {
            std::cerr << "attrib: cannot write trace to " << o.traceFile << "\n";
            return 1;
        }
    }
    std::cout << (o.json ? engine::dumpJson(engine::verdictToJson(result)) : engine::reportText(result));
    return 0;
}

int runRulesTest(const Options& o)
{
    const auto catalog = catalogFor(o);
    for (const auto& r : catalog->caseResults()) {
        if (!r.passed)
            std::cout << "FAIL " << r.where.str() << ": " << r.rule << " / " << r.name << ": " << r.failure << "\n";
        else if (o.verbose)
            std::cout << "ok   " << r.rule << " / " << r.name << "\n";
    }
    std::size_t errors = 0;
    for (const auto& d : catalog->diagnostics()) {
        std::cout << d.str() << "\n";
        errors += d.severity == engine::Diagnostic::Severity::Error;
    }
    std::cout << "catalog " << catalog->directory() << ": " << catalog->symptoms().size() << " symptoms, "
              << catalog->extractors().size() << " extractors, " << catalog->codeRules().size() << " C++ rules, "
              << catalog->refineRules().size() << " refinement rules, " << catalog->priorityTables().size()
              << " priority tables\n";
    std::cout << catalog->casesPassed() << " passed, " << catalog->casesFailed() << " failed\n";
    return catalog->casesFailed() == 0 && errors == 0 ? 0 : 1;
}

}  // namespace attrib::cli
