// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis driver: bundle -> observations -> events -> verdict. Used by the CLI, GUI and Service.
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "engine/verdict.h"

#include <memory>
#include <string>

namespace attrib::importers {

struct AnalyzeOptions {
    engine::ProgressSink* progress = nullptr;
    const engine::CancelFlag* cancel = nullptr;
    std::size_t maxLineBytes = 1 << 20;  ///< longer lines are cut with a truncation note in coverage
};

/// Outcome of analyzeBundle: a result, or a one-line reason why there is none.
struct AnalyzeOutcome {
    std::shared_ptr<engine::AnalysisResult> result;
    std::string error;
    bool cancelled = false;
};

/// Analyses a bundle folder. A partly bad bundle still yields a verdict; only a missing or empty bundle
/// (or cancellation) yields none.
AnalyzeOutcome analyzeBundle(const std::string& path, const engine::CatalogPtr& catalog,
                             const AnalyzeOptions& options = {});

}  // namespace attrib::importers
