// SPDX-License-Identifier: GPL-3.0-or-later
// Content sniffing: classify the first lines of a file and name its kind and format; parser factory.
#include "importers/line_format.h"

#include "engine/number.h"
#include "engine/safe_text.h"
#include "importers/format_parsers.h"
#include "importers/format_prefix.h"
#include "importers/line_gutter.h"
#include "importers/line_reader.h"
#include "importers/notebook_lines.h"
#include "importers/pasted_text.h"
#include "importers/sniff_structured.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

namespace attrib::importers {

namespace {

using namespace detail;

/// The shape of one line; the order is the tie-break priority (earlier wins).
enum class LineClass {
    DmesgT,
    DmesgRaw,
    DmesgRel,
    DmesgIso,
    Fabric,
    SlurmDaemon,
    Rfc3164,
    Iso,
    Rfc5424,
    KernelBare,
    SlurmOut,
    App,
    Count,
    None
};
constexpr std::size_t ClassCount = static_cast<std::size_t>(LineClass::Count);
constexpr std::size_t SniffLines = 50;
/// Only this much of a line is looked at: a 100 KiB progress bar is classified by its start like any line.
constexpr std::size_t SniffLineBytes = 4096;

constexpr std::array<Format, ClassCount> classFormats = {
    Format::DmesgT,        Format::DmesgRaw,    Format::DmesgReltime, Format::DmesgIso,
    Format::FabricManager, Format::SlurmDaemon, Format::Rfc3164,      Format::Iso8601,
    Format::Rfc5424,       Format::KernelBare,  Format::SlurmOut,     Format::App};

struct Tally {
    std::array<int, ClassCount> lines{};
    std::array<int, ClassCount> kernel{};  ///< syslog-style lines whose tag is `kernel`
    int isoUntagged = 0;                   ///< ISO-stamped lines without `host tag:` (counted as App)
    int seen = 0;

