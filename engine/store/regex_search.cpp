// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/regex_search.h"

#include "engine/store/store_error.h"

#include <re2/re2.h>

namespace attrib::store {

namespace {
constexpr std::size_t MaxHitText = 4096;  // a hit shows the start of a giant line, not all of it
}

RegexSearchResult regexSearch(const LineSource& source, std::string_view pattern, bool caseSensitive, std::size_t limit,
                              engine::ProgressSink* progress, const engine::CancelFlag* cancel)
{
    RE2::Options options;
    options.set_log_errors(false);
    options.set_case_sensitive(caseSensitive);
    options.set_max_mem(64 << 20);  // a hostile pattern cannot take the machine's memory
    const RE2 re(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re.ok())
        throw StoreError(StoreError::Kind::Invalid,
                         "regular expression \"" + std::string(pattern) + "\": " + re.error());
    RegexSearchResult result;
    const std::size_t files = source.files.size();
    for (std::size_t file = 0; file < files && !result.truncated && !result.cancelled; ++file) {
        if (progress)
            progress->progress(engine::ProgressStage::Regex, file, files);
        if (!source.readLines)
            break;
        const std::string error = source.readLines(file, [&](std::uint64_t line, std::uint64_t, std::string_view text) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                result.cancelled = true;
                return false;
            }
            ++result.linesScanned;
            if (!RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re))
                return true;
            if (result.hits.size() >= limit) {
                result.truncated = true;
                return false;
            }
            result.hits.push_back({file, source.files[file].path, source.files[file].node, line,
                                   std::string(text.substr(0, MaxHitText))});
            return true;
        });
        if (!error.empty())
            result.errors.push_back(error);
    }
    if (progress)
        progress->progress(engine::ProgressStage::Regex, files, files);
    return result;
}

}  // namespace attrib::store
