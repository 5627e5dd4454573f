// SPDX-License-Identifier: GPL-3.0-or-later
// Continuation joining of stamped formats and terminal wraps (Python traceback records: tracebacks.cpp).
#include "importers/multiline.h"

#include "engine/number.h"
#include "importers/format_prefix.h"
#include "importers/pasted_text.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace attrib::importers::detail {

namespace {

constexpr std::string_view Nvrm = "NVRM: ";

void appendCapped(std::string& text, std::string_view piece, std::size_t cap)
{
    const std::size_t room = cap > text.size() ? cap - text.size() : 0;
    text.append(piece.data(), std::min(room, piece.size()));
}

/// A continuation's message without the `tag:` its header repeats (`python3[1234]:   File ...` under the record
/// `python3[1234]: Traceback ...`): the record names its tag once.
std::string_view withoutTag(std::string_view text, std::string_view tag)
{
    if (tag.empty() || !text.starts_with(tag) || text.substr(tag.size(), 1) != ":")
        return text;
    return text.substr(tag.size() + 1);
}

}  // namespace

std::string_view trimLeft(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(" \t");
    return first == std::string_view::npos ? std::string_view() : s.substr(first);
}

std::string_view trimRight(std::string_view s)
{
    const std::size_t last = s.find_last_not_of(" \t\r");
    return last == std::string_view::npos ? std::string_view() : s.substr(0, last + 1);
}

void appendContinuation(std::string& text, std::string_view piece, bool wrapped, std::size_t cap)
{
    if (!wrapped) {
        piece = trimLeft(piece);
        if (startsWith(text, Nvrm) && startsWith(piece, Nvrm))
            piece = trimLeft(piece.substr(Nvrm.size()));
        if (piece.empty())
            return;
        if (!text.empty() && text.back() != ' ')
            appendCapped(text, " ", cap);
    }
    appendCapped(text, piece, cap);
}

bool isWrapContinuation(std::string_view clean)
{
    YearTracker years(0);
    ParsedLine parsed;
    std::string_view host;
    int gpu = -1;
    return !clean.empty() && stripAppPrefixes(clean, years, parsed) == 0 && !matchNcclPrefix(clean, host, gpu) &&
        !isSlurmLine(clean);
}

