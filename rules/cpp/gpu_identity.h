// SPDX-License-Identifier: GPL-3.0-or-later
// LearnGpuIdentity: learns PCI address -> GPU index and rank -> (node, GPU) maps from evidence.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeLearnGpuIdentity(const nlohmann::json& config);

}  // namespace attrib::rules
