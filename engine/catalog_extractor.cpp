// SPDX-License-Identifier: GPL-3.0-or-later
// Loading one extractor: its pattern (checked, compiled lazily), the fields beside it (`require`, `context`,
// `exclude`, `map`, `set`) and its inline cases. Split from catalog.cpp along the extractor's own fields.
#include "engine/catalog.h"
#include "engine/catalog_loader.h"
#include "engine/lazy_regex.h"
#include "engine/number.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace attrib::engine {

namespace {

std::string str(const json& obj, const char* key, const std::string& fallback = {})
{
    return catalogString(obj, key, fallback);
}

/// Longest extractor pattern and largest compiled program accepted: far above the catalog's own (a few
/// hundred characters), far below what makes compiling slow or a per-kind set fail.
constexpr std::size_t MaxPatternBytes = std::size_t{16} * 1024;
constexpr int MaxProgramSize = 5000;  // the catalog's largest is ~2,700
// One object of a tool's report at most (a `kubectl describe node` header and its Conditions rows).
constexpr std::int64_t MaxContextLines = 200;

/// Options of every extractor pattern: errors are reported by the loader, not logged by RE2.
re2::RE2::Options patternOptions()
{
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(8 << 20);
    return options;
}

/// Why a pattern cannot be kept as written: a raw control character (a newline typed into a JSON string, a tab)
/// matches what it says, but it splits the pattern's line in `attrib rules patterns` and hides in every listing.
/// Empty when the pattern holds none; the escaped forms (`\\n`, `\\t`, `\\x1b`) say the same and are kept.
std::string rawControlCharacter(const std::string& pattern)
{
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const auto byte = static_cast<unsigned char>(pattern[i]);
        if (byte < 0x20 || byte == 0x7f) {
            static const char* const hex = "0123456789abcdef";
            return std::string("holds a raw control character (byte 0x") + hex[byte >> 4] + hex[byte & 15] +
                " at offset " + std::to_string(i) +
                "); write the regex escape \\n, \\t or \\xNN instead (\\\\n in JSON)";
        }
    }
    return {};
}

}  // namespace

bool Catalog::Loader::compilePattern(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    const int line = lineAt(JsonPositions::child(pointer, "pattern"));
    if (rule.pattern.size() > MaxPatternBytes) {
        error(rule.id, line,
              "pattern of " + std::to_string(rule.pattern.size()) + " bytes is over the cap of " +
                  std::to_string(MaxPatternBytes) + "; rule left out");
        return false;
    }
    if (const std::string why = rawControlCharacter(rule.pattern); !why.empty()) {
        error(rule.id, line, "pattern " + why + "; rule left out");
        return false;
    }
    const re2::RE2::Options options = patternOptions();
    const re2::RE2 re(rule.pattern, options);  // checked now, compiled again only by the rule's first hit
    if (!re.ok()) {
        error(rule.id, line, "invalid pattern: " + re.error());
        return false;
    }
    if (re.ProgramSize() > MaxProgramSize) {
        error(rule.id, line,
              "pattern compiles to " + std::to_string(re.ProgramSize()) + " instructions, over the cap of " +
                  std::to_string(MaxProgramSize) + "; rule left out");
        return false;
    }
    // A condition on a capture the pattern does not have would silently never hold. `gpu__2` sets `gpu`.
    const auto& groups = re.NamedCapturingGroups();
    const auto named = [&](const std::string& capture) {
        return std::any_of(groups.begin(), groups.end(),
                           [&](const auto& group) { return captureField(group.first) == capture; });
    };
    for (const auto& condition : rule.require) {
        for (const std::string* capture : {&condition.capture, &condition.boundCapture}) {
            if (capture->empty() || named(*capture))
                continue;
            error(rule.id, lineAt(JsonPositions::child(pointer, "require")),
                  "require '" + condition.capture + "': the pattern has no named group '" + *capture +
                      "'; rule left out");
            return false;
        }
    }
    // A capture named like a value every summary gets from the engine ({count} occurrences, {name} the symptom, ...)
    // would be silently replaced by the engine's value in summaries and reasons.
    for (const auto& group : groups) {
        const std::string base = captureField(group.first);
        if (base == "count" || base == "name" || base == "id" || base == "domain" || base == "time") {
            error(rule.id, line,
                  "named group '" + group.first + "': {" + base +
                      "} is the engine's own template value; rename the capture; rule left out");
            return false;
        }
    }
    for (const auto& [capture, words] : rule.map) {
        if (named(capture))
            continue;
        error(rule.id, lineAt(JsonPositions::child(pointer, "map")),
              "map '" + capture + "': the pattern has no named group '" + capture + "'; rule left out");
        return false;
    }
    rule.re = std::make_shared<const LazyRegex>(rule.pattern, options, re.ProgramSize());
    (void)r;
    return true;
}

