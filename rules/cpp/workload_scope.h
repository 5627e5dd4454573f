// SPDX-License-Identifier: GPL-3.0-or-later
// ScopeToWorkload: daemon logs (slurmctld) speak about every job and node; keep only what concerns this workload.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeScopeToWorkload(const nlohmann::json& config);

}  // namespace attrib::rules
