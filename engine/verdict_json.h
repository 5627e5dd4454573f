// SPDX-License-Identifier: GPL-3.0-or-later
// Verdict JSON (BRIEF §6): stable key order, byte-identical output for identical input.
#pragma once

#include "engine/verdict.h"

#include <nlohmann/json.hpp>

#include <iosfwd>

namespace attrib::engine {

inline constexpr int VerdictSchemaVersion = 1;
/// Evidence lines listed per symptom in the verdict (the rest is counted in evidence_total).
inline constexpr std::size_t MaxEvidencePerSymptom = 20;

nlohmann::ordered_json verdictToJson(const AnalysisResult& result);
nlohmann::ordered_json traceToJson(const std::vector<TraceStep>& trace);
std::string dumpJson(const nlohmann::ordered_json& json);
/// The JSON text (indent 2, invalid UTF-8 replaced, a final newline) straight to `out`: a large verdict or trace is
/// not held twice (the tree and its text) at the end of an analysis. dumpJson returns the same text as a string.
void writeJson(std::ostream& out, const nlohmann::ordered_json& json);

}  // namespace attrib::engine
