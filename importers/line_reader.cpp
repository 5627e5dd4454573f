// SPDX-License-Identifier: GPL-3.0-or-later
// Chunked line splitting with a bounded line buffer, and a file-descriptor reader.
#include "importers/line_reader.h"

#include "engine/number.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attrib::importers {

namespace {

using engine::isDigit;

/// Digits at `pos` (at least `min`); `pos` moves past them.
bool digits(std::string_view s, std::size_t& pos, std::size_t min = 1)
{
    const std::size_t start = pos;
    while (pos < s.size() && isDigit(s[pos]))
        ++pos;
    return pos - start >= min;
}

/// tqdm's `[H:]MM:SS` at `pos`.
bool clock(std::string_view s, std::size_t& pos)
{
    if (!digits(s, pos) || pos >= s.size() || s[pos] != ':' || !digits(s, ++pos, 2))
        return false;
    if (pos < s.size() && s[pos] == ':')
        return digits(s, ++pos, 2);
    return true;
}

/// tqdm's rate at `pos`: `4.53it/s`, `1.20s/it`, `?it/s`, `12.3MB/s`, `3.10ex/s` (a number or `?`, a unit, `/`,
/// a unit).
bool rate(std::string_view s, std::size_t& pos)
{
    if (pos < s.size() && s[pos] == '?')
        ++pos;
    else if (!digits(s, pos) || (pos < s.size() && s[pos] == '.' && !digits(s, ++pos)))
        return false;
    const auto word = [&] {
        const std::size_t start = pos;
        while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos])) && pos - start < 12)
            ++pos;
        return pos > start;
    };
    return word() && pos < s.size() && s[pos] == '/' && (++pos, word());
}

/// The position after the `]` of a tqdm statistics bracket opening at `open`, npos when it is none.
std::size_t statsEnd(std::string_view s, std::size_t open)
{
    std::size_t pos = open + 1;
    if (!clock(s, pos))
        return std::string_view::npos;
    if (pos < s.size() && s[pos] == '<') {
        ++pos;
        if (pos < s.size() && s[pos] == '?')
            ++pos;
        else if (!clock(s, pos))
            return std::string_view::npos;
    }
    if (s.substr(pos, 2) != ", ")
        return std::string_view::npos;
    pos += 2;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (!rate(s, pos) || pos >= s.size())
        return std::string_view::npos;
    if (s[pos] == ']')
        return pos + 1;
    const std::size_t close = s.find(']', pos);
    return s[pos] == ',' && close != std::string_view::npos && close - pos < 300 ? close + 1 : std::string_view::npos;
}

}  // namespace

std::size_t progressBarEnd(std::string_view line)
{
    // A rate's `/` next to an `s` (`it/s`, `s/it`, `MB/s`) is rare in a log line; one pass finds whether there is one.
    bool rateSlash = false;
    for (std::size_t slash = line.find('/'); slash != std::string_view::npos && !rateSlash;
         slash = line.find('/', slash + 1))
        rateSlash = (slash > 0 && line[slash - 1] == 's') || (slash + 1 < line.size() && line[slash + 1] == 's');
    if (!rateSlash)
        return std::string_view::npos;
    for (std::size_t open = line.find('['); open != std::string_view::npos; open = line.find('[', open + 1)) {
        const std::size_t end =
            open + 1 < line.size() && isDigit(line[open + 1]) ? statsEnd(line, open) : std::string_view::npos;
        if (end != std::string_view::npos && line.find_first_not_of(' ', end) != std::string_view::npos)
            return end;
    }
    return std::string_view::npos;
}

namespace {

/// Joins the pieces of lines that straddle chunk boundaries. Keeps at most `maxLine` bytes of a
/// line; the rest is only counted, so memory stays bounded by chunk + maxLine.
class LineAssembler {
public:
    LineAssembler(std::size_t maxLine, const std::function<bool(const RawLine&)>& onLine)
        : m_maxLine(maxLine)
        , m_onLine(onLine)
    {
    }

