// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a rules folder: its files (catalog_files.cpp), each parsed alone with its value positions, every
// entry parsed alone (a wrong-typed field leaves out that entry, not the file), the catalog's patterns held under
// their total size cap (a rule that breaks it is left out, not the whole catalog), then the inline cases.
#include "engine/catalog_loader.h"
#include "engine/catalog_cases.h"
#include "engine/lazy_regex.h"
#include "engine/metric_rules.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace attrib::engine {

namespace {

constexpr std::size_t MaxRuleFileBytes = 32 << 20;

std::string str(const json& obj, const char* key, const std::string& fallback = {})
{
    return catalogString(obj, key, fallback);
}

}  // namespace

void Catalog::Loader::loadRefineRule(const json& r, const std::string& pointer)
{
    RefineRule rule;
    rule.id = str(r, "id");
    rule.where = locateEntry(pointer, "id");
    rule.description = str(r, "description");
    rule.phase = tracePhaseFrom(str(r, "phase", "refine")).value_or(TracePhase::Unknown);
    rule.order = r.value("order", 0);
    const json when = r.value("when", json::object());
    rule.causes = stringList(when.value("symptom", json::array()));
    rule.causeDomains = stringList(when.value("domain", json::array()));
    rule.exceptCauses = stringList(when.value("except", json::array()));
    const json target = r.value(rule.phase == TracePhase::Scrub ? "scrub" : "demote", json::object());
    rule.targets = stringList(target.value("symptom", json::array()));
    rule.targetDomains = stringList(target.value("domain", json::array()));
    rule.exceptTargets = stringList(target.value("except", json::array()));
    const std::string scope = str(r, "scope", "any_node");
    rule.scope = scope == "same_gpu" ? RefineRule::Scope::SameGpu
        : scope == "same_node"       ? RefineRule::Scope::SameNode
                                     : RefineRule::Scope::AnyNode;
    rule.sameAttrs = stringList(r.value("same_attrs", json::array()));
    const json window = r.value("window", json::object());
    rule.before = static_cast<TimeNs>(window.value("before_s", 0.0) * 1e9);
    rule.after = static_cast<TimeNs>(window.value("after_s", 0.0) * 1e9);
    rule.targetFirstSeen = window.value("target_time", std::string("origin")) == "first_seen";
    rule.reason = str(r, "reason", rule.description);
    if (rule.id.empty() || (rule.causes.empty() && rule.causeDomains.empty()) ||
        (rule.targets.empty() && rule.targetDomains.empty())) {
        error(rule.id, rule.where.line, "a refinement rule needs id, when and demote/scrub");
        return;
    }
    if (rule.phase != TracePhase::Refine && rule.phase != TracePhase::Scrub) {
        error(rule.id, rule.where.line, "phase must be 'refine' or 'scrub'");
        return;
    }
    if (!claim(ruleIds, "rule id", rule.id, rule.where))
        return;
    rule.cases = loadCases(r, pointer, rule.where, rule.id);
    if (!rule.cases.empty())
        cat.m_refineRules.push_back(std::move(rule));
}

void Catalog::Loader::loadPriorityTable(const json& t, const std::string& pointer)
{
    PriorityTable table;
    table.id = str(t, "id");
    table.where = locateEntry(pointer, "id");
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
        return;
    }
    if (!claim(ruleIds, "rule id", table.id, table.where))
        return;
    table.cases = loadCases(t, pointer, table.where, table.id);
    if (!table.cases.empty())
        cat.m_priorityTables.push_back(std::move(table));
}

void Catalog::Loader::loadData(const json& doc, const std::string& rel)
{
    const std::string name = str(doc, "name", fs::path(rel).stem().string());
    const Location where{file, lineAt(doc.contains("name") ? "/name" : "")};
    if (claim(dataNames, "data", name, where))
        cat.m_data[name] = doc;
}

void Catalog::Loader::loadFile(const CatalogFile& f)
{
    file = f.rel;
    positions = JsonPositions();
    std::string problem;
    text = SourceText(readCatalogFile(f.path, MaxRuleFileBytes, problem));
    if (!problem.empty()) {
        error("", 1, "cannot read the rule file: " + problem);
        return;
    }
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
    positions = JsonPositions(text.text());
    try {
        loadKind(doc, f.rel);
    } catch (const std::exception& e) {  // a top-level field of the wrong type
        error("", 1, std::string("invalid rule file: ") + e.what());
    }
}

void Catalog::Loader::loadKind(const json& doc, const std::string& rel)
{
    const std::string kind = str(doc, "kind");
    if (kind == "symptoms")
        eachEntry(doc, "symptoms", [this](const json& s, const std::string& p) { loadSymptom(s, p); });
    else if (kind == "extractors")
        eachEntry(doc, "rules", [this](const json& r, const std::string& p) {
            ExtractorRule rule;
            if (parseExtractor(r, p, rule))
                cat.m_extractors.push_back(std::move(rule));
        });
    else if (kind == "code")
        eachEntry(doc, "rules", [this](const json& r, const std::string& p) { loadCodeRule(r, p); });
    else if (kind == "refine")
        eachEntry(doc, "rules", [this](const json& r, const std::string& p) { loadRefineRule(r, p); });
    else if (kind == "priority")
        eachEntry(doc, "tables", [this](const json& t, const std::string& p) { loadPriorityTable(t, p); });
    else if (kind == "metrics")
        parseMetricRules(
            doc, file, [this](const std::string& p) { return lineAt(p); }, cat.m_metricRules, cat.m_diagnostics);
    else if (kind == "data")
        loadData(doc, rel);
    else if (kind == "catalog")
        cat.m_version = str(doc, "version", "0");
    else
        warning("", 1, "unknown file kind '" + kind + "'; file ignored");
}

