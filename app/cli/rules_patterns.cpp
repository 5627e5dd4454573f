// SPDX-License-Identifier: GPL-3.0-or-later
// attrib rules patterns: the catalog's extractor patterns, one per line, in a form ripgrep accepts
// (`rg -f <(attrib rules patterns)`): the benchmark's "same patterns" for a side-by-side search. A rule's numeric
// conditions (`require`), word maps (`map`) and exclusions (`exclude`) have no regex form: its pattern alone is
// printed, which finds a superset of its lines.
// The context patterns of rules that need an earlier line follow the rules' own patterns, then the `after` patterns of
// rules that a later line decides.
#include "app/cli/cli.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <iostream>
#include <memory>
#include <set>
#include <string_view>

namespace attrib::cli {

namespace {

/// RE2's Perl classes are ASCII (`\d` = [0-9], `\w` = [0-9A-Za-z_], `\s` = [\t\n\f\r ], `\b` at ASCII word
/// characters); ripgrep's are Unicode. Spelled out, ripgrep searches for what the analysis searches for, and its
/// joined regex stays far inside its size limit (with Unicode `\w` the catalog came close to it). Empty when the
/// escape is copied as it is (a negated class inside a bracket expression, any other escape).
std::string asciiClass(char escape, bool inClass)
{
    switch (escape) {
    case 'd': return inClass ? "0-9" : "[0-9]";
    case 'w': return inClass ? "0-9A-Za-z_" : "[0-9A-Za-z_]";
    case 's': return inClass ? "\\t\\n\\f\\r " : "[\\t\\n\\f\\r ]";
    case 'D': return inClass ? "" : "[^0-9]";
    case 'W': return inClass ? "" : "[^0-9A-Za-z_]";
    case 'S': return inClass ? "" : "[^\\t\\n\\f\\r ]";
    case 'b': return inClass ? "" : "(?-u:\\b)";
    case 'B': return inClass ? "" : "(?-u:\\B)";
    default: return "";
    }
}

/// Punctuation RE2 lets a pattern escape but the regex crate of ripgrep 13 (Debian 12) refuses to see escaped
/// (`\"`, `\:`, `\/`, `\<`): a literal either way, so the backslash is dropped. Its own escapable characters keep it.
bool superfluousEscape(char c)
{
    static constexpr std::string_view kept = "\\.+*?()|[]{}^$#&-~";
    return std::ispunct(static_cast<unsigned char>(c)) && kept.find(c) == std::string_view::npos;
}

/// ripgrep joins every -f pattern into one regex, so named groups would clash: `(?P<name>` and `(?<name>`
/// become non-capturing `(?:`. Perl classes become RE2's ASCII ones (asciiClass), superfluous escapes lose their
/// backslash; other escapes and character classes are copied as they are.
std::string forRipgrep(const std::string& pattern)
{
    std::string out;
    out.reserve(pattern.size());
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const std::string ascii = asciiClass(pattern[i + 1], inClass);
            out += !ascii.empty()                   ? ascii
                : superfluousEscape(pattern[i + 1]) ? pattern.substr(i + 1, 1)
                                                    : pattern.substr(i, 2);
            ++i;
            // `[\w-.]`: the dash after a class is literal; after the spelled-out range it would start a range.
            if (!ascii.empty() && inClass && i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
                out += "\\-";
                ++i;
            }
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
    // Then the context patterns (the earlier lines some rules need), which the analysis searches for too.
    for (const auto& rule : catalog->extractors()) {
        if (!rule.re || !rule.context)
            continue;
        const std::string pattern = forRipgrep(rule.context->pattern);
        if (pattern.find('\n') == std::string::npos && seen.insert(pattern).second)
            std::cout << pattern << "\n";
    }
    // Then the `after` patterns (the later lines that decide some rules' lines), searched for too.
    for (const auto& rule : catalog->extractors()) {
        if (!rule.re || !rule.after)
            continue;
        const std::string pattern = forRipgrep(rule.after->pattern);
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
