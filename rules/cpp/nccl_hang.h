// SPDX-License-Identifier: GPL-3.0-or-later
// NcclHangCulprit: in a collective hang, the ranks that did not time out (or are behind) point to the culprit.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeNcclHangCulprit(const nlohmann::json& config);

/// "0-2,5,7-8" for {0,1,2,5,7,8} (Slurm task-list style).
std::string compressRanks(const std::vector<int>& ranks);

}  // namespace attrib::rules
