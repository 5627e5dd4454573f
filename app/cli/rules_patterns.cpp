// SPDX-License-Identifier: GPL-3.0-or-later
// attrib rules patterns: the catalog's extractor patterns, one per line, in a form ripgrep accepts
// (`rg -f <(attrib rules patterns)`): the benchmark's "same patterns" for a side-by-side search.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <set>

namespace attrib::cli {

namespace {

/// ripgrep joins every -f pattern into one regex, so named groups would clash: `(?P<name>` and `(?<name>`
/// become non-capturing `(?:`. Escapes and character classes are copied as they are.
std::string forRipgrep(const std::string& pattern)
{
    std::string out;
    out.reserve(pattern.size());
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            out += pattern.substr(i, 2);
            ++i;
            continue;
        }
        if (inClass) {
            inClass = c != ']';
            out += c;
            continue;
        }
        if (c == '[') {
            inClass = true;
            out += c;
            if (i + 1 < pattern.size() && pattern[i + 1] == ']')  // `[]...]`: the first ] is literal
                out += pattern[++i];
            continue;
        }
        const bool named = pattern.compare(i, 4, "(?P<") == 0 ||
            (pattern.compare(i, 3, "(?<") == 0 && i + 3 < pattern.size() && pattern[i + 3] != '=' &&
             pattern[i + 3] != '!');
        const std::size_t close = named ? pattern.find('>', i) : std::string::npos;
        if (close != std::string::npos) {
            out += "(?:";
            i = close;
            continue;
        }
        out += c;
    }
    return out;
}

struct PatternsOptions {
    std::string rulesDir;
};

int runPatterns(const PatternsOptions& o, const CliContext& cli)
{
    const auto catalog = loadCatalogFor(o.rulesDir, cli);
    std::set<std::string> seen;
    for (const auto& rule : catalog->extractors()) {
        if (!rule.re)  // a rule the catalog rejected is not used by the analysis either
            continue;
        const std::string pattern = forRipgrep(rule.pattern);
        if (pattern.find('\n') == std::string::npos && seen.insert(pattern).second)
            std::cout << pattern << "\n";
    }
    if (seen.empty()) {
        std::cerr << "attrib: no usable extractor patterns in " << catalog->directory() << "\n";
        return 3;
    }
    return 0;
}

}  // namespace

void addRulesPatternsCommand(CLI::App& rules, CliContext& cli)
{
    auto options = std::make_shared<PatternsOptions>();
    auto* sub = rules.add_subcommand("patterns",
                                     "print the extractor patterns one per line, as ripgrep accepts "
                                     "them (rg -f): named groups become non-capturing");
    addRulesOption(*sub, options->rulesDir);
    sub->callback([options, &cli] { cli.exitCode = runPatterns(*options, cli); });
}

}  // namespace attrib::cli