    /// Splits one chunk that starts at file offset `base`. Returns false when the consumer stopped.
    bool feed(std::string_view data, std::uint64_t base)
    {
        std::size_t pos = 0;
        while (pos < data.size()) {
            const void* found = std::memchr(data.data() + pos, '\n', data.size() - pos);
            if (!found) {
                append(data.substr(pos), base + pos);
                return true;
            }
            const auto end = static_cast<std::size_t>(static_cast<const char*>(found) - data.data());
            if (!finishLine(data.substr(pos, end - pos), base + pos))
                return false;
            pos = end + 1;
        }
        return true;
    }

    /// Emits a last line that had no newline.
    bool flush()
    {
        if (!m_open)
            return true;
        return emitPending();
    }

    std::uint64_t lines() const { return m_number; }

private:
    void append(std::string_view part, std::uint64_t offset)
    {
        if (part.empty())
            return;
        if (!m_open) {
            m_open = true;
            m_start = offset;
            m_length = 0;
            m_head.clear();
        }
        const std::size_t room = m_maxLine > m_head.size() ? m_maxLine - m_head.size() : 0;
        m_head.append(part.data(), std::min(room, part.size()));
        m_length += part.size();
        m_last = part.back();
    }

    bool finishLine(std::string_view tail, std::uint64_t offset)
    {
        if (!m_open) {
            const char last = tail.empty() ? '\0' : tail.back();
            return emit(tail, tail.size(), last, offset);
        }
        append(tail, offset);
        return emitPending();
    }

    bool emitPending()
    {
        m_open = false;
        return emit(m_head, m_length, m_last, m_start);
    }

    /// `data` holds at least min(rawLength, maxLine) bytes of a line of `rawLength` bytes.
    bool emit(std::string_view data, std::uint64_t rawLength, char last, std::uint64_t start)
    {
        std::uint64_t length = rawLength;
        if (length > 0 && last == '\r')
            --length;
        RawLine line;
        line.number = ++m_number;
        line.offset = start;
        line.fullLength = length;
        line.truncated = length > m_maxLine;
        line.bytes = data.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(length, m_maxLine)));
        std::size_t resume = 0;
        const std::size_t end = nextBreak(line.bytes, 0, resume);
        return end == std::string_view::npos ? m_onLine(line) : emitSegments(line, end, resume);
    }

    /// A progress bar rewrites one terminal line: its segments (`\r`-separated, or output written after the bar)
    /// are handed on one by one, each with its own offset and the physical line's number; empty segments are dropped.
    bool emitSegments(const RawLine& whole, std::size_t end, std::size_t resume)
    {
        std::size_t begin = 0;
        bool any = false;
        for (;; end = nextBreak(whole.bytes, begin, resume)) {
            const bool last = end == std::string_view::npos;
            RawLine piece = whole;
            piece.offset = whole.offset + begin;
            piece.bytes = whole.bytes.substr(begin, last ? std::string_view::npos : end - begin);
            piece.truncated = last && whole.truncated;
            piece.fullLength = last ? whole.fullLength - begin : piece.bytes.size();
            if ((!piece.bytes.empty() || (last && !any)) && !m_onLine(piece))
                return false;
            any = any || !piece.bytes.empty();
            if (last)
                return true;
            begin = resume;
        }
    }

    /// The end of the segment that starts at `from` (npos for the last one); `resume` gets where the next starts.
    static std::size_t nextBreak(std::string_view bytes, std::size_t from, std::size_t& resume)
    {
        const std::size_t cr = bytes.find('\r', from);
        const std::string_view segment = bytes.substr(from, cr == std::string_view::npos ? cr : cr - from);
        if (const std::size_t bar = progressBarEnd(segment); bar != std::string_view::npos) {
            resume = from + bar;
            while (resume < bytes.size() && bytes[resume] == ' ')
                ++resume;
            return from + bar;
        }
        resume = cr + 1;
        return cr;
    }

    std::size_t m_maxLine;
    const std::function<bool(const RawLine&)>& m_onLine;
    std::string m_head;
    std::uint64_t m_length = 0;
    std::uint64_t m_start = 0;
    std::uint64_t m_number = 0;
    char m_last = '\0';
    bool m_open = false;
};