bool isOtherProgramsLine(std::string_view s)
{
    if (startsWith(s, "NCCL WARN ") || startsWith(s, "NCCL INFO "))
        return true;
    std::size_t n = 0;
    while (n < s.size() && ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_'))
        ++n;
    if (n >= 3 && s[0] >= 'A' && s[0] <= 'Z' && charAt(s, n, ':') && (n + 1 == s.size() || s[n + 1] == ' '))
        return true;
    const std::size_t space = s.find(' ');  // `driver 0000:3b:00.0: `: a PCI domain, bus, device and function
    if (space == std::string_view::npos || space == 0 || space > 32 || s.size() < space + 14)
        return false;
    const std::string_view pci = s.substr(space + 1, 12);
    const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    return std::all_of(pci.begin(), pci.begin() + 4, hex) && pci[4] == ':' && hex(pci[5]) && hex(pci[6]) &&
        pci[7] == ':' && hex(pci[8]) && hex(pci[9]) && pci[10] == '.' && hex(pci[11]) && charAt(s, space + 13, ':');
}

namespace {

/// East Asian wide and full-width code points: a terminal gives each two columns (Unicode's EastAsianWidth W and F
/// blocks, coarsely: Hangul Jamo, CJK, Hangul syllables, compatibility ideographs, full-width forms, the
/// supplementary ideographic planes).
bool isWide(std::uint32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
        (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
        (cp >= 0x20000 && cp <= 0x3FFFD);
}

}  // namespace

std::size_t displayWidth(std::string_view s)
{
    std::size_t columns = 0;
    for (std::size_t i = 0; i < s.size();) {
        const auto lead = static_cast<unsigned char>(s[i]);
        const std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        std::uint32_t cp = length == 1 ? lead : lead & (0x3Fu >> (length - 1));
        for (std::size_t k = 1; k < length && i + k < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
        columns += isWide(cp) ? 2 : 1;
        i += length;
    }
    return columns;
}

bool fillsWrapWidth(std::string_view clean, std::size_t width)
{
    constexpr std::size_t PaddedTail = 8;
    // A line never takes more columns than bytes, so a shorter line is no full row (the cheap test first).
    if (width == 0 || clean.size() < width)
        return false;
    return displayWidth(clean) == width && displayWidth(trimRight(clean)) + PaddedTail > width;
}

bool continuesNvrmSentence(std::string_view previous, std::string_view next)
{
    if (!startsWith(previous, Nvrm) || !startsWith(next, Nvrm) || next.size() <= Nvrm.size())
        return false;
    previous = trimRight(previous);
    if (previous.empty() || previous.back() == '.' || previous.back() == '!' || previous.back() == ':')
        return false;
    const char c = next[Nvrm.size()];
    return (c >= 'a' && c <= 'z') || c == '(';
}

void fillRecord(Record& r, const RawLine& raw, const ParsedLine& parsed)
{
    r.line = raw.number;
    r.textLine = 0;
    r.offset = raw.offset;
    r.length = raw.fullLength;
    r.kind = parsed.kind;
    r.time = parsed.time;
    r.timeSource = parsed.time == engine::NoTime ? TimeSource::None : parsed.timeSource;
    r.uptime = parsed.uptime;
    r.host.assign(parsed.host.data(), parsed.host.size());
    r.rank = parsed.rank;
    r.gpu = parsed.gpu;
    r.stream = parsed.stream;
    r.logHeader = parsed.logHeader;
    r.text.assign(parsed.programTag.data(), parsed.programTag.size());  // reuses the buffer: no allocation per line
    r.text.append(parsed.text.data(), parsed.text.size());
    if (r.text.find("**") != std::string::npos)
        stripMarkdownStrong(r.text);  // a line pasted into a ticket
    if (r.text.find("](http") != std::string::npos)
        stripMarkdownAutolinks(r.text);  // a name a chat client or an editor made a link of
    r.truncated = raw.truncated;
    r.fullLength = raw.fullLength;
    r.isMetric = false;
    r.metric.clear();
    r.value = 0;
    if (!r.labels.empty())
        r.labels.clear();
    if (!r.innerLines.empty())
        r.innerLines.clear();
    if (!r.messageLines.empty())
        r.messageLines.clear();
}

Record recordOf(const RawLine& raw, const ParsedLine& parsed)
{
    Record r;
    fillRecord(r, raw, parsed);
    return r;
}

void extend(Record& r, const RawLine& raw)
{
    r.length = raw.offset + raw.fullLength - r.offset;
    r.truncated = r.truncated || raw.truncated;
}

bool StampedJoiner::add(const RawLine& raw, const ParsedLine& parsed, std::string_view clean)
{
    const bool blank = clean.find_first_not_of(" \t") == std::string_view::npos;
    const std::size_t previousWidth = std::exchange(m_width, clean.size());
    if (!parsed.stamped && m_open && !blank && m_lines < m_options.maxJoinedLines &&
        continuesUnstamped(clean, previousWidth)) {
        const bool wrapped = clean[0] != ' ' && clean[0] != '\t';
        appendContinuation(m_pending.text, clean, wrapped, m_options.maxLineBytes);
        return joined(raw);
    }
    if (parsed.stamped && m_open && continues(parsed) && m_lines < m_options.maxJoinedLines) {
        appendContinuation(m_pending.text, withoutTag(parsed.text, parsed.tag), false, m_options.maxLineBytes);
        return joined(raw);
    }
    if (!flush())
        return false;
    if (blank)
        return true;
    fillRecord(m_pending, raw, parsed);
    if (!parsed.stamped && m_pending.kind == engine::SourceKind::Unknown)
        m_pending.kind = engine::SourceKind::Text;  // pasted around the log: read like plain text, by every rule
    m_tag = std::string(parsed.tag);
    m_open = true;
    m_lines = 1;
    return true;
}

bool StampedJoiner::flush()
{
    if (!m_open)
        return true;
    m_open = false;
    m_stats.stamped += m_pending.time != engine::NoTime ? 1 : 0;
    return m_sink(m_pending);
}

bool StampedJoiner::joined(const RawLine& raw)
{
    extend(m_pending, raw);
    ++m_lines;
    ++m_stats.joined;
    return true;
}

bool StampedJoiner::continuesUnstamped(std::string_view clean, std::size_t previousWidth) const
{
    // The kernel and syslog daemons stamp every line they write; a line without a stamp goes on with the record
    // before it when it is indented (dmesg aligns the further lines of a multi-line record), finishes its NVRM
    // sentence, or is the rest of a line a terminal wrapped: the line before it was as wide as a terminal (60
    // columns or more) and this one starts with no prefix and no `name:` of its own. Other unstamped lines are
    // text pasted around the log (another tool's output, an exception): their own records, or they would hide
    // inside the record before them and out of every rule's reach. A Markdown code fence around a paste is no part
    // of the record before it.
    if (startsWith(trimLeft(clean), "```"))
        return false;
    if (clean[0] == ' ' || clean[0] == '\t' || continuesNvrmSentence(m_pending.text, clean))
        return true;
    const std::string_view first = clean.substr(0, clean.find(' '));
    return previousWidth >= MinWrapWidth && first.back() != ':' && isWrapContinuation(clean);
}

bool StampedJoiner::continues(const ParsedLine& parsed) const
{
    if (parsed.host != m_pending.host || parsed.tag != m_tag || parsed.time == engine::NoTime ||
        m_pending.time == engine::NoTime)
        return false;
    const TimeNs delta = parsed.time - m_pending.time;
    bool sameStamp = delta == 0 || (m_secondStamps && delta >= 0 && delta < engine::NsPerSec);
    if (parsed.uptime != engine::NoTime && m_pending.uptime != engine::NoTime)
        sameStamp = sameStamp && parsed.uptime == m_pending.uptime;  // forwarded printk stamps are precise
    if (!sameStamp)
        return false;
    // A program's own lines (a stream of their tag) are joined as its output is: by the traceback joiner, not by
    // indentation (a journal holds every line a program wrote as an entry of its own).
    return (parsed.indented && parsed.stream == 0) || continuesNvrmSentence(m_pending.text, parsed.text);
}

std::string joinMessageLines(std::string_view message, std::size_t cap)
{
    std::string out;
    std::size_t pos = 0;
    bool first = true;
    while (pos <= message.size()) {
        std::size_t end = message.find('\n', pos);
        if (end == std::string_view::npos)
            end = message.size();
        const std::string_view line = trimRight(message.substr(pos, end - pos));
        if (first)
            appendCapped(out, line, cap);
        else if (!line.empty())
            appendContinuation(out, line, false, cap);
        first = false;
        pos = end + 1;
    }
    return out;
}

std::string_view joinSyslogEscapes(std::string_view line, std::string& buffer)
{
    std::size_t hash = line.find("#01");
    // Escapes stand inside a message, behind its header; `  #012: H5Bcache.c line 181 ...` (HDF5's numbered error
    // stack) opens its line.
    if (hash == std::string_view::npos || line.find_first_not_of(" \t") == hash)
        return line;
    buffer.clear();
    std::size_t start = 0;
    for (; hash != std::string_view::npos; hash = line.find("#01", std::max(hash + 1, start))) {
        const char code = hash + 3 < line.size() ? line[hash + 3] : '\0';
        if (code != '1' && code != '2' && code != '5')
            continue;
        buffer.append(line.substr(start, hash - start));
        if (code != '5' && !buffer.empty() && buffer.back() != ' ')
            buffer.push_back(' ');
        start = hash + 4;
        if (code != '2')
            continue;
        while (start < line.size() && (line[start] == ' ' || line.substr(start, 4) == "#011"))
            start += line[start] == ' ' ? 1 : 4;  // the next line's indentation: one space joins it
        if (line.substr(start, Nvrm.size()) == Nvrm && line.substr(0, hash).find(Nvrm) != std::string_view::npos)
            start += Nvrm.size();  // the driver's `NVRM: ` on each line of one message, as appendContinuation drops it
    }
    if (start == 0)
        return line;
    buffer.append(line.substr(start));
    return buffer;
}

}  // namespace attrib::importers::detail
