// SPDX-License-Identifier: GPL-3.0-or-later
// Test helpers: the source catalog (loaded once), temporary rule folders, sample paths.
#pragma once

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

inline void writeFile(const std::filesystem::path& path, const std::string& text)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace attrib::tests
