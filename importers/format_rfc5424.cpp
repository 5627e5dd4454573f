// SPDX-License-Identifier: GPL-3.0-or-later
// Syslog headers (RFC 3164 after the stamp, RFC 5424), pdsh-style host prefixes and the
// unusable-line test (hand parsing, no regex).
#include "importers/format_prefix.h"

#include "engine/number.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>

namespace attrib::importers::detail {

namespace {

using engine::isDigit;

/// The next space-delimited token; advances `s` past it and one space. Empty when `s` is exhausted.
std::string_view takeToken(std::string_view& s)
{
    const std::size_t end = s.find(' ');
    const std::string_view token = s.substr(0, end);
    s = end == std::string_view::npos ? std::string_view() : s.substr(end + 1);
    return token;
}

/// Skips the STRUCTURED-DATA field: `-` or one or more `[id param="value" ...]` (quotes may escape `]`).
bool skipStructuredData(std::string_view& s)
{
    if (!s.empty() && s[0] == '-') {
        s.remove_prefix(1);
        return true;
    }
    if (s.empty() || s[0] != '[')
        return false;
    std::size_t pos = 0;
    while (pos < s.size() && s[pos] == '[') {
        bool quoted = false;
        ++pos;
        for (; pos < s.size(); ++pos) {
            const char c = s[pos];
            if (quoted && c == '\\') {
                ++pos;
                continue;
            }
            if (c == '"')
                quoted = !quoted;
            else if (c == ']' && !quoted)
                break;
        }
        if (pos >= s.size())
            return false;
        ++pos;
    }
    s.remove_prefix(pos);
    return true;
}

}  // namespace

bool splitRfc5424(std::string_view line, Rfc5424Header& out)
{
    std::size_t pos = 1;
    if (line.size() < 4 || line[0] != '<')
        return false;
    while (pos < line.size() && pos < 5 && isDigit(line[pos]))
        ++pos;
    if (pos == 1 || pos >= line.size() || line[pos] != '>')
        return false;
    ++pos;
    const std::size_t versionStart = pos;
    while (pos < line.size() && pos - versionStart < 3 && isDigit(line[pos]))
        ++pos;
    if (pos == versionStart || pos >= line.size() || line[pos] != ' ')
        return false;
    std::string_view s = line.substr(pos + 1);
    const std::string_view stamp = takeToken(s);
    if (stamp != "-") {
        const auto iso = parseIso8601(stamp);
        if (!iso || iso->length != stamp.size())
            return false;
        out.time = iso->time;
    }
    out.host = takeToken(s);
    out.app = takeToken(s);
    out.procid = takeToken(s);
    out.msgid = takeToken(s);
    if (out.host.empty() || out.app.empty() || out.procid.empty() || out.msgid.empty() || !skipStructuredData(s))
        return false;
    if (!s.empty() && s[0] == ' ')
        s.remove_prefix(1);
    if (s.substr(0, 3) == "\xEF\xBB\xBF")
        s.remove_prefix(3);
    out.message = s;
    return true;
}

bool stripHostPrefix(std::string_view& s, std::string_view& host)
{
    std::size_t pos = 0;
    while (pos < s.size() && pos < 128) {
        const char c = s[pos];
        const bool hostChar =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-' || c == '.' || c == '_';
        if (!hostChar)
            break;
        ++pos;
    }
    if (pos == 0 || pos + 2 >= s.size() || s[pos] != ':' || s[pos + 1] != ' ')
        return false;
    std::size_t next = pos + 2;
    while (next < s.size() && s[next] == ' ')
        ++next;
    // A stamp, a `<N>` priority, or a facility and level before the stamp (`10.0.0.5: kern: warning: [...]`, talosctl)
    if (next >= s.size() || (s[next] != '[' && s[next] != '<' && !startsWith(stripPriority(s.substr(next)), "[")))
        return false;
    host = s.substr(0, pos);
    s.remove_prefix(next);
    return true;
}

namespace {

/// A log level as loggers print it (`ERROR`, `[warn]`, `Info`): a word no host is named.
bool isLevelWord(std::string_view word)
{
    if (word.size() > 2 && word.front() == '[' && word.back() == ']')
        word = word.substr(1, word.size() - 2);
    static constexpr std::string_view Levels[] = {"trace", "debug", "info",     "notice", "warn",  "warning", "error",
                                                  "err",   "crit",  "critical", "fatal",  "alert", "emerg",   "panic"};
    return std::any_of(std::begin(Levels), std::end(Levels), [word](std::string_view level) {
        return level.size() == word.size() && std::equal(level.begin(), level.end(), word.begin(), [](char a, char b) {
                   return a == std::tolower(static_cast<unsigned char>(b));
               });
    });
}

}  // namespace

namespace {

/// An IPv6 address as a syslog host (`fe80::1`, `[2001:db8::5]`): hex digits, colons, dots of an embedded IPv4 tail,
/// brackets. The only host word that holds a colon.
bool isIpv6Literal(std::string_view word)
{
    return std::all_of(word.begin(), word.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.' || c == '[' || c == ']';
    });
}

/// `kern.err ...`, `daemon.info ...`: a syslog facility name and its dot.
bool startsWithFacility(std::string_view s)
{
    static constexpr std::array<std::string_view, 14> facilities = {"kern.",     "user.", "mail.", "daemon.",  "auth.",
                                                                    "syslog.",   "lpr.",  "news.", "uucp.",    "cron.",
                                                                    "authpriv.", "ftp.",  "local", "security."};
    return std::any_of(facilities.begin(), facilities.end(),
                       [&](std::string_view f) { return s.substr(0, f.size()) == f; });
}

}  // namespace

