// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: per-collector coverage from per-file coverage, and "missing" entries for nodes without evidence.
#pragma once

#include "engine/model.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace attrib::importers::detail {

/// Groups file coverage by collector kind. `fileNodes` adds the nodes a multi-node file covered.
std::vector<engine::CollectorCoverage> summarize(const std::vector<engine::FileCoverage>& files,
                                                 const std::map<std::size_t, std::set<std::string>>& fileNodes);

/// Nodes the job ran on but for which a kernel or application collector delivered nothing.
void addMissing(const engine::ExecutionContext& ctx, std::vector<engine::CollectorCoverage>& coverage);

}  // namespace attrib::importers::detail
