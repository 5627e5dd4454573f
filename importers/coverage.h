// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: per-collector coverage from per-file coverage, and "missing" entries for nodes without evidence.
#pragma once

#include "engine/model.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace attrib::importers::detail {

/// By file index: how many records came from each (collector kind, node). A file usually holds one kind; a
/// pre-normalized observations.jsonl holds kernel, application, scheduler and metric records of many nodes.
using KindNode = std::pair<engine::SourceKind, std::string>;
using FileNodes = std::map<std::size_t, std::map<KindNode, std::uint64_t>>;

/// Groups file coverage by collector kind. `fileNodes` adds the nodes a multi-node file covered, and moves the
/// records of another kind than the file's to that collector.
std::vector<engine::CollectorCoverage> summarize(const std::vector<engine::FileCoverage>& files,
                                                 const FileNodes& fileNodes);

/// Nodes the job ran on but for which a kernel or application collector delivered nothing.
void addMissing(const engine::ExecutionContext& ctx, std::vector<engine::CollectorCoverage>& coverage);

}  // namespace attrib::importers::detail
