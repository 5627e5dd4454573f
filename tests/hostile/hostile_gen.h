// SPDX-License-Identifier: GPL-3.0-or-later
// Generators for the hostile-input suite: tar streams and zstd/gzip frames built in memory, so a member that
// expands to gigabytes costs a few hundred kilobytes (zstd RLE blocks: 4 bytes per 128 KiB).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace attrib::tests {

/// One 512-byte ustar header. Sizes past the octal field use the base-256 form GNU tar and libarchive read.
inline std::string tarHeader(const std::string& name, std::uint64_t size, char type = '0', const std::string& link = {},
                             std::uint64_t mtime = 1776890000)
{
    std::string h(512, '\0');
    std::memcpy(h.data(), name.data(), std::min<std::size_t>(name.size(), 100));
    std::snprintf(h.data() + 100, 8, "%07o", 0644);
    std::snprintf(h.data() + 108, 8, "%07o", 0);
    std::snprintf(h.data() + 116, 8, "%07o", 0);
    if (size < 077777777777ULL) {
        std::snprintf(h.data() + 124, 12, "%011llo", static_cast<unsigned long long>(size));
    } else {
        h[124] = static_cast<char>(0x80);
        for (int i = 0; i < 8; ++i)
            h[135 - i] = static_cast<char>((size >> (8 * i)) & 0xff);
    }
    std::snprintf(h.data() + 136, 12, "%011llo", static_cast<unsigned long long>(mtime));
    h[156] = type;
    std::memcpy(h.data() + 157, link.data(), std::min<std::size_t>(link.size(), 100));
    std::memcpy(h.data() + 257, "ustar", 6);
    std::memcpy(h.data() + 263, "00", 2);
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (const char c : h)
        sum += static_cast<unsigned char>(c);
    std::snprintf(h.data() + 148, 8, "%06o", sum);
    h[155] = ' ';
    return h;
}

/// A regular member: header, data, padding to 512.
inline std::string tarMember(const std::string& name, const std::string& data, char type = '0',
                             const std::string& link = {}, std::uint64_t mtime = 1776890000)
{
    std::string m = tarHeader(name, data.size(), type, link, mtime) + data;
    m.resize((m.size() + 511) / 512 * 512, '\0');
    return m;
}

inline std::string tarEnd()
{
    return std::string(1024, '\0');
}

/// A zstd frame: `before` as raw blocks, then `zeros` zero bytes as RLE blocks, then `after` as raw blocks.
inline std::string zstdFrame(const std::string& before, std::uint64_t zeros, const std::string& after)
{
    std::string f("\x28\xb5\x2f\xfd", 4);
    f += '\0';                     // frame header descriptor: no content size, not single-segment, no checksum
    f += static_cast<char>(0x38);  // window descriptor: 128 KiB
    constexpr std::uint32_t Block = 128 * 1024;
    struct Pending {
        int type;
        std::uint32_t size;
        std::string body;
    };
    std::vector<Pending> blocks;
    for (std::size_t at = 0; at < before.size(); at += Block)
        blocks.push_back({0, static_cast<std::uint32_t>(std::min<std::size_t>(Block, before.size() - at)),
                          before.substr(at, Block)});
    for (std::uint64_t left = zeros; left > 0;) {
        const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(Block, left));
        blocks.push_back({1, n, std::string(1, '\0')});
        left -= n;
    }
    for (std::size_t at = 0; at < after.size(); at += Block)
        blocks.push_back(
            {0, static_cast<std::uint32_t>(std::min<std::size_t>(Block, after.size() - at)), after.substr(at, Block)});
    if (blocks.empty())
        blocks.push_back({0, 0, {}});
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::uint32_t header = (i + 1 == blocks.size() ? 1u : 0u) |
            (static_cast<std::uint32_t>(blocks[i].type) << 1) | (blocks[i].size << 3);
        f += static_cast<char>(header & 0xff);
        f += static_cast<char>((header >> 8) & 0xff);
        f += static_cast<char>((header >> 16) & 0xff);
        f += blocks[i].body;
    }
    return f;
}

/// `data` as a gzip member (zlib, best compression).
inline std::string gzipOf(const std::string& data)
{
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, data.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

/// `head`, then `zeros` zero bytes, then `tail`, as one gzip member deflated as a stream (a bomb is never held).
inline std::string gzipZeros(const std::string& head, std::uint64_t zeros, const std::string& tail)
{
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    std::string out;
    std::vector<unsigned char> buffer(1 << 20);
    const auto feed = [&](const char* data, std::size_t size, int flush) {
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
        z.avail_in = static_cast<uInt>(size);
        do {
            z.next_out = buffer.data();
            z.avail_out = static_cast<uInt>(buffer.size());
            deflate(&z, flush);
            out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - z.avail_out);
        } while (z.avail_out == 0);
    };
    feed(head.data(), head.size(), Z_NO_FLUSH);
    const std::string block(1 << 20, '\0');
    for (std::uint64_t left = zeros; left > 0;) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
        feed(block.data(), n, Z_NO_FLUSH);
        left -= n;
    }
    feed(tail.data(), tail.size(), Z_FINISH);
    deflateEnd(&z);
    return out;
}

}  // namespace attrib::tests
