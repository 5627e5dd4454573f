// SPDX-License-Identifier: GPL-3.0-or-later
// Decompressing single streams (a .gz, .xz, .zst file or member) in memory: gzip through zlib (its CRC-32 and
// length checked), the other formats through libarchive's raw reader, every byte charged to the budget.
#include "importers/archive.h"
#include "importers/archive_gzip.h"
#include "importers/archive_meter.h"

#include <archive_entry.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace attrib::importers {

using namespace detail;

namespace {

/// State behind decompressReader: libarchive pulls compressed bytes from `inner` through `onRead`.
struct Decompressor {
    ReadFn inner;
    ArchivePtr handle;
    std::array<char, CallbackBlock> block{};
    StreamMeter meter;
    MeteredReader data;  ///< reads through `handle`, charged to `meter`
    bool started = false;

    static la_ssize_t onRead(archive* a, void* self, const void** out)
    {
        auto* d = static_cast<Decompressor*>(self);
        const long got = d->inner ? d->inner(d->block.data(), d->block.size()) : 0;
        if (got < 0) {
            archive_set_error(a, EIO, "read error in the compressed data");
            return -1;
        }
        *out = d->block.data();
        return got;
    }

    long read(char* buffer, std::size_t capacity)
    {
        if (data.failed)
            return -1;
        if (!started) {
            started = true;
            archive_entry* entry = nullptr;
            const int rc = archive_read_next_header(handle.get(), &entry);
            if (rc == ARCHIVE_EOF)
                return 0;
            if (rc < ARCHIVE_WARN)
                return data.fail(archiveError(handle.get(), "cannot decompress"));
        }
        return data.read(buffer, capacity, "decompression error");
    }
};

}  // namespace

std::string DecompressionBudget::charge(std::uint64_t bytes)
{
    m_used += bytes;
    if (m_used > m_limits.maxDecompressedBytes)
        return "decompressed size cap of " + sizeText(m_limits.maxDecompressedBytes) +
            " reached (AnalyzeOptions::maxDecompressedBytes); stopped reading";
    return {};
}

bool hasCompressionMagic(std::string_view h)
{
    auto starts = [&](std::string_view magic) { return h.substr(0, magic.size()) == magic; };
    return starts("\x1f\x8b") || starts("BZh") ||
        starts(std::string_view("\xfd"
                                "7zXZ\0",
                                6)) ||
        starts("\x28\xb5\x2f\xfd") || starts("\x04\x22\x4d\x18");
}

ReadFn decompressReader(ReadFn inner, std::uint64_t compressedSize, DecompressionBudget* budget, ErrorSink error)
{
    auto d = std::make_shared<Decompressor>();
    d->inner = std::move(inner);
    d->meter.compressed = compressedSize;
    d->meter.budget = budget;
    d->handle.reset(archive_read_new());
    d->data = {d->handle.get(), &d->meter, std::move(error)};
    archive_read_support_filter_all(d->handle.get());
    archive_read_support_format_raw(d->handle.get());
    if (archive_read_open(d->handle.get(), d.get(), nullptr, &Decompressor::onRead, nullptr) != ARCHIVE_OK)
        d->data.fail(archiveError(d->handle.get(), "cannot open the compressed data"));
    return [d](char* buffer, std::size_t capacity) { return d->read(buffer, capacity); };
}

namespace {

/// Replays already-read leading bytes before the rest of a stream.
struct Pushback {
    std::string head;
    std::size_t pos = 0;
    ReadFn inner;

    long read(char* buffer, std::size_t capacity)
    {
        if (pos < head.size()) {
            const std::size_t n = std::min(capacity, head.size() - pos);
            std::memcpy(buffer, head.data() + pos, n);
            pos += n;
            return static_cast<long>(n);
        }
        return inner(buffer, capacity);
    }
};

}  // namespace

ReadFn maybeDecompress(ReadFn inner, std::uint64_t compressedSize, DecompressionBudget* budget, ErrorSink error,
                       bool& compressed)
{
    compressed = false;
    auto p = std::make_shared<Pushback>();
    p->inner = std::move(inner);
    p->head.resize(8);
    std::size_t got = 0;
    while (got < p->head.size()) {
        const long n = p->inner(p->head.data() + got, p->head.size() - got);
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    p->head.resize(got);
    ReadFn replay = [p](char* buffer, std::size_t capacity) { return p->read(buffer, capacity); };
    if (!hasCompressionMagic(p->head))
        return replay;
    compressed = true;
    if (p->head.substr(0, 2) == "\x1f\x8b") {  // gzip: zlib checks the CRC-32 and length trailers
        auto meter = std::make_shared<StreamMeter>();
        meter->compressed = compressedSize;
        meter->budget = budget;
        return detail::gzipReader(
            std::move(replay), [meter](std::uint64_t bytes) { return meter->charge(bytes); }, std::move(error));
    }
    return decompressReader(std::move(replay), compressedSize, budget, std::move(error));
}

}  // namespace attrib::importers
