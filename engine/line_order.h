// SPDX-License-Identifier: GPL-3.0-or-later
// Decisions without time (docs/verdict.md, "Untimed evidence"): within one file, line order is time order. Two
// symptoms with no usable time whose first evidence lines are in the same file happened in the order of those lines;
// across files, or when either side has a real time, line order says nothing.
#pragma once

#include "engine/catalog.h"

#include <string>
#include <vector>

namespace attrib::engine {

/// A time that can be compared with another symptom's: stamped or inherited, not boot-relative, not absent.
bool usableTime(const Symptom& s);

/// Sets each symptom's firstFile and firstObservation from its evidence and the files' runs of observation ids.
void placeFirstLines(std::vector<Symptom>& symptoms, const std::vector<FileRun>& fileRuns);

/// Whether a and b are ordered by their lines: both without a usable time, first lines in one known file.
bool lineOrdered(const Symptom& a, const Symptom& b);

/// The trace detail naming the order used: "line order in FILE".
std::string lineOrderDetail(const Symptom& s);

/// The sentence a verdict gets when the order of events mattered and no time gave it: the root cause has no usable
/// time while it explains other symptoms, or a symptom it explains that could itself have been the root cause
/// (priority at least the root's) has none. An untimed exit line explained by a timed hardware fault decided
/// nothing: priority would have set it aside anyway. When line order of one file ordered every untimed pair, the
/// sentence says so; otherwise untimed symptoms were taken as co-occurring. "" when time decided.
std::string untimedOrderNote(const Catalog& catalog, const PriorityTable* table, const Symptom& root,
                             const std::vector<Symptom>& symptoms);

}  // namespace attrib::engine
