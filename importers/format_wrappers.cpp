// SPDX-License-Identifier: GPL-3.0-or-later
// What log platforms, container runtimes and people put before a line they pass on: CRI's stream tag, Loki's labels,
// a poster's own words. stripAppPrefixes() removes them with the launchers' prefixes.
#include "importers/format_prefix.h"

#include <cctype>

namespace attrib::importers::detail {

namespace {

/// Whether the UTF-8 sequence at `i` is a character of Chinese, Japanese or Korean text or their punctuation
/// (U+2E80-U+9FFF, U+AC00-U+D7AF, U+F900-U+FAFF, U+FF00-U+FFEF); `length` is its size.
bool isCjkAt(std::string_view s, std::size_t i, std::size_t& length)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0xE2 || b0 > 0xEF || i + 2 >= s.size())
        return false;
    length = 3;
    const unsigned cp = ((b0 & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
        (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFF00 && cp <= 0xFFEF);
}

/// `aws logs tail`'s log stream after its stamp (`2024-05-01T10:00:00.123000+00:00 job/algo-1-1714557491 msg`):
/// Python's isoformat() of a UTC time (six fraction digits, none on a whole second) and a stream name with a `/` in it
/// (SageMaker's `<job>/algo-N-<epoch>`, Batch's `<definition>/default/<id>`, ECS's `<prefix>/<container>/<task>`,
/// Lambda's `2024/05/01/[$LATEST]<id>`). The stream's length, 0 when the line is not of that form.
std::size_t cloudWatchStreamLength(std::string_view written, std::string_view rest)
{
    if (written.size() != 25 && written.size() != 32)
        return 0;
    if (written.substr(written.size() - 6) != "+00:00" || (written.size() == 32 && written[19] != '.'))
        return 0;
    const std::size_t end = rest.find(' ');
    if (end == std::string_view::npos || end == 0 || end > 512)
        return 0;
    const std::string_view token = rest.substr(0, end);
    const std::size_t slash = token.find('/');
    if (slash == std::string_view::npos || slash == 0 || token.back() == '/' || token.back() == ':')
        return 0;
    return end;
}

}  // namespace

/// What a container runtime's log file adds after its stamp: CRI's stream and full/partial tag, `stderr F ` (the
/// kubelet's files under /var/log/pods: `2026-12-01T10:11:12.345678901Z stderr F msg`). One blank separates it from
/// the message, whose own indentation is kept.
bool stripCriStream(std::string_view& s)
{
    if (!(startsWith(s, "stderr ") || startsWith(s, "stdout ")) || s.size() < 8 || (s[7] != 'F' && s[7] != 'P') ||
        (s.size() > 8 && s[8] != ' '))
        return false;
    s.remove_prefix(s.size() > 8 ? 9 : 8);
    return true;
}

std::optional<StampMatch> transportStamp(std::string_view line)
{
    // Jenkins' timestamper: `[2024-05-01T10:00:00.123Z] ` before every line of a build's console.
    if (charAt(line, 0, '[') && line.size() > 22 && line[5] == '-' && line[11] == 'T') {
        auto stamp = parseIso8601(line.substr(1));
        if (!stamp || line[stamp->length] != 'Z' || !charAt(line, stamp->length + 1, ']') ||
            !charAt(line, stamp->length + 2, ' '))
            return std::nullopt;
        stamp->length += 3;
        return stamp;
    }
    if (line.size() < 21 || !std::isdigit(static_cast<unsigned char>(line[0])) || line[4] != '-' || line[10] != 'T')
        return std::nullopt;
    auto stamp = parseIso8601(line);
    if (!stamp || !charAt(line, stamp->length, ' '))
        return std::nullopt;
    const std::string_view rest = line.substr(stamp->length + 1);
    const std::string_view written = line.substr(0, stamp->length);
    if (const std::size_t stream = cloudWatchStreamLength(written, rest); stream > 0) {
        stamp->length += 1 + stream + 1;
        return stamp;
    }
    // A transport's fraction: seven digits and `Z` (a CI runner: .NET's round-trip format), or eight or nine
    // (`kubectl logs --timestamps`: RFC 3339 with nanoseconds, trailing zeros dropped). Programs and syslog daemons
    // write three or six. CRI's stamp, followed by its stream tag, stays with the line prefixes.
    const std::size_t digits = written.size() >= 22 ? written.size() - 21 : 0;
    const bool transport = digits >= 7 && digits <= 9 && written[19] == '.' && written.back() == 'Z' &&
        written.substr(20, digits).find_first_not_of("0123456789") == std::string_view::npos;
    std::string_view stream = rest;
    if (!transport || stripCriStream(stream))
        return std::nullopt;
    stamp->length = line.size() - rest.size();
    return stamp;
}

TimeNs takeTransportStamp(std::string_view& line)
{
    const auto stamp = transportStamp(line);
    if (!stamp)
        return engine::NoTime;
    line = stripQuoteMarkers(line.substr(stamp->length));
    return stamp->time;
}

/// Loki's label set after its stamp (`logcli query` output: `2026-12-01T10:11:12Z {container="trainer",
/// node="gpu-node-7"} msg`); a `node`, `host`, `hostname` or `instance` label names the host.
bool stripLokiLabels(std::string_view& s, std::string_view& host)
{
    if (!charAt(s, 0, '{'))
        return false;
    std::string_view named;
    std::size_t pos = 1;
    while (pos < s.size() && pos < 2048) {
        const std::size_t keyStart = pos;
        while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_'))
            ++pos;
        const std::string_view key = s.substr(keyStart, pos - keyStart);
        if (key.empty() || !charAt(s, pos, '=') || !charAt(s, pos + 1, '"'))
            return false;
        pos += 2;
        const std::size_t valueStart = pos;
        while (pos < s.size() && s[pos] != '"')
            pos += s[pos] == '\\' ? 2 : 1;
        if (pos >= s.size())
            return false;
        std::string_view value = s.substr(valueStart, pos - valueStart);
        if (key == "instance")
            value = value.substr(0, value.find(':'));
        if ((key == "node" || key == "host" || key == "hostname" || key == "instance" || key == "nodename") &&
            named.empty() && isHostName(value))
            named = value;
        ++pos;
        if (charAt(s, pos, '}')) {
            if (pos + 1 < s.size() && s[pos + 1] != ' ')
                return false;
            s = skipSpaces(s.substr(pos + 1));
            if (host.empty())
                host = named;
            return true;
        }
        if (!charAt(s, pos, ',') || !charAt(s, pos + 1, ' '))
            return false;
        pos += 2;
    }
    return false;
}

/// A poster's own words before the line they paste (`执行中报错：RuntimeError: Address already in use`,
/// `エラー: CUDA out of memory`): a run of Chinese, Japanese or Korean text (two characters at least, with its
/// blanks and punctuation) followed by a line that starts with a Latin letter, a bracket or a path. The words go;
/// the pasted line is read as it was printed.
bool stripProse(std::string_view& s)
{
    std::size_t pos = 0;
    int characters = 0;
    while (pos < s.size() && pos < 240) {
        std::size_t length = 1;
        if (isCjkAt(s, pos, length))
            ++characters;
        else if (s[pos] != ' ' && s[pos] != ':' && s[pos] != ',' && s[pos] != '(' && s[pos] != ')')
            break;
        pos += length;
    }
    if (characters < 2 || pos >= s.size())
        return false;
    const auto c = static_cast<unsigned char>(s[pos]);
    if (!(std::isalpha(c) || c == '[' || c == '/'))
        return false;
    s.remove_prefix(pos);
    return true;
}

}  // namespace attrib::importers::detail
