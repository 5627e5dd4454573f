// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: what the archive readers share: the libarchive handle type, error texts, and the meter that charges
// each stream's decompressed bytes to the ratio limit and the analysis budget.
#pragma once

#include "importers/archive.h"

#include <archive.h>

#include <memory>
#include <string>

namespace attrib::importers::detail {

inline constexpr std::size_t CallbackBlock = 64 * 1024;

struct ArchiveFree {
    void operator()(archive* a) const
    {
        if (a)
            archive_read_free(a);
    }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveFree>;

inline std::string archiveError(archive* a, const char* fallback)
{
    const char* text = archive_error_string(a);
    return text && *text ? std::string(text) : std::string(fallback);
}

inline std::string sizeText(std::uint64_t bytes)
{
    if (bytes >= (1ULL << 30))
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (1ULL << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

/// Counts one stream's output against the ratio limit and the analysis-wide budget.
struct StreamMeter {
    std::uint64_t compressed = 0;  ///< input size (0 = unknown: no ratio check)
    std::uint64_t produced = 0;
    DecompressionBudget* budget = nullptr;
    std::string stopped;  ///< why the caps stopped this stream ("" while within them)

    std::string charge(std::uint64_t bytes)
    {
        stopped = check(bytes);
        return stopped;
    }

    std::string check(std::uint64_t bytes)
    {
        produced += bytes;
        if (budget) {
            if (auto problem = budget->charge(bytes); !problem.empty())
                return problem;
        }
        const double limit = budget ? budget->limits().maxCompressionRatio : ArchiveLimits().maxCompressionRatio;
        const std::uint64_t floor = budget ? budget->limits().ratioFloorBytes : ArchiveLimits().ratioFloorBytes;
        if (compressed > 0 && produced > floor &&
            static_cast<double>(produced) > limit * static_cast<double>(compressed))
            return "decompression ratio over " + std::to_string(static_cast<long>(limit)) + ":1 (" +
                sizeText(produced) + " from " + sizeText(compressed) + "); stopped reading (zip bomb?)";
        return {};
    }
};

}  // namespace attrib::importers::detail
