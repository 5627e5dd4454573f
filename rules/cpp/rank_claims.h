// SPDX-License-Identifier: GPL-3.0-or-later
// DuplicateRankClaims: two processes of one launch that each claim the same global rank.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeDuplicateRankClaims(const nlohmann::json& config);

}  // namespace attrib::rules
