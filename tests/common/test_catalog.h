// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: the source catalog (loaded once), temporary rule folders, sample paths.
#pragma once

#include "engine/pipeline.h"
#include "rules/cpp/builtin_rules.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace attrib::tests {

inline engine::CatalogPtr sourceCatalog()
{
    static const engine::CatalogPtr catalog = rules::loadCatalog(ATTRIB_SOURCE_RULES_DIR);
    return catalog;
}

inline std::string samplePath(const std::string& name)
{
    return std::string(ATTRIB_SOURCE_DIR) + "/samples/" + name;
}

/// The symptom with `id` among `all`; an empty one (id "") when there is none.
inline const engine::Symptom& symptomById(const std::vector<engine::Symptom>& all, const std::string& id)
{
    static const engine::Symptom none;
    for (const auto& s : all)
        if (s.id == id)
            return s;
    return none;
}

/// A symptom of the catalog's `name` on `node` (and `gpu`), with its registered domain and priority, seen once.
inline engine::Symptom catalogSymptom(const engine::Catalog& cat, const std::string& name, const std::string& node,
                                      int gpu)
{
    engine::Symptom s;
    s.name = name;
    s.node = node;
    s.gpu = gpu;
    s.id = engine::symptomIdFor(name, node, gpu);
    const engine::SymptomDef* def = cat.symptom(name);
    s.domain = def ? def->domain : "";
    s.priority = def ? def->priority : 0;
    s.count = 1;
    return s;
}

inline void writeFile(const std::filesystem::path& path, const std::string& text)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace attrib::tests