bool NumberCondition::holds(double x, double bound) const
{
    switch (op) {
    case Op::Less: return x < bound;
    case Op::LessEqual: return x <= bound;
    case Op::Greater: return x > bound;
    case Op::GreaterEqual: return x >= bound;
    case Op::Equal: return x == bound;
    case Op::NotEqual: return x != bound;
    }
    return false;
}

namespace {

/// A capture name as a bound: a letter or `_`, then letters, digits and `_` (RE2's group names).
bool isCaptureName(std::string_view v)
{
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
    return !v.empty() && !std::isdigit(static_cast<unsigned char>(v.front())) && std::all_of(v.begin(), v.end(), word);
}

/// `">= 90"`, `"< 50"`, `"== 1"`: an operator, then a number read by the checked parser, or the name of another
/// capture (`"> crit"`).
std::optional<NumberCondition> parseNumberCondition(const std::string& capture, std::string_view text)
{
    static constexpr std::pair<std::string_view, NumberCondition::Op> Ops[] = {
        {">=", NumberCondition::Op::GreaterEqual}, {"<=", NumberCondition::Op::LessEqual},
        {"==", NumberCondition::Op::Equal},        {"!=", NumberCondition::Op::NotEqual},
        {">", NumberCondition::Op::Greater},       {"<", NumberCondition::Op::Less}};
    const auto trim = [](std::string_view v) {
        while (!v.empty() && v.front() == ' ')
            v.remove_prefix(1);
        while (!v.empty() && v.back() == ' ')
            v.remove_suffix(1);
        return v;
    };
    text = trim(text);
    for (const auto& [word, op] : Ops) {
        if (text.substr(0, word.size()) != word)
            continue;
        const std::string_view bound = trim(text.substr(word.size()));
        if (isCaptureName(bound))
            return NumberCondition{capture, op, 0, std::string(bound)};
        const auto value = parseFinite(bound);
        if (!value)
            return std::nullopt;
        return NumberCondition{capture, op, *value, {}};
    }
    return std::nullopt;
}

}  // namespace

/// `"require": {"capture": "OP NUMBER", ...}`; compilePattern checks that each capture is a named group.
bool Catalog::Loader::parseRequire(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    if (!r.is_object() || !r.contains("require"))
        return true;
    const int line = lineAt(JsonPositions::child(pointer, "require"));
    const json& require = r["require"];
    if (!require.is_object() || require.empty()) {
        error(rule.id, line, "'require' must be an object of capture: \"OP NUMBER\"; rule left out");
        return false;
    }
    for (const auto& [capture, v] : require.items()) {
        const auto condition =
            v.is_string() ? parseNumberCondition(capture, v.get<std::string>()) : std::optional<NumberCondition>();
        if (!condition) {
            error(rule.id, line,
                  "require '" + capture +
                      "': expected \"OP NUMBER\" or \"OP CAPTURE\" (OP one of < <= > >= == !=), got " + v.dump() +
                      "; rule left out");
            return false;
        }
        rule.require.push_back(*condition);
    }
    return true;
}

/// A pattern beside the rule's own (`context`, `exclude`): checked against the same caps, compiled lazily; null
/// (with a diagnostic) when it is invalid or too large.
std::shared_ptr<const LazyRegex> Catalog::Loader::compileSidePattern(const std::string& ruleId, int line,
                                                                     const char* what, const std::string& pattern)
{
    if (const std::string why = rawControlCharacter(pattern); !why.empty()) {
        error(ruleId, line, std::string(what) + " pattern " + why + "; rule left out");
        return nullptr;
    }
    const re2::RE2::Options options = patternOptions();
    const re2::RE2 re(pattern, options);
    if (pattern.size() > MaxPatternBytes || !re.ok() || re.ProgramSize() > MaxProgramSize) {
        error(ruleId, line,
              std::string(what) + " pattern " +
                  (re.ok() ? std::string("over the size cap") : "invalid: " + re.error()) + "; rule left out");
        return nullptr;
    }
    return std::make_shared<const LazyRegex>(pattern, options, re.ProgramSize());
}

