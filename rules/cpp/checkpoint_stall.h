// SPDX-License-Identifier: GPL-3.0-or-later
// CheckpointOutlastsCollective: a checkpoint save still running when the other ranks' collective timed out.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeCheckpointOutlastsCollective(const nlohmann::json& config);

}  // namespace attrib::rules
