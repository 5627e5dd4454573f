// SPDX-License-Identifier: GPL-3.0-or-later
// journald exports: `journalctl -o json` (one object per line) and `journalctl -o export` (KEY=value fields,
// binary fields as KEY\n<64-bit LE length><bytes>\n, entries separated by an empty line). Kernel entries keep
// their message (embedded newlines joined); other entries read `IDENT[PID]: message`. The realtime stamp is the
// time; the monotonic stamp (seconds since that boot) lets raw dmesg files of the same node be placed in time.
#include "engine/number.h"
#include "importers/multiline.h"
#include "importers/records.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

namespace attrib::importers::detail {

namespace {

/// The journal fields a record needs.
struct JournalFields {
    std::string message, realtime, monotonic, hostname, transport, identifier, pid, comm;
    bool hasMessage = false;

    void set(std::string_view key, std::string value)
    {
        if (key == "MESSAGE") {
            message = std::move(value);
            hasMessage = true;
        } else if (key == "__REALTIME_TIMESTAMP") {
            realtime = std::move(value);
        } else if (key == "__MONOTONIC_TIMESTAMP") {
            monotonic = std::move(value);
        } else if (key == "_HOSTNAME") {
            hostname = std::move(value);
        } else if (key == "_TRANSPORT") {
            transport = std::move(value);
        } else if (key == "SYSLOG_IDENTIFIER") {
            identifier = std::move(value);
        } else if (key == "SYSLOG_PID" || (key == "_PID" && pid.empty())) {
            pid = std::move(value);
        } else if (key == "_COMM") {
            comm = std::move(value);
        }
    }
};

TimeNs micros(const std::string& s)
{
    const auto value = engine::parseIntegerIn<long long>(s, 0, 7'000'000'000'000'000LL);
    if (!value)
        return engine::NoTime;
    return static_cast<TimeNs>(*value) * 1000;
}

/// Fills `r` from an entry; false when the entry has no message.
bool journalRecord(const JournalFields& f, const ReaderOptions& options, Record& r)
{
    if (!f.hasMessage)
        return false;
    r.time = micros(f.realtime);
    r.timeSource = r.time == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
    r.uptime = micros(f.monotonic);
    r.host = f.hostname;
    const bool kernel = f.transport == "kernel" || f.identifier == "kernel";
    r.kind = kernel ? SourceKind::Kernel : SourceKind::Syslog;
    std::string message = joinMessageLines(f.message, options.maxLineBytes);
    if (kernel) {
        r.text = std::move(message);
        return true;
    }
    r.text = f.identifier.empty() ? (f.comm.empty() ? std::string("unknown") : f.comm) : f.identifier;
    if (!f.pid.empty())
        r.text += "[" + f.pid + "]";
    r.text += ": " + message;
    return true;
}

/// A JSON field value as text: strings as is, byte arrays (non-UTF-8 data) as bytes, numbers printed.
std::string fieldText(const nlohmann::json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_array()) {
        std::string out;
        for (const auto& b : v)
            if (b.is_number_unsigned() && b.get<unsigned>() < 256)
                out += static_cast<char>(b.get<unsigned>());
        return out;
    }
    if (v.is_number())
        return v.dump();
    return {};
}

}  // namespace

ReaderStats readJournalJson(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        if (clean.find_first_not_of(" \t") == std::string_view::npos)
            return true;
        const nlohmann::json j = nlohmann::json::parse(clean, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            ++stats.skipped;
            stats.note(raw.number, raw.truncated ? "JSON entry cut at the line cap" : "not a JSON object");
            return true;
        }
        JournalFields f;
        for (const auto& [key, value] : j.items())
            if (!value.is_null())
                f.set(key, fieldText(value));
        Record r = lineRecord(raw);
        if (!journalRecord(f, options, r)) {
            ++stats.skipped;
            return true;
        }
        stats.stamped += r.time != engine::NoTime ? 1 : 0;
        return sink(r);
    });
    return stats;
}

namespace {

/// Buffered byte stream over a ReadFn with offsets and newline counting.
class ByteStream {
public:
    ByteStream(const ReadFn& read, std::size_t chunk)
        : m_read(read)
        , m_buffer(std::max<std::size_t>(chunk, 16))
    {
    }

    std::uint64_t offset() const { return m_offset; }
    std::uint64_t newlines() const { return m_newlines; }
    bool failed() const { return m_failed; }