namespace {

/// A neighbouring line a rule needs: `{"pattern": P, "within": N, "<flag>": B}` (1 <= N <= MaxContextLines). Unknown
/// keys are refused: a misspelt flag would turn the rule around silently.
struct SideLine {
    std::string pattern;
    std::uint32_t within = 1;
    bool flag = false;
    std::vector<std::string> same;
};

/// `"same": ["capture", ...]` (only where `allowSame`): a list of non-empty, distinct capture names.
bool readSame(const json& c, SideLine& side)
{
    if (!c.contains("same"))
        return true;
    const json& same = c["same"];
    if (!same.is_array() || same.empty())
        return false;
    for (const auto& name : same) {
        if (!name.is_string() || name.get<std::string>().empty())
            return false;
        side.same.push_back(name.get<std::string>());
    }
    std::sort(side.same.begin(), side.same.end());
    return std::adjacent_find(side.same.begin(), side.same.end()) == side.same.end();
}

std::optional<SideLine> readSideLine(const json& c, const char* flagKey, bool flagDefault, bool allowSame = false)
{
    if (!c.is_object())
        return std::nullopt;
    for (const auto& [key, value] : c.items())
        if (key != "pattern" && key != "within" && key != flagKey && !(allowSame && key == "same"))
            return std::nullopt;
    const json within = c.value("within", json(1));
    const json flag = c.value(flagKey, json(flagDefault));
    if (!c.contains("pattern") || !c["pattern"].is_string() || c["pattern"].empty() || !within.is_number_integer() ||
        within.get<std::int64_t>() < 1 || within.get<std::int64_t>() > MaxContextLines || !flag.is_boolean())
        return std::nullopt;
    SideLine side{
        c["pattern"].get<std::string>(), static_cast<std::uint32_t>(within.get<std::int64_t>()), flag.get<bool>(), {}};
    if (!readSame(c, side))
        return std::nullopt;
    return side;
}

/// The fields a pattern's named groups set (`gpu__2` sets `gpu`).
std::set<std::string> groupFields(const LazyRegex& pattern)
{
    std::set<std::string> fields;
    for (const auto& [name, index] : pattern.regex().NamedCapturingGroups())
        fields.insert(captureField(name));
    return fields;
}

}  // namespace

/// `"context"` (an earlier line, `required` by default) and `"after"` (a later line that must follow, or with
/// `absent` must not): both read by readSideLine, the pattern compiled like the rule's own.
bool Catalog::Loader::parseContext(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    if (!r.is_object() || !r.contains("context"))
        return true;
    const int line = lineAt(JsonPositions::child(pointer, "context"));
    const auto side = readSideLine(r["context"], "required", true);
    if (!side) {
        error(rule.id, line,
              "'context' must be {\"pattern\": STRING, \"within\": 1.." + std::to_string(MaxContextLines) +
                  ", \"required\": BOOL}; rule left out");
        return false;
    }
    ExtractorContext context{side->pattern, compileSidePattern(rule.id, line, "context", side->pattern), side->within,
                             side->flag};
    if (!context.re)
        return false;
    rule.context = std::move(context);
    return true;
}

bool Catalog::Loader::parseAfter(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    if (!r.is_object() || !r.contains("after"))
        return true;
    const int line = lineAt(JsonPositions::child(pointer, "after"));
    const auto side = readSideLine(r["after"], "absent", false, true);
    if (!side) {
        error(rule.id, line,
              "'after' must be {\"pattern\": STRING, \"within\": 1.." + std::to_string(MaxContextLines) +
                  ", \"absent\": BOOL, \"same\": [CAPTURE...]}; rule left out");
        return false;
    }
    ExtractorAfter after{side->pattern, compileSidePattern(rule.id, line, "after", side->pattern), side->within,
                         side->flag, side->same};
    if (!after.re)
        return false;
    if (!after.same.empty() && rule.re) {  // each name must be captured by both lines, or it compares nothing
        const auto own = groupFields(*rule.re);
        const auto later = groupFields(*after.re);
        for (const auto& name : after.same)
            if (!own.count(name) || !later.count(name)) {
                error(rule.id, line,
                      "'after' 'same' names '" + name + "', not captured by both patterns; rule left out");
                return false;
            }
    }
    rule.after = std::move(after);
    return true;
}

/// A rule with an `after` must show the later line deciding both ways: a case that matches, and a case whose own
/// line is the rule's but which does not match because of what follows it (absent false: no such line given;
/// absent true: the cancelling line given).
bool Catalog::Loader::checkAfterCases(ExtractorRule& rule)
{
    if (!rule.after)
        return true;
    bool matches = false;
    bool decided = false;
    for (const auto& ec : rule.cases) {
        matches = matches || ec.shouldMatch;
        decided = decided || (!ec.shouldMatch && (rule.after->absent ? !ec.after.empty() : ec.after.empty()));
    }
    if (matches && decided)
        return true;
    error(rule.id, rule.where.line,
          std::string("a rule with 'after' needs a case that matches and a \"match\": false case ") +
              (rule.after->absent ? "whose 'after' line cancels it" : "without an 'after' line") + "; rule left out");
    return false;
}

