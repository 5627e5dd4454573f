// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis driver: bundle -> observations -> events -> verdict. Used by the CLI, GUI and Service.
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "engine/verdict.h"

#include <cstdint>
#include <memory>
#include <string>

namespace attrib::importers {

struct AnalyzeOptions {
    engine::ProgressSink* progress = nullptr;
    const engine::CancelFlag* cancel = nullptr;
    std::size_t maxLineBytes = 1 << 20;  ///< longer lines are cut with a truncation note in coverage
    /// Decompression limits for archives and compressed files (total over the bundle, and per stream ratio).
    /// Hitting one stops reading that file with a coverage error; the rest of the bundle is analysed.
    std::uint64_t maxDecompressedBytes = 4ULL << 30;
    double maxCompressionRatio = 200.0;
    std::size_t maxDocumentBytes = 64 << 20;  ///< JSON documents (sacct --json, events) larger are not parsed
    /// Keep the rule trace in the result (views, stores, --trace); false leaves AnalysisResult::trace empty.
    bool keepTrace = true;
};

/// Outcome of analyzeBundle: a result, or a one-line reason why there is none.
struct AnalyzeOutcome {
    std::shared_ptr<engine::AnalysisResult> result;
    std::string error;
    bool cancelled = false;
};

/// Why `path` cannot be opened as a bundle ("" when it can): a folder, or an archive recognised by its content
/// (tar or zip, compressed with gzip, bzip2, xz or zstd, whatever its name). The one test the CLI and GUI share.
std::string whyNotBundle(const std::string& path);

/// Analyses a bundle: a folder, or a .tar, .tar.gz/.tgz or .zip of one (read in place, never extracted).
/// A partly bad bundle still yields a verdict; only a missing or empty bundle (or cancellation) yields none.
AnalyzeOutcome analyzeBundle(const std::string& path, const engine::CatalogPtr& catalog,
                             const AnalyzeOptions& options = {});

}  // namespace attrib::importers
