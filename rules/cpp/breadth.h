// SPDX-License-Identifier: GPL-3.0-or-later
// JobWideBreadth: a failure that many nodes report at once concerns the job (shared storage, configuration).
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeJobWideBreadth(const nlohmann::json& config);

}  // namespace attrib::rules
