// SPDX-License-Identifier: GPL-3.0-or-later
// Loading the catalog: walk the rules folder, parse each file, compile patterns, collect diagnostics
// with file and line, then evaluate every inline case and leave out the rules whose cases fail.
#include "engine/catalog.h"
#include "engine/lazy_regex.h"
#include "engine/number.h"

#include "engine/catalog_loader.h"
#include "engine/json_util.h"
#include "engine/metric_rules.h"
#include "engine/verdict.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace attrib::engine {

std::string Diagnostic::str() const
{
    std::string s = where.str() + ": " + (severity == Severity::Error ? "error" : "warning") + ": ";
    if (!rule.empty())
        s += "rule " + rule + ": ";
    return s + message;
}

const char* toString(RefineRule::Scope scope)
{
    switch (scope) {
    case RefineRule::Scope::SameGpu: return "same_gpu";
    case RefineRule::Scope::SameNode: return "same_node";
    case RefineRule::Scope::AnyNode: return "any_node";
    }
    return "any_node";
}

bool globMatch(std::string_view pattern, std::string_view text)
{
    std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

bool anyGlobMatch(const std::vector<std::string>& patterns, std::string_view text)
{
    return std::any_of(patterns.begin(), patterns.end(), [&](const auto& p) { return globMatch(p, text); });
}

const SymptomDef* Catalog::symptom(const std::string& name) const
{
    auto it = m_symptoms.find(name);
    return it == m_symptoms.end() ? nullptr : &it->second;
}

const PriorityTable* Catalog::priorityTable(const std::string& platform) const
{
    const PriorityTable* fallback = nullptr;
    for (const auto& table : m_priorityTables) {
        for (const auto& p : table.platforms) {
            if (!platform.empty() && p == platform)
                return &table;
            if (p == "default")
                fallback = &table;
        }
    }
    return fallback;
}

const json* Catalog::data(const std::string& name) const
{
    auto it = m_data.find(name);
    return it == m_data.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------------------------------------

std::string catalogString(const json& obj, const char* key, const std::string& fallback)
{
    if (!obj.is_object())
        return fallback;
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : fallback;
}

namespace {

std::string str(const json& obj, const char* key, const std::string& fallback = {})
{
    return catalogString(obj, key, fallback);
}

bool inVocabulary(const std::vector<std::string>& words, const std::string& word)
{
    return std::find(words.begin(), words.end(), word) != words.end();
}

/// Reads a symptom's terminal state, `readings` and `separated_by` into `def`; what is wrong with them, or "". Only
/// an `ambiguous` symptom has readings: two or more, each a decided terminal state and a sub-domain.
std::string readReadings(const json& s, SymptomDef& def)
{
    if (!inVocabulary(TerminalStates, def.terminalState))
        return "terminal_state '" + def.terminalState + "' is not a terminal state of the verdict contract";
    def.separatedBy = str(s, "separated_by");
    for (const json& r : s.value("readings", json::array())) {
        Reading reading{str(r, "terminal_state"), str(r, "sub_domain"), str(r, "summary")};
        if (!inVocabulary(TerminalStates, reading.terminalState) || reading.terminalState == "ambiguous" ||
            reading.terminalState == "unknown" || !inVocabulary(SubDomains, reading.subDomain) ||
            reading.summary.empty())
            return "a reading needs a decided terminal_state, a sub_domain of the verdict contract and a summary";
        def.readings.push_back(std::move(reading));
    }
    const bool ambiguous = def.terminalState == "ambiguous";
    if (ambiguous && (def.readings.size() < 2 || def.separatedBy.empty()))
        return "an ambiguous symptom lists the readings it cannot tell apart (two or more) and what separates them "
               "(separated_by)";
    if (!ambiguous && (!def.readings.empty() || !def.separatedBy.empty()))
        return "only a symptom whose terminal_state is ambiguous has readings and separated_by";
    return {};
}

}  // namespace

bool Catalog::Loader::claim(std::map<std::string, Location>& seen, const std::string& what, const std::string& id,
                            const Location& where)
{
    const auto [it, fresh] = seen.emplace(id, where);
    if (fresh)
        return true;
    cat.m_diagnostics.push_back({Diagnostic::Severity::Error, where, id,
                                 what + " '" + id + "' defined twice: here and at " + it->second.str() +
                                     "; the one at " + it->second.str() + " is kept"});
    cat.m_diagnostics.push_back(
        {Diagnostic::Severity::Error, it->second, id, what + " '" + id + "' is defined again at " + where.str()});
    return false;
}

void Catalog::Loader::eachEntry(const json& doc, const char* key,
                                const std::function<void(const json&, const std::string&)>& parse)
{
    const auto it = doc.find(key);
    if (it == doc.end()) {  // a misspelt key would otherwise load nothing and pass every check
        error("", 1, std::string("no '") + key + "' array: this file defines nothing");
        return;
    }
    const std::string base = JsonPositions::child("", key);
    if (!it->is_array()) {
        error("", lineAt(base), std::string("'") + key + "' must be an array");
        return;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string pointer = JsonPositions::child(base, i);
        try {
            if (!(*it)[i].is_object())
                error("", lineAt(pointer), std::string("an entry of '") + key + "' must be an object");
            else
                parse((*it)[i], pointer);
        } catch (const std::exception& e) {  // a field of the wrong type (json::type_error) and the like
            error(str((*it)[i], "id", str((*it)[i], "name")), lineAt(pointer),
                  std::string("invalid entry, left out: ") + e.what());
        }
    }
}

void Catalog::Loader::loadSymptom(const json& s, const std::string& pointer)
{
    SymptomDef def;
    def.name = str(s, "name");
    def.where = locateEntry(pointer, "name");
    if (def.name.empty()) {
        error("", def.where.line, "symptom without a name");
        return;
    }
    def.domain = str(s, "domain", "unknown");
    def.priority = s.value("priority", 0);
    def.description = str(s, "description");
    def.terminalState = str(s, "terminal_state", "unknown");
    def.summary = str(s, "summary", def.description);
    def.action = str(s, "action");
    def.target = str(s, "target", "{node}");
    def.supersedes = stringList(s.value("supersedes", json::array()));
    def.originAttr = str(s, "origin_from_timeout_attr");
    if (std::find(SubDomains.begin(), SubDomains.end(), def.domain) == SubDomains.end()) {
        error(def.name, def.where.line, "domain '" + def.domain + "' is not a sub_domain of the verdict contract");
        return;
    }
    if (const std::string problem = readReadings(s, def); !problem.empty()) {
        error(def.name, def.where.line, problem);
        return;
    }
    if (const auto it = cat.m_symptoms.find(def.name); it != cat.m_symptoms.end()) {
        std::map<std::string, Location> seen{{def.name, it->second.where}};
        claim(seen, "symptom", def.name, def.where);
        return;
    }
    cat.m_symptoms.emplace(def.name, def);
}

std::vector<PipelineCase> Catalog::Loader::loadCases(const json& rule, const std::string& pointer,
                                                     const Location& where, const std::string& id)
{
    std::vector<PipelineCase> cases;
    const json list = rule.value("cases", json::array());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& c = list[i];
        PipelineCase pc;
        pc.name = str(c, "name", "case " + std::to_string(cases.size() + 1));
        pc.input = c;
        pc.expect = c.is_object() ? c.value("expect", json::object()) : json::object();
        pc.where = locateEntry(JsonPositions::child(JsonPositions::child(pointer, "cases"), i), "name");
        cases.push_back(std::move(pc));
    }
    if (cases.empty())
        error(id, where.line, "rule has no inline cases");
    return cases;
}

void Catalog::Loader::loadCodeRule(const json& r, const std::string& pointer)
{
    CodeRuleEntry entry;
    entry.id = str(r, "id");
    entry.where = locateEntry(pointer, "id");
    entry.order = r.value("order", 0);
    const std::string impl = str(r, "implementation", entry.id);
    auto factory = code.factories.find(impl);
    if (factory == code.factories.end()) {
        error(entry.id, entry.where.line, "no C++ implementation named '" + impl + "' in this build");
        return;
    }
    if (!claim(ruleIds, "rule id", entry.id, entry.where))
        return;
    const json config = r.value("config", json::object());
    try {
        entry.rule = factory->second(config);
    } catch (const std::exception& e) {  // a config value of the wrong type
        error(entry.id, lineAt(JsonPositions::child(pointer, "config")),
              std::string("invalid config, rule left out: ") + e.what());
        return;
    }
    entry.cases = loadCases(r, pointer, entry.where, entry.id);
    if (!entry.cases.empty())
        cat.m_codeRules.push_back(std::move(entry));
}

}  // namespace attrib::engine