/// A chunk buffer reused by every file a thread reads (a bundle of 10,000 files would otherwise map, fault in
/// and unmap 10,000 fresh megabytes). Leases nest: a reader may run inside another.
class ChunkLease {
public:
    explicit ChunkLease(std::size_t size)
        : m_size(size)
    {
        auto& free = pool();
        for (auto it = free.begin(); it != free.end(); ++it) {
            if (it->second == size) {
                m_data = std::move(it->first);
                free.erase(it);
                break;
            }
        }
        if (!m_data)
            m_data = std::make_unique_for_overwrite<char[]>(size);
    }
    ~ChunkLease()
    {
        if (auto& free = pool(); free.size() < 4)
            free.emplace_back(std::move(m_data), m_size);
    }
    ChunkLease(const ChunkLease&) = delete;
    ChunkLease& operator=(const ChunkLease&) = delete;
    char* data() const { return m_data.get(); }
    static void releasePool() { pool().clear(); }

private:
    using Pool = std::vector<std::pair<std::unique_ptr<char[]>, std::size_t>>;
    static Pool& pool()
    {
        thread_local Pool free;
        return free;
    }
    std::unique_ptr<char[]> m_data;
    std::size_t m_size;
};

std::string errnoText(int error)
{
    return error != 0 ? std::error_code(error, std::generic_category()).message() : std::string("read error");
}

/// Owns a descriptor for as long as any copy of the reader function lives.
struct FdHolder {
    explicit FdHolder(int fd)
        : m_fd(fd)
    {
    }
    ~FdHolder()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FdHolder(const FdHolder&) = delete;
    FdHolder& operator=(const FdHolder&) = delete;
    int m_fd;
};

}  // namespace

void releaseReadBuffers()
{
    ChunkLease::releasePool();
}

ReadStats readLines(const ReadFn& read, const std::function<bool(const RawLine&)>& onLine, std::size_t maxLine,
                    std::size_t chunk)
{
    ReadStats stats;
    if (!read) {
        stats.error = true;
        stats.errorText = "no reader";
        return stats;
    }
    chunk = std::max<std::size_t>(chunk, 1);
    const ChunkLease lease(chunk);
    char* const buffer = lease.data();
    LineAssembler assembler(maxLine, onLine);
    std::uint64_t base = 0;
    for (;;) {
        errno = 0;
        const long got = read(buffer, chunk);
        if (got < 0) {
            stats.error = true;
            stats.errorText = errnoText(errno);
            break;
        }
        if (got == 0)
            break;
        const auto size = std::min(static_cast<std::size_t>(got), chunk);
        stats.bytes += size;
        if (!assembler.feed(std::string_view(buffer, size), base)) {
            stats.lines = assembler.lines();
            return stats;
        }
        base += size;
    }
    // A read error still delivers the bytes already read: a partial last line is evidence too.
    assembler.flush();
    stats.lines = assembler.lines();
    return stats;
}

ReadFn fileReader(const std::string& path, std::string& error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = errnoText(errno);
        return {};
    }
    auto holder = std::make_shared<FdHolder>(fd);
    struct stat info { };
    if (::fstat(fd, &info) != 0) {
        error = errnoText(errno);
        return {};
    }
    if (S_ISDIR(info.st_mode)) {
        error = errnoText(EISDIR);
        return {};
    }
    error.clear();
    return [holder](char* buffer, std::size_t capacity) -> long {
        for (;;) {
            const ssize_t got = ::read(holder->m_fd, buffer, capacity);
            if (got < 0 && errno == EINTR)
                continue;
            return static_cast<long>(got);
        }
    };
}

}  // namespace attrib::importers
