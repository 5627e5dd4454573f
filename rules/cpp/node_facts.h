// SPDX-License-Identifier: GPL-3.0-or-later
// NodeFactsDiffer: the nodes of one job report different values of a fact that must be the same everywhere.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeNodeFactsDiffer(const nlohmann::json& config);

}  // namespace attrib::rules
