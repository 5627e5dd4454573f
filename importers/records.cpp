// SPDX-License-Identifier: GPL-3.0-or-later
// Reader dispatch by sniffed format, the shared physical-line helper, wrap-width detection, UTF-8 repair.
#include "importers/records.h"

#include "engine/safe_text.h"
#include "importers/format_prefix.h"
#include "importers/line_gutter.h"
#include "importers/multiline.h"
#include "importers/notebook_lines.h"
#include "importers/pasted_text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace attrib::importers {

void ReaderStats::note(std::uint64_t line, const std::string& what)
{
    if (notes.size() < 3)
        notes.push_back((line > 0 ? "line " + std::to_string(line) + ": " : std::string()) + what);
}

namespace {

/// Length of the valid UTF-8 sequence at `i` (1 for ASCII), 0 when invalid.
std::size_t utf8Length(std::string_view s, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(s[i]);
    if (lead < 0x80)
        return 1;
    const std::size_t length = lead >= 0xF5 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0 || i + length > s.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
            return 0;
    const auto second = static_cast<unsigned char>(s[i + 1]);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
        (lead == 0xF4 && second > 0x8F))
        return 0;  // overlong forms, surrogates, beyond U+10FFFF
    return length;
}

}  // namespace

bool isValidUtf8(std::string_view text)
{
    // Fast path: almost every log line is plain ASCII; test eight bytes at a time for a high bit.
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        if (word & 0x8080808080808080ULL)
            break;
    }
    while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80)
        ++i;
    if (i == text.size())
        return true;
    for (; i < text.size();) {
        const std::size_t n = utf8Length(text, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

bool sanitizeUtf8(std::string& text)
{
    if (isValidUtf8(text))
        return false;
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8Length(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(text, i, n);
            i += n;
        }
    }
    text = std::move(out);
    return true;
}

namespace detail {

namespace {

/// The coverage note for a column taken off every line.
std::string columnNote(LineColumn column)
{
    switch (column) {
    case LineColumn::Numbers: return "line numbers before the lines (a viewer's or editor's copy) taken off";
    case LineColumn::Compose: return "Docker Compose's service column before the lines taken off";
    case LineColumn::Stern: return "stern's pod and container names before the lines taken off";
    case LineColumn::None: break;
    }
    return {};
}

/// The UTF-8 of a box-drawing character (U+2500-U+257F: `│`, `╰`, `─`, `┃`), as Rich panels and tables draw them.
bool isBoxDrawing(std::string_view s)
{
    return s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xE2 &&
        (static_cast<unsigned char>(s[1]) == 0x94 || static_cast<unsigned char>(s[1]) == 0x95);
}

bool isTableEdge(std::string_view piece)
{
    return piece.starts_with('|') || piece.starts_with('+') || isBoxDrawing(piece);
}

}  // namespace

bool isDrawnTableRow(std::string_view line)
{
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    if (line.size() < 2 || !isTableEdge(line))
        return false;
    const char last = line.back();
    return last == '|' || last == '+' || (line.size() >= 3 && isBoxDrawing(line.substr(line.size() - 3)));
}

}  // namespace detail

std::size_t detectWrapWidth(std::string_view head, const Sniffed& sniffed)
{
    if (!isAppFormat(sniffed.format))
        return 0;
    std::string unnumbered;
    if (sniffed.column != LineColumn::None) {
        unnumbered = detail::withoutColumn(head, sniffed.column);
        head = unnumbered;
    }
    const std::vector<std::string_view> lines = detail::headLines(head, 2000);
    std::size_t width = 0;
    for (const auto line : lines)
        width = std::max(width, detail::displayWidth(line));
    if (width < 60)
        return 0;
    int full = 0;
    int continued = 0;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (!detail::fillsWrapWidth(lines[i], width) || detail::isDrawnTableRow(lines[i]))
            continue;
        ++full;
        detail::YearTracker years(0);
        ParsedLine parsed;
        std::string_view host;
        int gpu = -1;
        // A wrapped message ends in a shorter tail; rows of a fixed-width table (ipmitool, FreeIPMI, sensor
        // listings) are all full width, and joining them would glue the table into one line.
        std::size_t next = i + 1;
        while (next + 1 < lines.size() && detail::fillsWrapWidth(lines[next], width))
            ++next;
        if (detail::fillsWrapWidth(lines[next], width))
            continue;
        const unsigned marks = detail::stripAppPrefixes(lines[i + 1], years, parsed);
        // A shell prompt starts a pasted session's next command (the same Xid line as long after every one).
        if (marks == 0 && !detail::matchNcclPrefix(lines[i + 1], host, gpu) && !detail::isSlurmLine(lines[i + 1]) &&
            !detail::isShellPrompt(lines[i + 1]))
            ++continued;
    }
    if (continued >= 3 && continued * 2 >= full)
        return width;
    // A screen capture (tmux, screen, a Windows console): every row exactly as wide as the terminal, the rows a
    // message ends on padded with blanks (fillsWrapWidth's padded tail): one wrapped message is enough to tell.
    std::size_t padded = 0;
    for (const auto line : lines) {
        if (detail::displayWidth(line) != width)
            return 0;
        padded += detail::fillsWrapWidth(line, width) ? 0 : 1;
    }
    return lines.size() >= 2 && full >= 1 && padded * 2 >= lines.size() ? width : 0;
}

