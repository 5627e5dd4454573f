// SPDX-License-Identifier: GPL-3.0-or-later
// Archives and compressed files read in place through libarchive: .tar, .tar.gz/.tgz, .zip, .gz (bz2, xz, zstd
// too). Nothing is ever extracted to disk. Decompression is bounded by a size budget and a ratio limit.
#pragma once

#include "importers/line_reader.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers {

/// Limits on what decompression may produce (AnalyzeOptions carries them).
/// Every byte decompressed (read, skipped or rejected members alike) counts against these.
struct ArchiveLimits {
    std::uint64_t maxDecompressedBytes = 4ULL << 30;  ///< total over one analysis (listing and reading each)
    double maxCompressionRatio = 200.0;               ///< decompressed : compressed, per stream
    std::uint64_t ratioFloorBytes = 16ULL << 20;      ///< the ratio is only checked past this many bytes
    std::size_t maxMembers = 100000;                  ///< members listed per archive
    std::size_t maxMembersTotal = 200000;             ///< members listed over one analysis (all archives)
    std::size_t maxFiles = 100000;                    ///< files listed in a folder bundle
    int maxDepth = 48;                                ///< folder nesting read in a folder bundle
};

/// Decompressed bytes and listed members charged so far in one analysis (shared by every stream it opens).
class DecompressionBudget {
public:
    explicit DecompressionBudget(const ArchiveLimits& limits)
        : m_limits(limits)
    {
    }
    const ArchiveLimits& limits() const { return m_limits; }
    /// Charges `bytes`; returns an error text once the total cap is passed.
    std::string charge(std::uint64_t bytes);
    bool exhausted() const { return m_used > m_limits.maxDecompressedBytes; }
    std::uint64_t used() const { return m_used; }
    /// Counts one listed member or file; false once the per-analysis cap is reached.
    bool takeMember() { return ++m_members <= m_limits.maxMembersTotal; }

private:
    ArchiveLimits m_limits;
    std::uint64_t m_used = 0;
    std::size_t m_members = 0;
};

/// What the first bytes of a file say it is.
enum class Container { Plain, Compressed, Archive };

/// Looks at the leading bytes (at least 512 for tar) for archive or compression signatures.
bool hasCompressionMagic(std::string_view head);
bool hasArchiveMagic(std::string_view head);

/// Probes a file on disk: plain text, a compressed single file, or a tar/zip archive (compressed or not).
Container probeFile(const std::string& path);

/// Where a stream's read error is described (libarchive messages, limits); shared with the reader.
using ErrorSink = std::shared_ptr<std::string>;

/// Wraps `inner` so that gzip/bzip2/xz/zstd data comes out decompressed. `compressedSize` (0 = unknown) is
/// the denominator of the ratio check. Errors (truncated data, limits) end the stream with -1 and a text in `error`.
ReadFn decompressReader(ReadFn inner, std::uint64_t compressedSize, DecompressionBudget* budget, ErrorSink error);

/// Returns `inner` unchanged for plain data, or wrapped by decompressReader when its first bytes are compressed.
/// `compressed` is set accordingly.
ReadFn maybeDecompress(ReadFn inner, std::uint64_t compressedSize, DecompressionBudget* budget, ErrorSink error,
                       bool& compressed);

/// One member of an archive.
struct ArchiveMember {
    std::string name;  ///< raw member path as stored
    std::uint64_t size = 0;
    std::int64_t mtime = 0;
    std::string problem;  ///< why it is not read ("" when fine)
};

struct ArchiveListing {
    std::vector<ArchiveMember> members;  ///< regular files and rejected entries, archive order
    std::string error;                   ///< listing stopped early (damaged archive, limits)
};

/// Lists an archive's regular files. Absolute paths and `..` components are rejected (listed with a problem),
/// links and special files are listed with a problem; a member whose declared size breaks the budget stops the
/// listing (reading past it would mean decompressing it). Skipping a member's data seeks where the archive is
/// not compressed; otherwise the bytes skipped are charged to `budget` and its ratio limit, and the listing
/// stops (with an error) at the cap.
ArchiveListing listArchive(const std::string& path, DecompressionBudget& budget);

/// Reads the wanted members of an archive in one sequential pass. `visit` gets the member name and a reader
/// over its (archive-decompressed) data; it returns false to stop. Returns "" or the archive-level error.
std::string visitArchive(const std::string& path, const std::function<bool(const std::string&)>& wanted,
                         const std::function<bool(const std::string& member, const ReadFn& read)>& visit,
                         DecompressionBudget* budget, const ErrorSink& error);

/// A reader over one member (re-reads the archive from its start up to the member).
ReadFn archiveMemberReader(const std::string& path, const std::string& member, DecompressionBudget* budget,
                           ErrorSink error, std::string& openError);

/// Rejects absolute member paths and `..` components; returns the reason or "".
std::string unsafeMemberPath(std::string_view name);

/// Whether a Unix time (seconds) is plausible for evidence: between 2000 and 100 years from now. 0 (1970)
/// and far-future times are not.
bool plausibleEpochSeconds(std::int64_t seconds);

}  // namespace attrib::importers
