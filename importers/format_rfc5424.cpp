// SPDX-License-Identifier: GPL-3.0-or-later
// RFC 5424 syslog headers and pdsh-style host prefixes (hand parsing, no regex).
#include "importers/format_prefix.h"

#include "engine/number.h"
#include "importers/timestamps.h"

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
    if (next >= s.size() || (s[next] != '[' && s[next] != '<'))
        return false;
    host = s.substr(0, pos);
    s.remove_prefix(next);
    return true;
}

}  // namespace attrib::importers::detail
