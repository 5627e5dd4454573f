// SPDX-License-Identifier: GPL-3.0-or-later
// zlib inflate over a ReadFn, member after member, with the trailer checks zlib makes for gzip (windowBits 31).
#include "importers/archive_gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace attrib::importers::detail {

namespace {

struct GzipState {
    ReadFn inner;
    ChargeFn charge;
    ErrorSink error;
    z_stream z{};
    std::vector<unsigned char> input = std::vector<unsigned char>(std::size_t{64} * 1024);
    bool initialised = false;
    bool inputEnded = false;
    bool inMember = false;
    bool done = false;
    bool failed = false;
    std::uint64_t members = 0;  ///< gzip members read to their end

    GzipState() { initialised = inflateInit2(&z, 15 + 16) == Z_OK; }
    ~GzipState()
    {
        if (initialised)
            inflateEnd(&z);
    }
    GzipState(const GzipState&) = delete;
    GzipState& operator=(const GzipState&) = delete;

    long fail(const std::string& text)
    {
        failed = true;
        if (error)
            *error = text;
        errno = EIO;
        return -1;
    }

    /// Refills the input; false (with `failed`) on a read error.
    bool refill()
    {
        const long got = inner(reinterpret_cast<char*>(input.data()), input.size());
        if (got < 0) {
            fail(error && !error->empty() ? *error : std::string("read error in the compressed data"));
            return false;
        }
        inputEnded = got == 0;
        z.next_in = input.data();
        z.avail_in = static_cast<uInt>(got);
        return true;
    }

    /// One inflate step; returns false when reading must stop (end or error).
    bool step()
    {
        if (z.avail_in == 0 && !inputEnded && !refill())
            return false;
        if (z.avail_in == 0 && inputEnded) {
            if (inMember)
                fail("the gzip data is truncated (it ends inside a member): read up to the damage");
            done = !inMember;
            return false;
        }
        inMember = true;
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            inMember = false;
            ++members;
            inflateReset(&z);
            return true;
        }
        if (rc == Z_OK || rc == Z_BUF_ERROR)
            return true;
        if (members > 0 && z.total_out == 0 && rc == Z_DATA_ERROR) {  // padding after the last member, as gzip
            inMember = false;                                         // itself ignores it
            done = true;
            return false;
        }
        const std::string why = z.msg ? z.msg : "damaged data";
        if (why.find("data check") != std::string::npos || why.find("length check") != std::string::npos)
            fail("gzip CRC-32/length check failed (" + why + "): the data is damaged");
        else
            fail("damaged gzip data: " + why);
        return false;
    }

    long read(char* buffer, std::size_t capacity)
    {
        if (failed)
            return -1;
        if (!initialised)
            return fail("cannot start gzip decompression");
        if (done || capacity == 0)
            return 0;
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = static_cast<uInt>(std::min<std::size_t>(capacity, 1u << 30));
        const uInt start = z.avail_out;
        while (z.avail_out == start && step()) { }
        const std::uint64_t produced = start - z.avail_out;
        if (produced == 0)
            return failed ? -1 : 0;
        if (auto problem = charge(produced); !problem.empty())
            return fail(problem);
        return static_cast<long>(produced);
    }
};

}  // namespace

ReadFn gzipReader(ReadFn inner, ChargeFn charge, ErrorSink error)
{
    auto s = std::make_shared<GzipState>();
    s->inner = std::move(inner);
    s->charge = std::move(charge);
    s->error = std::move(error);
    return [s](char* buffer, std::size_t capacity) { return s->read(buffer, capacity); };
}

}  // namespace attrib::importers::detail
