// SPDX-License-Identifier: GPL-3.0-or-later
// Loading the catalog: walk the rules folder, parse each file, compile patterns, collect diagnostics
// with file and line, then evaluate every inline case and leave out the rules whose cases fail.
#include "engine/catalog.h"

#include "engine/catalog_cases.h"
#include "engine/json_util.h"
#include "engine/metric_rules.h"
#include "engine/verdict.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

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

std::size_t Catalog::casesPassed() const
{
    return static_cast<std::size_t>(
        std::count_if(m_caseResults.begin(), m_caseResults.end(), [](const auto& r) { return r.passed; }));
}

std::size_t Catalog::casesFailed() const
{
    return m_caseResults.size() - casesPassed();
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

struct Catalog::Loader {
    Catalog& cat;
    const CodeRuleRegistry& code;
    std::string file;  // relative path of the file being parsed
    SourceText text;

    void error(const std::string& rule, int line, const std::string& message)
    {
        cat.m_diagnostics.push_back({Diagnostic::Severity::Error, {file, line}, rule, message});
    }
    void warning(const std::string& rule, int line, const std::string& message)
    {
        cat.m_diagnostics.push_back({Diagnostic::Severity::Warning, {file, line}, rule, message});
    }
    Location at(const std::string& needle, std::size_t from = 0) const { return {file, text.lineOf(needle, from)}; }

    void loadFile(const fs::path& path, const std::string& rel);
    void loadKind(const json& doc, const std::string& rel);
    void loadSymptoms(const json& doc);
    void loadExtractors(const json& doc);
    void loadCodeRules(const json& doc);
    void loadRefineRules(const json& doc);
    void loadPriorityTables(const json& doc);
    std::vector<PipelineCase> loadCases(const json& rule, const Location& where, const std::string& id);
    bool parseExtractor(const json& r, ExtractorRule& rule);
    bool parseExtractorCase(const json& c, const std::string& id, std::size_t ruleOffset, ExtractorCase& ec);
};

namespace {

std::string str(const json& obj, const char* key, const std::string& fallback = {})
{
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : fallback;
}

}  // namespace

void Catalog::Loader::loadSymptoms(const json& doc)
{
    for (const auto& s : doc.value("symptoms", json::array())) {
        SymptomDef def;
        def.name = str(s, "name");
        def.where = at("\"" + def.name + "\"");
        if (def.name.empty()) {
            error("", def.where.line, "symptom without a name");
            continue;
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
        if (std::find(SubDomains.begin(), SubDomains.end(), def.domain) == SubDomains.end())
            error(def.name, def.where.line, "domain '" + def.domain + "' is not a sub_domain of the verdict contract");
        else if (!cat.m_symptoms.emplace(def.name, def).second)
            error(def.name, def.where.line, "symptom registered twice");
    }
}

bool Catalog::Loader::parseExtractorCase(const json& c, const std::string& id, std::size_t ruleOffset,
                                         ExtractorCase& ec)
{
    ec.line = str(c, "line");
    ec.shouldMatch = c.value("match", true);
    for (const auto& [k, v] : objectAt(c, "fields").items())
        ec.fields[k] = v.is_string() ? v.get<std::string>() : v.dump();
    ec.where = {file, text.lineOf(jsonEscapedPrefix(ec.line), ruleOffset)};
    // "source": the public address a real line was taken from (issue threads, forums); must be a URL.
    const auto source = c.find("source");
    if (source == c.end())
        return true;
    const std::string address = source->is_string() ? source->get<std::string>() : source->dump();
    if (source->is_string() && (address.rfind("https://", 0) == 0 || address.rfind("http://", 0) == 0))
        return true;
    error(id, ec.where.line, "case source must be an http(s) address, got '" + address + "'");
    return false;
}

bool Catalog::Loader::parseExtractor(const json& r, ExtractorRule& rule)
{
    rule.id = str(r, "id");
    rule.where = at("\"" + rule.id + "\"");
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
    re2::RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<re2::RE2>(rule.pattern, options);
    if (!re->ok()) {
        error(rule.id, text.lineOf("\"pattern\"", text.offsetOf("\"" + rule.id + "\"")),
              "invalid pattern: " + re->error());
        return false;
    }
    rule.re = re;
    const std::size_t ruleOffset = text.offsetOf("\"" + rule.id + "\"");
    for (const auto& c : r.value("cases", json::array())) {
        ExtractorCase ec;
        if (!parseExtractorCase(c, rule.id, ruleOffset, ec))
            return false;
        rule.cases.push_back(std::move(ec));
    }
    if (rule.cases.empty())
        error(rule.id, rule.where.line, "rule has no inline cases");
    return !rule.cases.empty();
}

void Catalog::Loader::loadExtractors(const json& doc)
{
    for (const auto& r : doc.value("rules", json::array())) {
        ExtractorRule rule;
        if (parseExtractor(r, rule))
            cat.m_extractors.push_back(std::move(rule));
    }
}

std::vector<PipelineCase> Catalog::Loader::loadCases(const json& rule, const Location& where, const std::string& id)
{
    std::vector<PipelineCase> cases;
    const std::size_t ruleOffset = text.offsetOf("\"" + id + "\"");
    for (const auto& c : rule.value("cases", json::array())) {
        PipelineCase pc;
        pc.name = str(c, "name", "case " + std::to_string(cases.size() + 1));
        pc.input = c;
        pc.expect = c.value("expect", json::object());
        pc.where = {file, text.lineOf("\"" + pc.name + "\"", ruleOffset)};
        if (pc.where.line == 0)
            pc.where = where;
        cases.push_back(std::move(pc));
    }
    if (cases.empty())
        error(id, where.line, "rule has no inline cases");
    return cases;
}

void Catalog::Loader::loadCodeRules(const json& doc)
{
    for (const auto& r : doc.value("rules", json::array())) {
        CodeRuleEntry entry;
        entry.id = str(r, "id");
        entry.where = at("\"" + entry.id + "\"");
        entry.order = r.value("order", 0);
        const std::string impl = str(r, "implementation", entry.id);
        auto factory = code.factories.find(impl);
        if (factory == code.factories.end()) {
            error(entry.id, entry.where.line, "no C++ implementation named '" + impl + "' in this build");
            continue;
        }
        entry.rule = factory->second(r.value("config", json::object()));
        entry.cases = loadCases(r, entry.where, entry.id);
        if (!entry.cases.empty())
            cat.m_codeRules.push_back(std::move(entry));
    }
}

void Catalog::Loader::loadRefineRules(const json& doc)
{
    for (const auto& r : doc.value("rules", json::array())) {
        RefineRule rule;
        rule.id = str(r, "id");
        rule.where = at("\"" + rule.id + "\"");
        rule.description = str(r, "description");
        rule.phase = str(r, "phase", "refine");
        rule.order = r.value("order", 0);
        const json when = r.value("when", json::object());
        rule.causes = stringList(when.value("symptom", json::array()));
        rule.causeDomains = stringList(when.value("domain", json::array()));
        rule.exceptCauses = stringList(when.value("except", json::array()));
        const json target = r.value(rule.phase == "scrub" ? "scrub" : "demote", json::object());
        rule.targets = stringList(target.value("symptom", json::array()));
        rule.targetDomains = stringList(target.value("domain", json::array()));
        rule.exceptTargets = stringList(target.value("except", json::array()));
        const std::string scope = str(r, "scope", "any_node");
        rule.scope = scope == "same_gpu" ? RefineRule::Scope::SameGpu
            : scope == "same_node"       ? RefineRule::Scope::SameNode
                                         : RefineRule::Scope::AnyNode;
        const json window = r.value("window", json::object());
        rule.before = static_cast<TimeNs>(window.value("before_s", 0.0) * 1e9);
        rule.after = static_cast<TimeNs>(window.value("after_s", 0.0) * 1e9);
        rule.targetFirstSeen = window.value("target_time", std::string("origin")) == "first_seen";
        rule.reason = str(r, "reason", rule.description);
        if (rule.id.empty() || (rule.causes.empty() && rule.causeDomains.empty()) ||
            (rule.targets.empty() && rule.targetDomains.empty())) {
            error(rule.id, rule.where.line, "a refinement rule needs id, when and demote/scrub");
            continue;
        }
        if (rule.phase != "refine" && rule.phase != "scrub") {
            error(rule.id, rule.where.line, "phase must be 'refine' or 'scrub'");
            continue;
        }
        rule.cases = loadCases(r, rule.where, rule.id);
        if (!rule.cases.empty())
            cat.m_refineRules.push_back(std::move(rule));
    }
}

void Catalog::Loader::loadPriorityTables(const json& doc)
{
    for (const auto& t : doc.value("tables", json::array())) {
        PriorityTable table;
        table.id = str(t, "id");
        table.where = at("\"" + table.id + "\"");
        table.description = str(t, "description");
        table.platforms = stringList(t.value("platforms", json::array()));
        table.tieWindow = static_cast<TimeNs>(t.value("tie_window_s", 5.0) * 1e9);
        for (const auto& o : t.value("order", json::array())) {
            const int priority = o.value("priority", 0);
            for (const auto& glob : stringList(o.value("symptoms", json::array())))
                table.overrides.emplace_back(glob, priority);
        }
        if (table.id.empty() || table.platforms.empty()) {
            error(table.id, table.where.line, "a priority table needs id and platforms");
            continue;
        }
        table.cases = loadCases(t, table.where, table.id);
        if (!table.cases.empty())
            cat.m_priorityTables.push_back(std::move(table));
    }
}

void Catalog::Loader::loadFile(const fs::path& path, const std::string& rel)
{
    file = rel;
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = SourceText(buffer.str());
    json doc;
    try {
        doc = json::parse(text.text());
    } catch (const json::parse_error& e) {
        error("", text.lineAtOffset(e.byte > 0 ? e.byte - 1 : 0), std::string("invalid JSON: ") + e.what());
        return;
    } catch (const json::exception& e) {  // e.g. a number out of range (found by fuzz_rule_loader)
        error("", 1, std::string("invalid JSON: ") + e.what());
        return;
    }
    if (!doc.is_object()) {
        error("", 1, "a rule file must hold a JSON object");
        return;
    }
    try {
        loadKind(doc, rel);
    } catch (const json::exception& e) {  // a field of the wrong type (found by fuzz_rule_loader)
        error("", 1, std::string("invalid rule file: ") + e.what());
    }
}

void Catalog::Loader::loadKind(const json& doc, const std::string& rel)
{
    const std::string kind = str(doc, "kind");
    if (kind == "symptoms")
        loadSymptoms(doc);
    else if (kind == "extractors")
        loadExtractors(doc);
    else if (kind == "code")
        loadCodeRules(doc);
    else if (kind == "refine")
        loadRefineRules(doc);
    else if (kind == "priority")
        loadPriorityTables(doc);
    else if (kind == "metrics")
        parseMetricRules(doc, file, text, cat.m_metricRules, cat.m_diagnostics);
    else if (kind == "data")
        cat.m_data[str(doc, "name", fs::path(rel).stem().string())] = doc;
    else if (kind == "catalog")
        cat.m_version = str(doc, "version", "0");
    else
        warning("", 1, "unknown file kind '" + kind + "'; file ignored");
}

std::shared_ptr<const Catalog> Catalog::load(const std::string& dir, const CodeRuleRegistry& code)
{
    auto cat = std::make_shared<Catalog>();
    cat->m_dir = dir;
    Loader loader{*cat, code, {}, {}};
    std::vector<std::pair<std::string, fs::path>> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        loader.file = dir;
        loader.error("", 0, "rules folder not found");
        return cat;
    }
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (it->is_regular_file() && it->path().extension() == ".json")
            files.emplace_back(fs::relative(it->path(), dir).generic_string(), it->path());
    }
    std::sort(files.begin(), files.end());
    std::uint64_t hash = 1469598103934665603ULL;
    for (const auto& [rel, path] : files) {
        loader.loadFile(path, rel);
        hash = fnv1a(rel + '\0' + loader.text.text() + '\0', hash);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    cat->m_hash = hex;
    evaluateCatalogCases(*cat, cat->m_extractors, cat->m_codeRules, cat->m_refineRules, cat->m_priorityTables,
                         cat->m_caseResults, cat->m_diagnostics);
    evaluateMetricCases(*cat, cat->m_metricRules, cat->m_caseResults, cat->m_diagnostics);
    return cat;
}

}  // namespace attrib::engine
