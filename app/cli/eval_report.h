// SPDX-License-Identifier: GPL-3.0-or-later
// What `attrib eval` prints: per-case rows, totals, the per-domain and confusion tables, or all of it as JSON.
#pragma once

#include "engine/corpus_eval.h"

#include <ostream>
#include <string>
#include <vector>

namespace attrib::cli {

/// {"all": summary of every scored case, "heldout": summary of the held-out ones among them}.
nlohmann::ordered_json evalFigures(const std::vector<engine::CaseScore>& scores);

void printEvalText(std::ostream& out, const std::vector<engine::CaseScore>& scores, bool verbose,
                   const std::vector<std::string>& floorMisses);

void printEvalJson(std::ostream& out, const std::vector<engine::CaseScore>& scores,
                   const nlohmann::ordered_json& figures, const std::vector<std::string>& floorMisses);

}  // namespace attrib::cli