namespace {

/// Leaves out, one at a time (largest program first), the extractors without which the catalog's patterns stay
/// under their total size cap (catalog.h: SetProgramPerExtractor), so a few huge rules cannot crowd out every other
/// rule's memory nor make every analysis compile a huge program (a few MB of program when every rule has had a
/// hit). The few patterns with no required literal are compiled into one RE2::Set by the catalog's ExtractorSet,
/// which reports a set that still fails.
void capSetSizes(std::vector<ExtractorRule>& extractors, std::vector<Diagnostic>& diagnostics)
{
    std::vector<std::size_t> members;
    long total = 0;
    for (std::size_t i = 0; i < extractors.size(); ++i)
        if (extractors[i].re) {
            members.push_back(i);
            total += extractors[i].re->programSize();
        }
    const long cap = std::max(MinSetProgram, SetProgramPerExtractor * static_cast<long>(members.size()));
    while (!members.empty() && total > cap) {
        const auto worst = std::max_element(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
            return extractors[a].re->programSize() < extractors[b].re->programSize();
        });
        ExtractorRule& rule = extractors[*worst];
        diagnostics.push_back({Diagnostic::Severity::Error, rule.where, rule.id,
                               "the catalog's pattern set (" + std::to_string(total) +
                                   " instructions) is over its cap of " + std::to_string(cap) +
                                   " with this rule's pattern of " + std::to_string(rule.re->programSize()) +
                                   " instructions; rule left out"});
        total -= rule.re->programSize();
        rule.re.reset();
        members.erase(worst);
    }
    extractors.erase(std::remove_if(extractors.begin(), extractors.end(), [](const auto& r) { return !r.re; }),
                     extractors.end());
}

}  // namespace

/// An analysis needs what the inline cases decided, not the cases, nor the rules' descriptions (for rule authors and
/// the views): the cases' lines, fields and results and the descriptions are most of the catalog's memory (~10 MB
/// at 2,000 extractors), freed before the evidence is read so that its heap reuses them.
void Catalog::Loader::dropCases(Catalog& cat)
{
    std::vector<CaseResult>().swap(cat.m_caseResults);
    for (auto& rule : cat.m_extractors) {
        std::vector<ExtractorCase>().swap(rule.cases);
        std::string().swap(rule.description);
    }
    auto drop = [](auto& rules) {
        for (auto& rule : rules) {
            std::vector<PipelineCase>().swap(rule.cases);
            if constexpr (requires { rule.description.clear(); })
                std::string().swap(rule.description);
        }
    };
    drop(cat.m_codeRules);
    drop(cat.m_refineRules);
    drop(cat.m_priorityTables);
    drop(cat.m_metricRules);
}

std::shared_ptr<const Catalog> Catalog::load(const std::string& dir, const CodeRuleRegistry& code,
                                             const std::string& caseCacheDir, CaseDetail detail)
{
    auto cat = std::make_shared<Catalog>();
    cat->m_dir = dir;
    Loader loader{*cat, code, {}, {}, {}, {}, {}};
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        loader.file = dir;
        loader.error("", 0, "rules folder not found");
        cat->m_extractorSet = std::make_shared<const ExtractorSet>(cat->m_extractors);
        return cat;
    }
    std::uint64_t hash = 1469598103934665603ULL;
    for (const auto& f : listCatalogFiles(dir, cat->m_diagnostics)) {
        loader.loadFile(f);
        hash = fnv1a(f.rel + '\0' + loader.text.text() + '\0', hash);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    cat->m_hash = hex;
    capSetSizes(cat->m_extractors, cat->m_diagnostics);  // before the cases: they extract through the set
    const std::string cacheKey = caseCacheDir.empty() ? std::string() : caseCacheKey(dir, cat->m_hash);
    std::optional<CaseOutcome> outcome = readCaseOutcome(caseCacheDir, cacheKey);
    if (outcome) {
        cat->m_extractorSet =
            applyCaseOutcome(*outcome, cat->m_extractors, cat->m_codeRules, cat->m_refineRules, cat->m_priorityTables);
    } else {
        outcome.emplace();
        cat->m_extractorSet = evaluateCatalogCases(*cat, cat->m_extractors, cat->m_codeRules, cat->m_refineRules,
                                                   cat->m_priorityTables, *outcome);
        writeCaseOutcome(caseCacheDir, cacheKey, *outcome);
    }
    cat->m_caseResults = std::move(outcome->results);
    cat->m_diagnostics.insert(cat->m_diagnostics.end(), outcome->diagnostics.begin(), outcome->diagnostics.end());
    if (!cat->m_extractorSet->compiled())
        cat->m_diagnostics.push_back({Diagnostic::Severity::Error,
                                      {},
                                      "",
                                      "the catalog's pattern set does not compile; no extractor reads any line"});
    evaluateMetricCases(*cat, cat->m_metricRules, cat->m_caseResults, cat->m_diagnostics);
    const auto& results = cat->m_caseResults;
    cat->m_casesPassed =
        static_cast<std::size_t>(std::count_if(results.begin(), results.end(), [](const auto& r) { return r.passed; }));
    cat->m_casesFailed = results.size() - cat->m_casesPassed;
    if (detail == CaseDetail::CountsOnly)
        Loader::dropCases(*cat);
    return cat;
}

}  // namespace attrib::engine