    int& count(LineClass c) { return lines[static_cast<std::size_t>(c)]; }
};

using engine::isDigit;

/// `2024-03-04T13:33:58,470412+01:00`: util-linux dmesg's ISO form, a `T`, a comma before six fraction digits and
/// an offset (Python logging's `2024-03-04 13:33:58,470` has a space and milliseconds; syslog daemons write a dot).
bool isDmesgIsoStamp(std::string_view stamp)
{
    if (stamp.size() != 32 || stamp[10] != 'T' || stamp[19] != ',' || (stamp[26] != '+' && stamp[26] != '-'))
        return false;
    return std::all_of(stamp.begin() + 20, stamp.begin() + 26, [](char c) { return isDigit(c); });
}

/// RFC 3164 or ISO syslog line: `stamp host tag: body`. ISO lines without a tag are application lines
/// that a collector stamped, so they are left to the application check (unless the file is named a kernel log:
/// bestClass). An ISO stamp with a comma before its fraction is `dmesg --time-format iso` (util-linux prints
/// `2024-03-04T13:33:58,470412+01:00 msg`; syslog daemons and journalctl write a dot): a kernel line whose first
/// word is not a host.
LineClass classifySyslog(std::string_view s, Tally& tally)
{
    LineClass cls = LineClass::None;
    std::size_t length = 0;
    if (const auto rfc = parseRfc3164(s, 2000)) {
        cls = LineClass::Rfc3164;
        length = rfc->length;
    } else if (const auto iso = isDigit(s.empty() ? ' ' : s[0]) ? parseIso8601(s) : std::nullopt) {
        if (isDmesgIsoStamp(s.substr(0, iso->length)))
            return LineClass::DmesgIso;
        cls = LineClass::Iso;
        length = iso->length;
    } else {
        return LineClass::None;
    }
    SyslogHeader header;
    const bool tagged = splitSyslogHeader(s.substr(length), header) && !header.tag.empty();
    if (!tagged && cls == LineClass::Iso) {
        ++tally.isoUntagged;
        return LineClass::None;
    }
    if (tagged && header.tag == "kernel")
        ++tally.kernel[static_cast<std::size_t>(cls)];
    return cls;
}

/// The stamps Slurm's daemons write in brackets (src/common/log.c `[%M]`, xstring.c): `2024-05-01T10:11:12`, with
/// `.mmm` (the `_ms` formats) and a `+hh:mm` offset (rfc5424, rfc3339); never `Z` nor a finer fraction. A bracketed
/// `...Z` or microsecond stamp opens another program's line (Determined's trial logs:
/// `[2024-03-01T10:11:12.345678Z] fa88a9df [rank=3] || msg`).
bool isSlurmStamp(std::string_view stamp)
{
    if (stamp.empty() || stamp.back() == 'Z' || stamp.back() == 'z')
        return false;
    if (stamp.size() <= 19 || stamp[19] != '.')
        return true;
    std::size_t digits = 0;
    while (20 + digits < stamp.size() && isDigit(stamp[20 + digits]))
        ++digits;
    return digits == 3;
}

LineClass classifyBracketed(std::string_view s)
{
    if (parseDmesgT(s) || parseTalosStamp(s))
        return LineClass::DmesgT;
    if (parseDmesgRaw(s))
        return LineClass::DmesgRaw;
    if (parseDmesgDelta(s) || parseDmesgHuman(s, 2000))
        return LineClass::DmesgRel;
    if (parseFabricManager(s))
        return LineClass::Fabric;
    const auto iso = parseIso8601(s.substr(1));
    if (iso && iso->length + 1 < s.size() && s[iso->length + 1] == ']' && s[11] == 'T' &&
        isSlurmStamp(s.substr(1, iso->length)))
        return LineClass::SlurmDaemon;
    return LineClass::None;
}

/// `node-02: [ 12.5] msg` (pdsh / clush output): a kernel ring line behind a host name.
LineClass classifyHostPrefixed(std::string_view s)
{
    std::string_view host;
    if (!stripHostPrefix(s, host))
        return LineClass::None;
    s = stripPriority(s);
    const LineClass cls = !s.empty() && s[0] == '[' ? classifyBracketed(s) : LineClass::None;
    return cls == LineClass::DmesgT || cls == LineClass::DmesgRaw || cls == LineClass::DmesgRel ? cls : LineClass::None;
}

LineClass classifyLine(std::string_view line, Tally& tally);

/// `node01: Dec  1 10:00:00 host kernel: ...` (pdsh / clush before a syslog, journal or Slurm line; one level).
bool pdshBeforeOtherForm(std::string_view s)
{
    std::string_view host;
    if (!stripPdshHost(s, host) || s.empty())
        return false;
    std::string_view nested = s;
    if (stripPdshHost(nested, host))
        return false;
    Tally inner;
    const LineClass cls = classifyLine(s, inner);
    return cls != LineClass::None && cls != LineClass::App;
}

LineClass classifyLine(std::string_view line, Tally& tally)
{
    Rfc5424Header rfc5424;
    if (splitRfc5424(line, rfc5424)) {
        if (rfc5424.app == "kernel")
            ++tally.kernel[static_cast<std::size_t>(LineClass::Rfc5424)];
        return LineClass::Rfc5424;
    }
    const std::string_view s = stripPriority(line);
    LineClass cls = !s.empty() && s[0] == '[' ? classifyBracketed(s) : LineClass::None;
    if (cls == LineClass::None)
        cls = classifyHostPrefixed(s);
    if (cls == LineClass::None)
        cls = classifySyslog(s, tally);
    if (cls != LineClass::None)
        return cls;
    std::string_view kernelText = s;
    std::string_view kernelHost;
    if (stripKernelTag(kernelText, kernelHost))
        return LineClass::KernelBare;
    if (isSlurmLine(line))
        return LineClass::SlurmOut;
    if (pdshBeforeOtherForm(s))
        return LineClass::None;  // only the plain-text reader takes the host and then the inner line's form
    YearTracker years(2000);
    ParsedLine parsed;
    const unsigned marks = stripAppPrefixes(line, years, parsed);
    if (marks != 0 && isSlurmLine(parsed.text))
        return LineClass::SlurmOut;
    if (marks != 0 || hasAppMarker(line))
        return LineClass::App;
    return LineClass::None;
}

/// Length of the valid UTF-8 sequence at `i`, 0 when invalid, SIZE_MAX when the head cuts it.
std::size_t utf8Length(std::string_view s, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(s[i]);
    const std::size_t length = lead >= 0xF5 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (length == 0)
        return 0;
    if (i + length > s.size())
        return SIZE_MAX;
    for (std::size_t k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
            return 0;
    return length;
}

bool isControl(unsigned char byte)
{
    constexpr std::string_view allowed("\t\n\r\f\v\x1b");
    return (byte < 0x20 && allowed.find(static_cast<char>(byte)) == std::string_view::npos) || byte == 0x7f;
}

/// The 8 bytes at `p` are all printable ASCII (0x20..0x7e): nothing to count. Word-at-a-time tests (a byte below
/// 0x20; a byte at or above 0x7f); a false "no" only sends the bytes the slow way.
bool eightPrintable(const char* p)
{
    constexpr std::uint64_t Ones = 0x0101010101010101ULL;
    constexpr std::uint64_t High = 0x8080808080808080ULL;
    std::uint64_t x = 0;
    std::memcpy(&x, p, sizeof x);
    const bool below = ((x - Ones * 0x20) & ~x & High) != 0;
    const bool above = (((x + Ones) | x) & High) != 0;
    return !below && !above;
}

/// More than 30% bytes that are neither printable, whitespace, ESC nor valid UTF-8. NUL bytes are binary unless
/// they come in runs inside text that still has lines (a log with a zero-filled block after a crash).
bool isBinary(std::string_view head)
{
    std::size_t bad = 0;
    std::size_t nul = 0;
    std::size_t newlines = 0;
    for (std::size_t i = 0; i < head.size();) {
        if (i + 8 <= head.size() && eightPrintable(head.data() + i)) {
            i += 8;
            continue;
        }
        const auto byte = static_cast<unsigned char>(head[i]);
        if (byte == 0) {
            ++nul;
            ++i;
            continue;
        }
        newlines += byte == '\n' ? 1 : 0;
        if (byte < 0x80) {
            bad += isControl(byte) ? 1 : 0;
            ++i;
            continue;
        }
        const std::size_t length = utf8Length(head, i);
        if (length == SIZE_MAX)
            break;
        bad += length == 0 ? 1 : 0;
        i += length == 0 ? 1 : length;
    }
    const std::size_t text = head.size() - nul;
    if (nul > 0 && (newlines < 3 || text < 64))
        return true;
    return bad * 10 > text * 3;
}

bool looksLikeJson(std::string_view head)
{
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return false;
    if (head[first] == '{')
        return true;
    if (head[first] != '[')
        return false;
    const std::size_t next = head.find_first_not_of(" \t\r\n", first + 1);
    return next != std::string_view::npos && std::string_view("{[\"]").find(head[next]) != std::string_view::npos;
}

bool hinted(LineClass cls, const std::string& name)
{
    const auto has = [&name](std::string_view word) { return name.find(word) != std::string::npos; };
    switch (cls) {
    case LineClass::DmesgT:
    case LineClass::DmesgRaw:
    case LineClass::DmesgRel:
    case LineClass::DmesgIso:
    case LineClass::KernelBare: return has("dmesg") || has("kern");
    case LineClass::Rfc3164:
    case LineClass::Iso:
    case LineClass::Rfc5424: return has("syslog") || has("messages") || has("kern") || has("journal");
    case LineClass::Fabric: return has("fabric");
    case LineClass::SlurmDaemon: return has("slurm");
    case LineClass::SlurmOut: return has("slurm") || has(".out") || has(".err");
    case LineClass::App: return has("rank") || has("train") || has("worker");
    default: return false;
    }
}

/// The class with most lines; a path hint breaks ties, then the enum order.
LineClass bestClass(Tally& tally, std::string_view path)
{
    const std::size_t slash = path.find_last_of('/');
    std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    // ISO-stamped lines without a host and tag in a file named a kernel log: `dmesg --time-format iso` output
    // whose stamps were shortened (`2026-09-17T14:25:57Z amdgpu 0000:04:00.0: ...`), not an application's.
    if (hinted(LineClass::DmesgIso, name)) {
        const int moved = std::min(tally.isoUntagged, tally.count(LineClass::App));
        tally.count(LineClass::App) -= moved;
        tally.count(LineClass::DmesgIso) += moved;
    }
    const int slurm = tally.count(LineClass::SlurmOut);
    const int app = tally.count(LineClass::App);
    int other = 0;
    for (std::size_t i = 0; i < ClassCount; ++i)
        if (i != static_cast<std::size_t>(LineClass::SlurmOut) && i != static_cast<std::size_t>(LineClass::App))
            other = std::max(other, tally.lines[i]);
    // A job's .out file mixes application output with srun/slurmstepd lines: those make it Slurm.
    if (slurm > 0 && slurm + app >= other)
        return LineClass::SlurmOut;
    LineClass best = LineClass::None;
    int bestScore = 0;
    for (std::size_t i = 0; i < ClassCount; ++i) {
        const auto cls = static_cast<LineClass>(i);
        const int score = tally.lines[i] * 2 + (hinted(cls, name) ? 1 : 0);
        if (tally.lines[i] > 0 && score > bestScore) {
            best = cls;
            bestScore = score;
        }
    }
    return best;
}

/// Classes whose lines one parser reads (dmesg raw and -T, RFC 3164 and ISO syslog, application and job output).
int parserGroup(LineClass cls)
{
    switch (cls) {
    case LineClass::DmesgRaw: return static_cast<int>(LineClass::DmesgT);
    case LineClass::Iso: return static_cast<int>(LineClass::Rfc3164);
    case LineClass::SlurmOut: return static_cast<int>(LineClass::App);
    default: return static_cast<int>(cls);
    }
}

/// Lines of forms that the best class's parser does not read make up more than a third of the recognised lines
/// (at least two of them): the file mixes forms and is read line by line, each line by its own form.
bool mixesForms(const Tally& tally, LineClass best)
{
    int own = 0;
    int other = 0;
    for (std::size_t i = 0; i < ClassCount; ++i)
        (parserGroup(static_cast<LineClass>(i)) == parserGroup(best) ? own : other) += tally.lines[i];
    return other >= 2 && other * 2 > own;
}

}  // namespace

namespace {

/// `- `, `* ` or `+ ` at `i`, before what opens like a log line.
bool isListMarker(std::string_view s, std::size_t i)
{
    if (i + 2 >= s.size() || (s[i] != '-' && s[i] != '*' && s[i] != '+') || s[i + 1] != ' ')
        return false;
    const char c = s[i + 2];
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '[' || c == '(';
}

}  // namespace

std::string_view stripQuoteMarkers(std::string_view line)
{
    std::string_view s = line;
    for (int depth = 0; depth < 8; ++depth) {
        std::size_t i = 0;
        while (i < s.size() && i < 3 && s[i] == ' ')
            ++i;
        if (isListMarker(s, i)) {
            s.remove_prefix(i + 2);
            continue;
        }
        if (i >= s.size() || s[i] != '>' || (depth == 0 && i + 1 < s.size() && s[i + 1] != ' ' && s[i + 1] != '>'))
            break;
        // Python's prompt (`>>> torch.cuda.device_count()`) is a pasted session's own line, not a quote three deep.
        if (s.substr(i, 3) == ">>>" && (s.size() == i + 3 || s[i + 3] == ' '))
            break;
        s.remove_prefix(i + 1);
        if (!s.empty() && s[0] == ' ')
            s.remove_prefix(1);
    }
    return s;
}

namespace {

/// What a terminal shows of a physical line: the text after its last `\r` (progress bars rewrite one line with
/// `\r`-separated segments) and after any progress bar other output was written behind, at most SniffLineBytes
/// of it.
std::string_view lastSegment(std::string_view line)
{
    while (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    const std::size_t cr = line.rfind('\r');
    if (cr != std::string_view::npos)
        line.remove_prefix(cr + 1);
    for (std::size_t bar = progressBarEnd(line); bar != std::string_view::npos; bar = progressBarEnd(line))
        line = line.substr(line.find_first_not_of(' ', bar));
    return line.substr(0, SniffLineBytes);
}

Sniffed unknown(std::string reason)
{
    return Sniffed{SourceKind::Unknown, Format::None, std::move(reason)};
}

/// Readable text of no known format: read line by line, each line's own stamp and prefixes taken where it has them.
Sniffed plainText(int lines)
{
    return Sniffed{SourceKind::Text, Format::Plain,
                   "read as plain text: no known format in the first " + std::to_string(lines) + " lines"};
}

Sniffed describe(LineClass cls, Tally& tally)
{
    static constexpr std::array<const char*, ClassCount> what = {
        "dmesg -T stamps",       "dmesg raw stamps",    "dmesg -H/--reltime stamps", "dmesg ISO 8601 stamps",
        "Fabric Manager stamps", "Slurm daemon stamps", "RFC 3164 syslog lines",     "ISO 8601 syslog lines",
        "RFC 5424 syslog lines", "`kernel:` lines",     "srun/slurmstepd lines",     "application log lines"};
    static constexpr std::array<SourceKind, ClassCount> kinds = {
        SourceKind::Kernel,        SourceKind::Kernel, SourceKind::Kernel, SourceKind::Kernel,
        SourceKind::FabricManager, SourceKind::Slurm,  SourceKind::Syslog, SourceKind::Syslog,
        SourceKind::Syslog,        SourceKind::Kernel, SourceKind::Slurm,  SourceKind::App};
    const auto i = static_cast<std::size_t>(cls);
    Sniffed result{kinds[i], classFormats[i], {}};
    if ((cls == LineClass::Rfc3164 || cls == LineClass::Iso || cls == LineClass::Rfc5424) &&
        tally.kernel[i] * 2 > tally.lines[i])
        result.kind = SourceKind::Kernel;
    result.reason =
        std::string(what[i]) + ": " + std::to_string(tally.lines[i]) + " of " + std::to_string(tally.seen) + " lines";
    return result;
}

}  // namespace

Sniffed sniff(std::string_view head, std::string_view path)
{
    if (head.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
        return unknown(head.find('\0') == std::string_view::npos ? "empty file" : "binary content");
    if (auto structured = sniffStructuredText(head))  // journal export carries binary fields: before isBinary
        return *structured;
    if (isBinary(head))
        return unknown("binary content");
    if (looksLikeJson(head)) {
        if (detail::isNotebook(head, path)) {
            Sniffed notebook{SourceKind::Text, Format::Plain, "Jupyter notebook: its cells' outputs read as text"};
            notebook.notebook = true;
            return notebook;
        }
        if (auto json = sniffJson(head))
            return *json;
        return Sniffed{SourceKind::Text, Format::Plain, "read as plain text: JSON of no known schema"};
    }
    if (auto table = sniffTable(head))
        return *table;
    if (const LineColumn column = detail::lineColumnOf(head); column != LineColumn::None) {
        // Sniffed as the file without its column; a form read other than line by line keeps the file as it is.
        Sniffed inner = sniff(detail::withoutColumn(head, column), path);
        if (inner.format != Format::None && readsLineByLine(inner.format)) {
            inner.column = column;
            return inner;
        }
    }
    Tally tally;
    std::string uncoloured;
    std::string retyped;
    std::size_t pos = 0;
    while (pos < head.size() && static_cast<std::size_t>(tally.seen) < SniffLines) {
        std::size_t end = head.find('\n', pos);
        if (end == std::string_view::npos)
            end = head.size();
        std::string_view line = stripQuoteMarkers(stripNativeCommandPrefix(stripChatHeader(plainTypography(
            engine::stripTerminalCodes(lastSegment(head.substr(pos, end - pos)), uncoloured), retyped))));
        detail::takeTransportStamp(line);  // what the program printed decides the form
        pos = end + 1;
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        ++tally.seen;
        const LineClass cls = classifyLine(line, tally);
        if (cls != LineClass::None)
            ++tally.count(cls);
    }
    const LineClass best = bestClass(tally, path);
    if (best == LineClass::None)
        return plainText(tally.seen);
    if (mixesForms(tally, best)) {
        Sniffed mixed = plainText(tally.seen);
        mixed.reason = "read as plain text: lines of several formats, each line read by its own form";
        return mixed;
    }
    return describe(best, tally);
}

namespace detail {

Format lineFormatOf(std::string_view line)
{
    Tally tally;
    const LineClass cls = classifyLine(line.substr(0, SniffLineBytes), tally);
    return cls == LineClass::None ? Format::None : classFormats[static_cast<std::size_t>(cls)];
}

}  // namespace detail

std::unique_ptr<LineParser> makeParser(const Sniffed& sniffed, const TimeHints& hints)
{
    return makeFormatParser(sniffed.format, hints);
}

}  // namespace attrib::importers
