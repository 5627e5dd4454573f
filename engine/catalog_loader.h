// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: the catalog loader's state while it reads one rules folder (catalog.cpp: symptoms, extractors, C++
// rules; catalog_loader.cpp: refinement, priority, data, files, the load itself).
#pragma once

#include "engine/catalog.h"
#include "engine/catalog_files.h"
#include "engine/catalog_positions.h"
#include "engine/json_util.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attrib::engine {

using nlohmann::json;

struct Catalog::Loader {
    Catalog& cat;
    const CodeRuleRegistry& code;
    std::string file;  // relative path of the file being parsed
    SourceText text;
    JsonPositions positions;
    std::map<std::string, Location> ruleIds;    // first place of each rule id (all kinds)
    std::map<std::string, Location> dataNames;  // first place of each data name

    void error(const std::string& rule, int line, const std::string& message)
    {
        cat.m_diagnostics.push_back({Diagnostic::Severity::Error, {file, line}, rule, message});
    }
    void warning(const std::string& rule, int line, const std::string& message)
    {
        cat.m_diagnostics.push_back({Diagnostic::Severity::Warning, {file, line}, rule, message});
    }
    /// Line where the value at a JSON pointer starts (the parser-accepted text, scanned once per file).
    int lineAt(const std::string& pointer) const
    {
        const std::size_t offset = positions.offset(pointer);
        return offset == std::string::npos ? 1 : text.lineAtOffset(offset);
    }
    Location locate(const std::string& pointer) const { return {file, lineAt(pointer)}; }
    /// An entry's place: the line of its `key` member (its id or name) when present, else where it starts.
    Location locateEntry(const std::string& pointer, const char* key) const
    {
        const std::string member = JsonPositions::child(pointer, key);
        return positions.offset(member) != std::string::npos ? locate(member) : locate(pointer);
    }
    bool claim(std::map<std::string, Location>& seen, const std::string& what, const std::string& id,
               const Location& where);
    /// Runs `parse` on each element of the array `doc[key]`; a wrong-typed element is an error at its line.
    void eachEntry(const json& doc, const char* key, const std::function<void(const json&, const std::string&)>& parse);

    void loadFile(const CatalogFile& f);
    void loadKind(const json& doc, const std::string& rel);
    void loadData(const json& doc, const std::string& rel);
    void loadSymptom(const json& s, const std::string& pointer);
    void loadCodeRule(const json& r, const std::string& pointer);
    void loadRefineRule(const json& r, const std::string& pointer);
    void loadPriorityTable(const json& t, const std::string& pointer);
    std::vector<PipelineCase> loadCases(const json& rule, const std::string& pointer, const Location& where,
                                        const std::string& id);
    bool parseExtractor(const json& r, const std::string& pointer, ExtractorRule& rule);
    bool compilePattern(const json& r, const std::string& pointer, ExtractorRule& rule);
    bool parseRequire(const json& r, const std::string& pointer, ExtractorRule& rule);
    bool parseContext(const json& r, const std::string& pointer, ExtractorRule& rule);
    bool parseAfter(const json& r, const std::string& pointer, ExtractorRule& rule);
    bool checkAfterCases(ExtractorRule& rule);
    bool parseExclude(const json& r, const std::string& pointer, ExtractorRule& rule);
    std::shared_ptr<const LazyRegex> compileSidePattern(const std::string& ruleId, int line, const char* what,
                                                        const std::string& pattern);
    bool parseMap(const json& r, const std::string& pointer, ExtractorRule& rule);
    /// Frees every inline case, case result and rule description of a loaded catalog (CaseDetail::CountsOnly).
    static void dropCases(Catalog& cat);
};

/// A string member of an object, or `fallback` (never throws).
std::string catalogString(const json& obj, const char* key, const std::string& fallback = {});

}  // namespace attrib::engine