    /// Reads up to '\n' (consumed, not stored); keeps at most `cap` bytes. False at end of data.
    bool line(std::string& out, std::size_t cap)
    {
        out.clear();
        bool any = false;
        for (;;) {
            if (m_pos == m_end && !fill())
                return any;
            any = true;
            const char* start = m_buffer.data() + m_pos;
            const void* nl = std::memchr(start, '\n', m_end - m_pos);
            const std::size_t n = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - start) : m_end - m_pos;
            out.append(start, std::min(n, cap > out.size() ? cap - out.size() : 0));
            consume(n + (nl ? 1 : 0));
            if (nl) {
                ++m_newlines;
                return true;
            }
        }
    }

    /// Reads exactly `n` bytes (keeping at most `cap`); false when the data ends first.
    bool bytes(std::uint64_t n, std::string& out, std::size_t cap)
    {
        out.clear();
        while (n > 0) {
            if (m_pos == m_end && !fill())
                return false;
            const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, m_end - m_pos));
            const char* start = m_buffer.data() + m_pos;
            out.append(start, std::min(take, cap > out.size() ? cap - out.size() : 0));
            for (std::size_t i = 0; i < take; ++i)
                m_newlines += start[i] == '\n' ? 1 : 0;
            consume(take);
            n -= take;
        }
        return true;
    }

private:
    bool fill()
    {
        if (m_eof)
            return false;
        const long got = m_read(m_buffer.data(), m_buffer.size());
        if (got <= 0) {
            m_eof = true;
            m_failed = got < 0;
            return false;
        }
        m_pos = 0;
        m_end = std::min(static_cast<std::size_t>(got), m_buffer.size());
        return true;
    }
    void consume(std::size_t n)
    {
        m_pos += n;
        m_offset += n;
    }

    const ReadFn& m_read;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    std::uint64_t m_offset = 0;
    std::uint64_t m_newlines = 0;
    bool m_eof = false;
    bool m_failed = false;
};

bool isFieldName(std::string_view s)
{
    if (s.empty() || s.size() > 64)
        return false;
    for (const char c : s)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

/// Reads one binary field's payload after its name line; false when the data ends inside it.
bool readBinaryField(ByteStream& in, std::string& value, std::size_t cap)
{
    std::string size;
    if (!in.bytes(8, size, 8) || size.size() != 8)
        return false;
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(size[static_cast<std::size_t>(i)]);
    std::string newline;
    return in.bytes(n, value, cap) && in.bytes(1, newline, 1);
}

/// One `KEY=value` line or binary field (its name line already read); false when the data ends inside it.
bool readField(ByteStream& in, const std::string& line, std::uint64_t number, const ReaderOptions& options,
               JournalFields& fields, ReaderStats& stats)
{
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos && isFieldName(std::string_view(line).substr(0, eq))) {
        fields.set(std::string_view(line).substr(0, eq), line.substr(eq + 1));
        return true;
    }
    if (!isFieldName(line)) {
        ++stats.skipped;
        stats.note(number, "not a journal export field");
        return true;
    }
    std::string value;
    if (!readBinaryField(in, value, options.maxLineBytes)) {
        stats.note(number, "binary field " + line + " cut short: truncated export");
        return false;
    }
    fields.set(line, std::move(value));
    return true;
}

}  // namespace

ReaderStats readJournalExport(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    ByteStream in(read, options.chunkBytes);
    JournalFields fields;
    Record pending;
    bool open = false;
    std::string line;
    auto emit = [&]() {
        open = false;
        Record r = pending;
        r.length = in.offset() - r.offset;
        const bool ok = journalRecord(fields, options, r);
        fields = {};
        if (!ok) {
            ++stats.skipped;
            return true;
        }
        stats.stamped += r.time != engine::NoTime ? 1 : 0;
        return sink(r);
    };
    for (;;) {
        const std::uint64_t start = in.offset();
        const std::uint64_t number = in.newlines() + 1;
        if (!in.line(line, options.maxLineBytes))
            break;
        ++stats.lines;
        if (line.empty()) {
            if (open && !emit()) {
                stats.stopped = true;
                return stats;
            }
            continue;
        }
        if (!open) {
            pending = Record{};
            pending.line = number;
            pending.offset = start;
            open = true;
        }
        if (!readField(in, line, number, options, fields, stats))
            break;
    }
    stats.bytes = in.offset();
    if (open && !emit())
        stats.stopped = true;
    if (in.failed()) {
        stats.error = true;
        stats.errorText = "read error";
    }
    return stats;
}

}  // namespace attrib::importers::detail
