// SPDX-License-Identifier: GPL-3.0-or-later
// The search panel's second mode: an RE2 regular expression streamed over every line of the bundle (no index;
// the same line source the index is built from), cancellable, hits in file and line order.
#pragma once

#include "engine/progress.h"
#include "engine/store/search_index.h"

#include <string>
#include <string_view>
#include <vector>

namespace attrib::store {

struct RegexSearchResult {
    std::vector<SearchHit> hits;
    std::uint64_t linesScanned = 0;
    bool truncated = false;           ///< stopped at the limit
    bool cancelled = false;           ///< stopped by the cancel flag: `hits` holds what was found until then
    std::vector<std::string> errors;  ///< files that could not be read, each naming the file
};

/// Lines of `source` that match `pattern` (RE2 syntax; unanchored, case-insensitive unless `caseSensitive`).
/// Throws StoreError(Invalid) naming the pattern and RE2's reason when it does not compile. Progress is
/// reported as ("regex", files done, files).
RegexSearchResult regexSearch(const LineSource& source, std::string_view pattern, bool caseSensitive, std::size_t limit,
                              engine::ProgressSink* progress = nullptr, const engine::CancelFlag* cancel = nullptr);

}  // namespace attrib::store
