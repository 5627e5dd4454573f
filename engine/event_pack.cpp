// SPDX-License-Identifier: GPL-3.0-or-later
// PackedEvents: LEB128 varints (signed values zigzag-encoded) and length-prefixed strings, field by field; an
// event's names (type, rule, symptom, node, link, attribute keys) as indexes into the pack's table of distinct
// names. The bytes are deflated as they are written (zlib, fastest level): a large job's events repeat the same
// fields with small changes, and the packed copy is held at the analysis' memory peak.
#include "engine/event_pack.h"

#include <zlib.h>

#include <stdexcept>
#include <unordered_map>

namespace attrib::engine {

namespace {

/// Where the put functions write: a small buffer, deflated into the pack whenever it fills. The name table
/// grows as names are met.
struct Sink {
    std::string* out = nullptr;
    std::vector<Name>* names = nullptr;
    std::unordered_map<const std::string*, std::uint64_t>* index = nullptr;

    void put(char c) { *out += c; }
    void put(const std::string& s) { *out += s; }
};

/// Deflates what it is given onto the end of `packed`, in steps of a fixed output block.
class Deflater {
public:
    explicit Deflater(std::string& packed)
        : m_packed(packed)
    {
        if (deflateInit(&m_z, Z_BEST_SPEED) != Z_OK)
            throw std::runtime_error("PackedEvents: zlib cannot start");
    }
    ~Deflater() { deflateEnd(&m_z); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    void feed(const std::string& bytes, bool last)
    {
        m_z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
        m_z.avail_in = static_cast<uInt>(bytes.size());
        char block[16384];
        int rc = Z_OK;
        do {
            m_z.next_out = reinterpret_cast<Bytef*>(block);
            m_z.avail_out = sizeof block;
            rc = deflate(&m_z, last ? Z_FINISH : Z_NO_FLUSH);
            if (rc == Z_STREAM_ERROR)
                throw std::runtime_error("PackedEvents: zlib failed");
            m_packed.append(block, sizeof block - m_z.avail_out);
        } while (m_z.avail_out == 0 || (last && rc != Z_STREAM_END));
    }

private:
    std::string& m_packed;
    z_stream m_z{};
};

/// The bytes `packed` deflates to (`size` of them).
std::string inflated(const std::string& packed, std::size_t size)
{
    std::string bytes(size, '\0');
    uLongf length = static_cast<uLongf>(size);
    if (uncompress(reinterpret_cast<Bytef*>(bytes.data()), &length, reinterpret_cast<const Bytef*>(packed.data()),
                   static_cast<uLong>(packed.size())) != Z_OK ||
        length != size)
        throw std::logic_error("PackedEvents: the packed bytes do not inflate");
    return bytes;
}

void putUnsigned(Sink& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.put(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.put(static_cast<char>(v));
}

void putSigned(Sink& out, std::int64_t v)
{
    putUnsigned(out, (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}

void putString(Sink& out, const std::string& s)
{
    putUnsigned(out, s.size());
    out.put(s);
}

/// Equal names are one interned string: its address identifies it.
void putName(Sink& out, const Name& name)
{
    const auto [it, added] = out.index->try_emplace(&name.str(), out.names->size());
    if (added)
        out.names->push_back(name);
    putUnsigned(out, it->second);
}

void putEvent(Sink& out, const Event& e)
{
    putUnsigned(out, e.id);
    putName(out, e.type);
    putName(out, e.rule);
    putName(out, e.symptom);
    putName(out, e.node);
    putSigned(out, e.gpu);
    putSigned(out, e.rank);
    putName(out, e.link);
    putSigned(out, e.time);
    putUnsigned(out, static_cast<std::uint64_t>(e.timeSource));
    putUnsigned(out, e.sympathetic ? 1 : 0);
    putUnsigned(out, e.attrs.size());
    for (const auto& [k, v] : e.attrs) {
        putName(out, k);
        putString(out, v);
    }
    putUnsigned(out, e.observations.size());
    for (const std::uint64_t id : e.observations)
        putUnsigned(out, id);
    putUnsigned(out, e.folded);
}

/// Reads back what the put functions wrote; the buffer is our own, so running past its end is a bug.
class Reader {
public:
    explicit Reader(const std::string& bytes)
        : m_bytes(bytes)
    {
    }

    std::uint64_t getUnsigned()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const auto byte = static_cast<unsigned char>(next());
            v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0)
                return v;
        }
        throw std::logic_error("PackedEvents: varint too long");
    }

    std::int64_t getSigned()
    {
        const std::uint64_t z = getUnsigned();
        return static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
    }

    Name getName(const std::vector<Name>& names)
    {
        const std::uint64_t i = getUnsigned();
        if (i >= names.size())
            throw std::logic_error("PackedEvents: name index past the table");
        return names[i];
    }

    std::string getString()
    {
        const std::uint64_t n = getUnsigned();
        if (n > m_bytes.size() - m_at)
            throw std::logic_error("PackedEvents: string past the end");
        std::string s = m_bytes.substr(m_at, n);
        m_at += n;
        return s;
    }

private:
    char next()
    {
        if (m_at >= m_bytes.size())
            throw std::logic_error("PackedEvents: read past the end");
        return m_bytes[m_at++];
    }

    const std::string& m_bytes;
    std::size_t m_at = 0;
};

}  // namespace

PackedEvents::PackedEvents(const std::vector<Event>& events)
    : m_count(events.size())
{
    std::unordered_map<const std::string*, std::uint64_t> index;
    std::string chunk;
    Sink write{&chunk, &m_names, &index};
    Deflater deflater(m_bytes);
    for (const Event& e : events) {
        putEvent(write, e);
        if (chunk.size() >= 65536) {
            m_size += chunk.size();
            deflater.feed(chunk, false);
            chunk.clear();
        }
    }
    m_size += chunk.size();
    deflater.feed(chunk, true);
    m_bytes.shrink_to_fit();
}

std::vector<Event> PackedEvents::unpack() const
{
    std::vector<Event> events(m_count);
    if (m_count == 0)
        return events;
    const std::string bytes = inflated(m_bytes, m_size);
    Reader in(bytes);
    for (Event& e : events) {
        e.id = in.getUnsigned();
        e.type = in.getName(m_names);
        e.rule = in.getName(m_names);
        e.symptom = in.getName(m_names);
        e.node = in.getName(m_names);
        e.gpu = static_cast<int>(in.getSigned());
        e.rank = static_cast<int>(in.getSigned());
        e.link = in.getName(m_names);
        e.time = in.getSigned();
        e.timeSource = static_cast<TimeSource>(in.getUnsigned());
        e.sympathetic = in.getUnsigned() != 0;
        for (std::uint64_t n = in.getUnsigned(); n > 0; --n) {
            const Name key = in.getName(m_names);
            e.attrs.emplace(key, in.getString());
        }
        e.observations.resize(in.getUnsigned());
        for (auto& id : e.observations)
            id = in.getUnsigned();
        e.folded = in.getUnsigned();
    }
    return events;
}

}  // namespace attrib::engine
