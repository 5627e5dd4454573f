// SPDX-License-Identifier: GPL-3.0-or-later
// Continuation joining and Python traceback records.
#include "importers/multiline.h"

#include "importers/format_prefix.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace attrib::importers::detail {

namespace {

constexpr std::string_view Nvrm = "NVRM: ";
constexpr std::string_view TracebackHead = "Traceback (most recent call last):";
constexpr std::size_t KeptFrames = 2;
constexpr std::size_t MinWrapWidth = 60;   ///< the narrowest terminal whose wraps are joined (as detectWrapWidth)
constexpr std::size_t KeptInnerLines = 4;  ///< the innermost two frames with their source lines
constexpr std::size_t MaxInnerLineBytes = 4096;
constexpr std::size_t MaxOpenTracebacks = 4096;

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

void appendCapped(std::string& text, std::string_view piece, std::size_t cap)
{
    const std::size_t room = cap > text.size() ? cap - text.size() : 0;
    text.append(piece.data(), std::min(room, piece.size()));
}

}  // namespace

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
    r.offset = raw.offset;
    r.length = raw.fullLength;
    r.kind = parsed.kind;
    r.time = parsed.time;
    r.timeSource = parsed.time == engine::NoTime ? TimeSource::None : parsed.timeSource;
    r.uptime = parsed.uptime;
    r.host.assign(parsed.host.data(), parsed.host.size());
    r.rank = parsed.rank;
    r.gpu = parsed.gpu;
    r.text.assign(parsed.text.data(), parsed.text.size());  // reuses the buffer: no allocation per line
    r.truncated = raw.truncated;
    r.fullLength = raw.fullLength;
    r.isMetric = false;
    r.metric.clear();
    r.value = 0;
    if (!r.labels.empty())
        r.labels.clear();
    if (!r.innerLines.empty())
        r.innerLines.clear();
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
        appendContinuation(m_pending.text, parsed.text, false, m_options.maxLineBytes);
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
    // inside the record before them and out of every rule's reach.
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
    return parsed.indented || continuesNvrmSentence(m_pending.text, parsed.text);
}

bool TracebackJoiner::offer(Record& rec, const RecordSink& sink, bool& emit)
{
    emit = true;
    const std::string_view text = rec.text;
    auto it = m_open.find(rec.rank);
    if (startsWith(trimLeft(text), TracebackHead)) {
        if (it != m_open.end()) {
            const bool ok = finish(it->second, nullptr, sink);
            m_open.erase(it);
            if (!ok)
                return false;
        }
        if (m_open.size() >= MaxOpenTracebacks)
            return true;
        m_open.emplace(rec.rank, Open{rec, {}, {}, 1});
        emit = false;
        return true;
    }
    if (it == m_open.end())
        return true;
    Open& tb = it->second;
    emit = false;
    if (text.empty() || text[0] == ' ' || text[0] == '\t') {
        if (tb.lines < m_options.maxJoinedLines) {
            const std::string_view frame = trimLeft(text);
            if (startsWith(frame, "File \"")) {
                tb.frames.emplace_back(trimRight(frame));
                if (tb.frames.size() > KeptFrames)
                    tb.frames.erase(tb.frames.begin());
            }
            if (!frame.empty() && frame.size() <= MaxInnerLineBytes) {
                tb.inner.emplace_back(trimRight(frame));
                if (tb.inner.size() > KeptInnerLines)
                    tb.inner.erase(tb.inner.begin());
            }
            tb.first.length = rec.offset + rec.length - tb.first.offset;
            tb.first.truncated = tb.first.truncated || rec.truncated;
            ++tb.lines;
            ++m_stats.joined;
        }
        return true;
    }
    const bool ok = finish(tb, &rec, sink);
    m_open.erase(it);
    return ok;
}

bool TracebackJoiner::finish(Open& tb, const Record* exception, const RecordSink& sink)
{
    Record out = std::move(tb.first);
    if (exception) {
        out.text = exception->text;
        out.length = exception->offset + exception->length - out.offset;
        out.truncated = out.truncated || exception->truncated;
        if (out.time == engine::NoTime) {
            out.time = exception->time;
            out.timeSource = exception->timeSource;
        }
        ++m_stats.joined;
    }
    if (!tb.frames.empty()) {
        std::string frames;
        for (auto f = tb.frames.rbegin(); f != tb.frames.rend(); ++f)
            frames += (frames.empty() ? "" : " <- ") + *f;
        out.labels["traceback"] = frames;  // context for people; extractors see the exception line unchanged
    }
    out.innerLines = std::move(tb.inner);
    m_stats.stamped += out.time != engine::NoTime ? 1 : 0;
    return sink(out);
}

bool TracebackJoiner::flushAll(const RecordSink& sink)
{
    std::vector<Open*> open;
    for (auto& [rank, tb] : m_open)
        open.push_back(&tb);
    std::sort(open.begin(), open.end(), [](const Open* a, const Open* b) { return a->first.line < b->first.line; });
    bool ok = true;
    for (Open* tb : open)
        ok = ok && finish(*tb, nullptr, sink);
    m_open.clear();
    return ok;
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

}  // namespace attrib::importers::detail
