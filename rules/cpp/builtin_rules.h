// SPDX-License-Identifier: GPL-3.0-or-later
// The C++ rules this build provides, and where the catalog lives at run time.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

/// Registry of every C++ rule implementation (HandleXidBurstEvents, LearnGpuIdentity, ...).
const engine::CodeRuleRegistry& builtinCodeRules();

/// The rules folder to use: `explicitDir` if given, else $ATTRIB_RULES, else `rules/` next to the
/// executable or in `../share/attribution-workbench/`, else the source tree's catalog.
std::string findRulesDir(const std::string& explicitDir, const std::string& executablePath);

/// The sample bundles: `samples/` in `../share/attribution-workbench/` next to the executable, else the source
/// tree's samples/.
std::string findSamplesDir(const std::string& executablePath);

/// The catalog folder of the source tree this build was configured from.
std::string sourceRulesDir();

/// Whether a load may take what the inline cases decided from the last load of the same catalog by this
/// program (engine/case_cache.h) or runs every case again (`attrib rules test`).
enum class CaseRuns { Reuse, Fresh };

/// Loads the catalog with the built-in C++ rules.
engine::CatalogPtr loadCatalog(const std::string& dir, CaseRuns runs = CaseRuns::Reuse,
                               engine::CaseDetail detail = engine::CaseDetail::Keep);

}  // namespace attrib::rules