/// `"exclude": P`: a line the pattern matches is still not the rule's when P matches it too (RE2 has no negative
/// lookahead). The prefilter reads only the rule's own pattern; P runs on the lines that pattern matched.
bool Catalog::Loader::parseExclude(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    if (!r.is_object() || !r.contains("exclude"))
        return true;
    const int line = lineAt(JsonPositions::child(pointer, "exclude"));
    const json& e = r["exclude"];
    if (!e.is_string() || e.get<std::string>().empty()) {
        error(rule.id, line, "'exclude' must be a non-empty pattern string; rule left out");
        return false;
    }
    rule.exclude = compileSidePattern(rule.id, line, "exclude", e.get<std::string>());
    return rule.exclude != nullptr;
}

/// `"map": {"capture": {"word": "value", "*": "default"}}`: captured words translated before the rest of the rule
/// reads them; compilePattern checks that each capture is a named group.
bool Catalog::Loader::parseMap(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    if (!r.is_object() || !r.contains("map"))
        return true;
    const int line = lineAt(JsonPositions::child(pointer, "map"));
    const json& m = r["map"];
    const auto bad = [&](const std::string& why) {
        error(rule.id, line, "'map' " + why + "; rule left out");
        return false;
    };
    if (!m.is_object() || m.empty())
        return bad("must be an object of capture: {word: value}");
    for (const auto& [capture, words] : m.items()) {
        if (!words.is_object() || words.empty())
            return bad("'" + capture + "' must be a non-empty object of word: value");
        auto& into = rule.map[capture];
        for (const auto& [word, value] : words.items()) {
            if (!value.is_string())
                return bad("'" + capture + "." + word + "' must be a string");
            into[word] = value.get<std::string>();
        }
    }
    return true;
}

bool Catalog::Loader::parseExtractor(const json& r, const std::string& pointer, ExtractorRule& rule)
{
    rule.id = str(r, "id");
    rule.where = locateEntry(pointer, "id");
    rule.description = str(r, "description");
    rule.pattern = str(r, "pattern");
    rule.event = str(r, "event", rule.id);
    rule.symptom = str(r, "symptom");
    rule.sympathetic = r.value("sympathetic", false);
    rule.jobWide = r.value("job_wide", false);
    rule.timeFrom = str(r, "time_from");
    for (const auto& [k, v] : objectAt(r, "set").items())
        rule.set[k] = v.is_string() ? v.get<std::string>() : v.dump();
    for (const auto& name : stringList(r.value("sources", json::array()))) {
        if (auto kind = sourceKindFromString(name))
            rule.sources.push_back(*kind);
        else
            error(rule.id, rule.where.line, "unknown source kind '" + name + "'");
    }
    if (rule.id.empty() || rule.pattern.empty() || rule.sources.empty()) {
        error(rule.id, rule.where.line, "an extractor needs id, sources and pattern");
        return false;
    }
    if (!claim(ruleIds, "rule id", rule.id, rule.where) || !parseRequire(r, pointer, rule) ||
        !parseMap(r, pointer, rule) || !compilePattern(r, pointer, rule) || !parseContext(r, pointer, rule) ||
        !parseAfter(r, pointer, rule) || !parseExclude(r, pointer, rule))
        return false;
    const json cases = r.value("cases", json::array());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& c = cases[i];
        ExtractorCase ec;
        ec.line = str(c, "line");
        ec.context = str(c, "context");
        ec.after = str(c, "after");
        ec.shouldMatch = c.is_object() ? c.value("match", true) : true;
        for (const auto& [k, v] : objectAt(c, "fields").items()) {
            if (v.is_null())
                ec.absent.push_back(k);
            else
                ec.fields[k] = v.is_string() ? v.get<std::string>() : v.dump();
        }
        ec.where = locateEntry(JsonPositions::child(JsonPositions::child(pointer, "cases"), i), "line");
        // "source": the public address a real line was taken from (issue threads, forums); must be a URL.
        if (c.is_object() && c.contains("source")) {
            const json& source = c["source"];
            const std::string address = source.is_string() ? source.get<std::string>() : source.dump();
            if (!source.is_string() || (address.rfind("https://", 0) != 0 && address.rfind("http://", 0) != 0)) {
                error(rule.id, ec.where.line, "case source must be an http(s) address, got '" + address + "'");
                return false;
            }
        }
        if (!ec.context.empty() && !rule.context) {
            error(rule.id, ec.where.line, "case has a 'context' line but the rule has no 'context'; rule left out");
            return false;
        }
        if (!ec.after.empty() && !rule.after) {
            error(rule.id, ec.where.line, "case has an 'after' line but the rule has no 'after'; rule left out");
            return false;
        }
        rule.cases.push_back(std::move(ec));
    }
    if (rule.cases.empty())
        error(rule.id, rule.where.line, "rule has no inline cases");
    return !rule.cases.empty() && checkAfterCases(rule);
}

}  // namespace attrib::engine
