// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis with the files of a folder bundle read on several threads (issue 13).
#pragma once

#include "importers/analyzer.h"

namespace attrib::importers {

/// analyzeBundle() reading the plain files of a folder bundle on `jobs` threads (0 = one per CPU). The result is
/// the same, byte for byte, for any `jobs`: each file is read into its own shard and the shards join in bundle
/// order. Compressed files are inflated on the threads too, each against a budget of its own that is charged to
/// the bundle's decompression budget in bundle order (a file the bundle's budget cannot take whole is read again
/// on the calling thread, as reading in order would have); archives are read in one pass on the calling thread.
AnalyzeOutcome analyzeBundleParallel(const std::string& path, const engine::CatalogPtr& catalog,
                                     const AnalyzeOptions& options, unsigned jobs);

}  // namespace attrib::importers
