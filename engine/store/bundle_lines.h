// SPDX-License-Identifier: GPL-3.0-or-later
// The search index's view of an analysed bundle: every readable file, lines streamed through the importers
// (plain, compressed and archive members alike), hit text read back by offset.
#pragma once

#include "engine/store/search_index.h"
#include "engine/verdict.h"

namespace attrib::store {

/// Every file of the analysis with its node, in the analysis' file order (hit.file indexes result.files). Files
/// the collectors skipped (binary, empty, unreadable) are not read; the index names them with that reason.
/// The source keeps a copy of the file list, so it outlives `result`.
LineSource bundleLineSource(const engine::AnalysisResult& result);

}  // namespace attrib::store
