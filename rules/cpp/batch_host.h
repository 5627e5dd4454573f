// SPDX-License-Identifier: GPL-3.0-or-later
// BatchStepOnBatchHost: a Slurm batch step's node-less reports placed on the host a banner of the same job names.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeBatchStepOnBatchHost(const nlohmann::json& config);

}  // namespace attrib::rules
