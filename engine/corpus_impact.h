// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus impact of a catalog change: two catalogs over every bundle of a corpus, and the verdicts that
// changed. Shared by `attrib replay` and the workbench's table; bundle analysis is injected (importers).
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "engine/verdict_diff.h"

#include <functional>
#include <string>
#include <vector>

namespace attrib::engine {

/// One bundle analysed with both catalogs.
struct BundleImpact {
    std::string bundle;     ///< path as given
    std::string name;       ///< folder or archive name
    std::string error;      ///< why a side has no result ("" when both ran)
    std::string baseline;   ///< "terminal/sub_domain root" of the baseline verdict
    std::string candidate;  ///< the same for the new catalog
    VerdictDiff diff;
    bool changed() const { return !error.empty() || !diff.empty(); }
};

struct CorpusImpact {
    std::string baselineDir, candidateDir;
    std::string baselineHash, candidateHash;
    std::vector<BundleImpact> bundles;
    /// Catalog problems of the new catalog that the baseline does not have ("file:line: rule: message").
    std::vector<std::string> newProblems;
    std::size_t changedCount() const;
};

/// Analyses one bundle with one catalog; returns null and sets `error` when there is no result.
using BundleAnalyzer =
    std::function<AnalysisSnapshot(const std::string& bundle, const CatalogPtr& catalog, std::string& error)>;

/// Bundles of a corpus folder: every folder below it holding an expected.json, else its immediate
/// sub-folders and archives (.tar, .tar.gz, .tgz, .zip). Sorted; DIR itself when it holds an expected.json.
std::vector<std::string> listBundles(const std::string& dir);

/// Runs both catalogs over every bundle. Progress stage "replay", one unit per bundle.
CorpusImpact runCorpusImpact(const std::vector<std::string>& bundles, const CatalogPtr& baseline,
                             const CatalogPtr& candidate, const BundleAnalyzer& analyze,
                             ProgressSink* progress = nullptr, const CancelFlag* cancel = nullptr);

/// The table `attrib replay` prints: one block per changed bundle (all bundles with `all`), then a total.
std::string corpusImpactText(const CorpusImpact& impact, bool all = false);

/// Problems present in `after` but not in `before`, ignoring line numbers (an edit moves lines).
std::vector<Diagnostic> newDiagnostics(const Catalog& before, const Catalog& after);

}  // namespace attrib::engine
