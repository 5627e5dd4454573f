// SPDX-License-Identifier: GPL-3.0-or-later
// What a catalog's inline cases decided, kept between runs of the same program on the same catalog: running
// ~4,000 cases is most of a catalog load (about a second and the DFA states they build), and their outcome is a
// function of the rule files and the program alone.
#pragma once

#include "engine/catalog.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace attrib::engine {

/// The rule lists whose inline cases can leave a rule out.
enum class CaseRuleKind { Extractor, Code, Refine, Priority };
inline constexpr std::size_t CaseRuleKindCount = 4;

/// Everything running the cases adds to a catalog: results, diagnostics, and the ids of the rules left out.
struct CaseOutcome {
    std::vector<CaseResult> results;
    std::vector<Diagnostic> diagnostics;
    std::array<std::vector<std::string>, CaseRuleKindCount> dropped;
};

/// The folder outcomes are kept in: $ATTRIB_CASE_CACHE when set ("off" or "0": no cache), else
/// $XDG_CACHE_HOME/attrib-workbench, else ~/.cache/attrib-workbench; "" when there is none.
std::string defaultCaseCacheDir();

/// What identifies one load's outcome: the running program (path, size, modification time), the catalog folder
/// and the hash of its files. "" when the program cannot be identified (then nothing is cached).
std::string caseCacheKey(const std::string& catalogDir, const std::string& catalogHash);

/// The outcome kept under `key`, if a readable one is there (anything damaged or foreign reads as absent).
std::optional<CaseOutcome> readCaseOutcome(const std::string& cacheDir, const std::string& key);

/// Keeps `outcome` under `key`, atomically (written aside, then renamed), and removes the oldest entries beyond
/// a few dozen. Failures are silent: the cache only saves time.
void writeCaseOutcome(const std::string& cacheDir, const std::string& key, const CaseOutcome& outcome);

}  // namespace attrib::engine
