// SPDX-License-Identifier: GPL-3.0-or-later
// What a kernel line carries around its message: the syslog priority or the facility and level `dmesg -x`
// decodes before the stamp, the printk caller id after it, a forwarded uptime before the message.
#include "importers/format_prefix.h"

#include "importers/timestamps.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace attrib::importers::detail {

namespace {

/// The word at `pos` (letters and digits, after any blanks), padded with blanks up to a colon: `kern  :` and
/// `    err:` give "kern" and "err"; "" when the word is not followed by blanks and a colon.
std::string_view paddedField(std::string_view s, std::size_t& pos)
{
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    const std::size_t start = pos;
    while (pos < s.size() && std::isalnum(static_cast<unsigned char>(s[pos])))
        ++pos;
    const std::string_view word = s.substr(start, pos - start);
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (word.empty() || !charAt(s, pos, ':'))
        return {};
    ++pos;
    return word;
}

/// `dmesg -x` (--decode) writes the record's facility and level before its stamp, each name padded to six
/// columns: `kern  :err   : [ 1234.5] msg`, `user  :warn  : [Tue Jan 13 04:34:10 2026] msg` (util-linux dmesg:
/// facility names of syslog(3), level names emerg..debug). `talosctl dmesg` writes them the other way round,
/// `kern:     err: [2026-04-22T21:25:20.458998481Z]: msg` (the level right-aligned, `warning` spelled out).
/// The length of that prefix, 0 when there is none.
std::size_t decodedLevelLength(std::string_view s)
{
    static constexpr std::array<std::string_view, 12> facilities = {
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp"};
    static constexpr std::array<std::string_view, 9> levels = {"emerg",   "alert",  "crit", "err",  "warn",
                                                               "warning", "notice", "info", "debug"};
    std::size_t pos = 0;
    const std::string_view facility = paddedField(s, pos);
    const bool local =
        facility.size() == 6 && facility.substr(0, 5) == "local" && facility[5] >= '0' && facility[5] <= '7';
    if (!local && std::find(facilities.begin(), facilities.end(), facility) == facilities.end())
        return 0;
    const std::string_view level = paddedField(s, pos);
    if (std::find(levels.begin(), levels.end(), level) == levels.end() || !charAt(s, pos, ' '))
        return 0;
    return pos + 1;
}

}  // namespace

std::string_view stripPriority(std::string_view s)
{
    std::size_t pos = 1;
    int priority = 0;
    if (charAt(s, 0, '<') && readInt(s, pos, priority, 3) && charAt(s, pos, '>'))
        return s.substr(pos + 1);
    if (const std::size_t decoded = decodedLevelLength(s); decoded > 0)
        return s.substr(decoded);
    return s;
}

std::string_view stripCallerId(std::string_view body)
{
    const std::string_view s = skipSpaces(body);
    std::size_t pos = 1;
    while (charAt(s, pos, ' '))
        ++pos;
    if (!charAt(s, 0, '[') || !(charAt(s, pos, 'T') || charAt(s, pos, 'C')))
        return body;
    const std::size_t digits = ++pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])))
        ++pos;
    return pos > digits && charAt(s, pos, ']') ? s.substr(pos + 1) : body;
}

std::string_view stripUptime(std::string_view body)
{
    if (const auto stamp = parseDmesgRaw(body))
        return skipSpaces(body.substr(stamp->length));
    return body;
}

}  // namespace attrib::importers::detail
