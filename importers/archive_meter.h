// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: what the archive readers share: the libarchive handle type, error texts, and the meter that charges
// each stream's decompressed bytes to the ratio limit and the analysis budget.
#pragma once

#include "importers/archive.h"

#include <archive.h>

#include <cerrno>
#include <memory>
#include <string>

namespace attrib::importers::detail {

inline constexpr std::size_t CallbackBlock = std::size_t{64} * 1024;

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

/// Reads the decompressed data of the entry `a` stands at, charged to `meter`. After a failure every read fails;
/// the failure's text goes to `error` (when set) and errno is EIO, which is how a ReadFn reports a failure.
struct MeteredReader {
    archive* a = nullptr;
    StreamMeter* meter = nullptr;
    ErrorSink error;
    bool failed = false;

    long read(char* buffer, std::size_t capacity, const char* readError)
    {
        if (failed)
            return -1;
        const la_ssize_t got = archive_read_data(a, buffer, capacity);
        if (got < 0)
            return fail(archiveError(a, readError));
        if (auto problem = meter->charge(static_cast<std::uint64_t>(got)); !problem.empty())
            return fail(problem);
        return static_cast<long>(got);
    }

    long fail(const std::string& text)
    {
        failed = true;
        if (error)
            *error = text;
        errno = EIO;
        return -1;
    }
};

}  // namespace attrib::importers::detail
