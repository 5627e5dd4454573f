// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis with the files of a folder bundle read on several threads (issue 13).
#pragma once

#include "importers/analyzer.h"

namespace attrib::importers {

/// analyzeBundle() reading the plain files of a folder bundle on `jobs` threads (0 = one per CPU). The result is
/// the same, byte for byte, for any `jobs`: each file is read into its own shard and the shards join in bundle
/// order. Compressed files are read on the calling thread (the decompression budget is charged in bundle
/// order), archives in one pass on the calling thread.
AnalyzeOutcome analyzeBundleParallel(const std::string& path, const engine::CatalogPtr& catalog,
                                     const AnalyzeOptions& options, unsigned jobs);

}  // namespace attrib::importers