bool isZoneAbbreviation(std::string_view word)
{
    static constexpr std::array<std::string_view, 33> zones = {
        "UTC",  "GMT",  "Z",   "PST",  "PDT",  "MST",  "MDT",  "CST",  "CDT",  "EST", "EDT",
        "AKST", "AKDT", "HST", "CET",  "CEST", "EET",  "EEST", "WET",  "WEST", "BST", "IST",
        "JST",  "KST",  "MSK", "AEST", "AEDT", "ACST", "AWST", "NZST", "NZDT", "SGT", "HKT"};
    return std::find(zones.begin(), zones.end(), word) != zones.end();
}

bool splitSyslogHeader(std::string_view afterStamp, SyslogHeader& out)
{
    if (afterStamp.empty() || afterStamp[0] != ' ')
        return false;
    std::string_view s = skipSpaces(afterStamp);
    // `Jun 12 14:02:11 PDT host kernel: msg`: a stamp written with its time zone; the zone is no host.
    // A zone before a facility.level word (`UTC kern.err kernel: msg`) is left to the kernel-line reader.
    if (const std::size_t zoneEnd = s.find(' '); zoneEnd != std::string_view::npos &&
        isZoneAbbreviation(s.substr(0, zoneEnd)) && !startsWithFacility(skipSpaces(s.substr(zoneEnd))))
        s = skipSpaces(s.substr(zoneEnd));
    const std::size_t hostEnd = s.find(' ');
    if (s.empty() || hostEnd == 0)
        return false;
    out.host = s.substr(0, hostEnd);
    out.rest = hostEnd == std::string_view::npos ? std::string_view() : skipSpaces(s.substr(hostEnd));
    // A host a poster redacted (`Mar 24 11:12:25 ...`, `*****`) names no node.
    if (std::none_of(out.host.begin(), out.host.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }))
        out.host = {};
    // `2023-08-17T10:23:27Z ERROR launcher: msg` is an application's own log (Rust tracing, Go and Python loggers),
    // not syslog: a level word is no host.
    if (isLevelWord(out.host))
        return false;
    // `2026-12-06 04:11:02,118 [rank0] msg`, `... [INFO] msg`, `... [1,0]<stderr>:msg`: a logger's bracketed field
    // after its stamp, not a host (a poster's `[redacted]` host stays one).
    if (out.host.size() > 2 && out.host.front() == '[') {
        const std::string_view field = out.host.substr(1, out.host.find(']') - 1);
        if (startsWith(field, "rank") || startsWith(field, "Rank") || isLevelWord(field) ||
            (!field.empty() && isDigit(field.front())))
            return false;
    }
    // `2024-05-01T10:11:12.345678Z ERROR:torch.distributed.elastic...:failed (exitcode: -9)` (`kubectl logs
    // --timestamps` before Python logging's `LEVEL:logger:message`): a colon inside the word, where no host name has
    // one and only an IPv6 address does.
    if (const std::size_t colon = out.host.find(':');
        colon != std::string_view::npos && colon + 1 < out.host.size() && !isIpv6Literal(out.host))
        return false;
    // `2024-01-12T19:26:35.788+08:00   ErrorMessage "torch.cuda.OutOfMemoryError: ..."` (a console's field name and
    // a quoted value): a syslog line's tag is never quoted.
    if (!out.rest.empty() && out.rest[0] == '"')
        return false;
    // `Mar 29 15:38:59 kernel: NVRM: ...` (a syslog line written without a host): the first word is the tag.
    if (out.host.size() > 1 && out.host.back() == ':') {
        out.host = {};
        out.rest = s;
    }
    out.body = out.rest;
    out.tag = {};
    const std::size_t tagEnd = out.rest.find(':');
    if (tagEnd == std::string_view::npos || tagEnd == 0 || out.rest.substr(0, tagEnd).find(' ') != s.npos)
        return true;
    // `tag: body`, or a kernel tag glued to its forwarded uptime (`kernel:[ 12.3] msg`, an rsyslog template that
    // writes the message right after the tag).
    if (tagEnd + 1 < out.rest.size() && out.rest[tagEnd + 1] != ' ' && out.rest[tagEnd + 1] != '[')
        return true;
    // `2026-03-01T10:11:12.789Z CUDA error: invalid argument`, `... write failed: Permission denied` (a collector's
    // stamp before a program's own words): a level word or `failed` names no program.
    if (const std::string_view word = out.rest.substr(0, tagEnd); isLevelWord(word) || word == "failed")
        return false;
    out.tag = out.rest.substr(0, tagEnd);
    out.indented = isIndented(out.rest.substr(tagEnd + 1));  // `tag:` + its space + more blanks
    out.body = skipSpaces(out.rest.substr(tagEnd + 1));
    return true;
}

bool isIndented(std::string_view s)
{
    return (!s.empty() && s[0] == '\t') || (s.size() >= 2 && s[0] == ' ' && (s[1] == ' ' || s[1] == '\t'));
}

bool isUnusable(std::string_view line)
{
    // Fast path: no byte below 0x20 and no 0x7f in eight-byte words means no control character at all.
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + 8 <= line.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, line.data() + i, 8);
        const std::uint64_t below = (w - 0x20 * ones) & ~w & highs;
        const std::uint64_t del = w ^ (0x7f * ones);
        if (below || ((del - ones) & ~del & highs))
            break;
    }
    if (i + 8 > line.size()) {
        bool clean = true;
        for (std::size_t k = i; k < line.size() && clean; ++k) {
            const auto byte = static_cast<unsigned char>(line[k]);
            clean = byte >= 0x20 && byte != 0x7f;
        }
        if (clean)
            return false;
    }
    std::size_t control = 0;
    for (const char c : line) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == 0)
            return true;
        if ((byte < 0x20 && byte != '\t' && byte != 0x1b) || byte == 0x7f)
            ++control;
    }
    return control * 10 > line.size() * 3;
}

}  // namespace attrib::importers::detail