namespace detail {

void forEachLine(const ReadFn& read, const ReaderOptions& options, ReaderStats& stats,
                 const std::function<bool(const RawLine&, std::string_view clean)>& onLine)
{
    std::string uncoloured;
    std::string retyped;
    std::string unescaped;
    NotebookLines notebook;
    std::string output;
    const ReadStats rs = readLines(
        read,
        [&](const RawLine& raw) {
            std::string_view clean = raw.bytes;
            if (options.notebook)
                clean = notebook.text(clean, output);  // what the cell printed; its JSON around reads as blank
            if (const void* nul = std::memchr(clean.data(), '\0', clean.size())) {
                (void)nul;
                ++stats.nulLines;
                const std::size_t last = clean.find_last_of('\0');
                clean = clean.substr(last + 1);
                if (stats.nulLines == 1)
                    stats.note(raw.number, "NUL bytes (zero-filled block?); the text after them is kept");
            }
            if (raw.truncated) {
                if (++stats.truncated == 1)
                    stats.note(raw.number,
                               "line of " + std::to_string(raw.fullLength) + " bytes cut to " +
                                   std::to_string(raw.bytes.size()));
            }
            if (options.column != LineColumn::None) {
                if (const std::size_t column = columnLength(clean, options.column); column > 0) {
                    clean.remove_prefix(column);
                    if (++stats.uncolumned == 1)
                        stats.note(raw.number, columnNote(options.column));
                }
            }
            if (!isValidUtf8(clean) && ++stats.invalidUtf8 == 1)
                stats.note(raw.number, "invalid UTF-8 (replaced with U+FFFD where kept)");
            if (const std::string_view plain = engine::stripTerminalCodes(clean, uncoloured);
                plain.size() != clean.size()) {
                ++stats.terminalCoded;
                clean = plain;
            }
            if (const std::string_view plain = plainTypography(clean, retyped); plain.data() != clean.data()) {
                ++stats.retyped;
                clean = plain;
            }
            if (const std::string_view joined = joinSyslogEscapes(clean, unescaped); joined.data() != clean.data()) {
                ++stats.unescaped;
                clean = joined;
            }
            clean = stripNativeCommandPrefix(stripChatHeader(clean));
            if (const std::string_view unquoted = stripQuoteMarkers(clean); unquoted.size() != clean.size()) {
                ++stats.quoted;
                clean = unquoted;
            }
            if (!onLine(raw, clean)) {
                stats.stopped = true;
                return false;
            }
            return true;
        },
        options.maxLineBytes, options.chunkBytes);
    stats.lines = rs.lines;
    stats.bytes = rs.bytes;
    if (rs.error) {
        stats.error = true;
        stats.errorText = rs.errorText;
    }
}

Record lineRecord(const RawLine& raw)
{
    Record r;
    r.line = raw.number;
    r.offset = raw.offset;
    r.length = raw.fullLength;
    r.truncated = raw.truncated;
    r.fullLength = raw.fullLength;
    return r;
}

}  // namespace detail

ReaderStats readRecords(const ReadFn& read, const Sniffed& sniffed, const TimeHints& hints,
                        const ReaderOptions& options, const RecordSink& sink)
{
    using namespace detail;
    switch (sniffed.format) {
    case Format::JournalJson: return readJournalJson(read, options, sink);
    case Format::JournalExport: return readJournalExport(read, options, sink);
    case Format::SacctParsable: return readSacctParsable(read, options, sink);
    case Format::SacctJson:
    case Format::K8sEvents:
    case Format::KueueWorkload: return readJsonDocument(read, sniffed, options, sink);
    case Format::Prometheus: return readPrometheus(read, options, sink);
    case Format::MetricsCsv: return readMetricCsv(read, options, sink);
    case Format::ObservationsJsonl: return readObservationsJsonl(read, options, sink);
    case Format::NvidiaBugReport: return readBugReport(read, hints, options, sink);
    default: return readLogLines(read, sniffed, hints, options, sink);
    }
}

}  // namespace attrib::importers
