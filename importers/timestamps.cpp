// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written parsers for the timestamp shapes of kernel, syslog, application and daemon logs.
#include "importers/timestamps.h"
#include "engine/number.h"

#include <array>
#include <cctype>
#include <charconv>

namespace attrib::importers {

namespace {

/// Days in the month of a proleptic Gregorian year; `year` 0 is treated as leap so Feb 29 passes.
int daysInMonth(int year, int month)
{
    static constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month == 2) {
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        return leap ? 29 : 28;
    }
    return days[static_cast<std::size_t>(month - 1)];
}

bool validDate(int year, int month, int day)
{
    // Nanoseconds since 1970 in 64 bits reach from 1677 to 2262; log stamps outside 1900..2200 are garbage.
    return year >= 1900 && year <= 2200 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

using engine::isDigit;

/// Reads exactly `count` decimal digits at `pos`.
bool readDigits(std::string_view s, std::size_t& pos, std::size_t count, int& out)
{
    if (pos + count > s.size())
        return false;
    int value = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const char c = s[pos + i];
        if (!isDigit(c))
            return false;
        value = value * 10 + (c - '0');
    }
    out = value;
    pos += count;
    return true;
}

bool expect(std::string_view s, std::size_t& pos, char c)
{
    if (pos >= s.size() || s[pos] != c)
        return false;
    ++pos;
    return true;
}

/// `HH:MM:SS`, validated (a leap second 60 is accepted).
bool readClock(std::string_view s, std::size_t& pos, int& hour, int& minute, int& second)
{
    return readDigits(s, pos, 2, hour) && expect(s, pos, ':') && readDigits(s, pos, 2, minute) && expect(s, pos, ':') &&
        readDigits(s, pos, 2, second) && hour <= 23 && minute <= 59 && second <= 60;
}

/// Optional `.frac` / `,frac` (one or more digits; digits past nanoseconds are consumed and dropped).
void readFraction(std::string_view s, std::size_t& pos, long& nanos, bool allowComma)
{
    nanos = 0;
    if (pos + 1 >= s.size() || !(s[pos] == '.' || (allowComma && s[pos] == ',')) || !isDigit(s[pos + 1]))
        return;
    ++pos;
    long scale = 100'000'000;
    while (pos < s.size() && isDigit(s[pos])) {
        nanos += (s[pos] - '0') * scale;
        scale /= 10;
        ++pos;
    }
}

/// Optional zone after an ISO stamp: `Z`, `+HH:MM`, `+HHMM`. Returns the offset east of UTC in seconds.
long readZone(std::string_view s, std::size_t& pos)
{
    if (pos >= s.size())
        return 0;
    if (s[pos] == 'Z' || s[pos] == 'z') {
        ++pos;
        return 0;
    }
    const char sign = s[pos];
    if (sign != '+' && sign != '-')
        return 0;
    std::size_t p = pos + 1;
    int hours = 0;
    int minutes = 0;
    if (!readDigits(s, p, 2, hours))
        return 0;
    if (p < s.size() && s[p] == ':')
        ++p;
    if (!readDigits(s, p, 2, minutes) || hours > 23 || minutes > 59)
        return 0;
    pos = p;
    const long offset = hours * 3600L + minutes * 60L;
    return sign == '-' ? -offset : offset;
}

/// Day of month, zero- or space-padded to two columns, or a single digit followed by a space.
bool readPaddedDay(std::string_view s, std::size_t& pos, int& day)
{
    if (pos < s.size() && s[pos] == ' ')
        return readDigits(s, ++pos, 1, day);
    if (readDigits(s, pos, 2, day))
        return true;
    return readDigits(s, pos, 1, day) && pos < s.size() && s[pos] == ' ';
}

/// `Mmm dd` as used by syslog, dmesg -T and Fabric Manager.
bool readMonthDay(std::string_view s, std::size_t& pos, int& month, int& day)
{
    if (pos + 4 > s.size())
        return false;
    month = monthFromAbbrev(s.substr(pos, 3));
    pos += 3;
    return month != 0 && expect(s, pos, ' ') && readPaddedDay(s, pos, day);
}

bool isWeekday(std::string_view s)
{
    static constexpr std::array<std::string_view, 7> names = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    for (const auto name : names)
        if (s == name)
            return true;
    return false;
}

}  // namespace

TimeNs makeTime(int year, int month, int day, int hour, int minute, int second, long nanos)
{
    // Howard Hinnant's days_from_civil.
    const int y = year - (month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int mp = (month + 9) % 12;
    const int doy = (153 * mp + 2) / 5 + day - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
    const std::int64_t seconds = days * 86400 + hour * 3600LL + minute * 60LL + second;
    return seconds * engine::NsPerSec + nanos;
}

int monthFromAbbrev(std::string_view s)
{
    static constexpr std::array<std::string_view, 12> names = {"jan", "feb", "mar", "apr", "may", "jun",
                                                               "jul", "aug", "sep", "oct", "nov", "dec"};
    if (s.size() != 3)
        return 0;
    std::array<char, 3> lower{};
    for (std::size_t i = 0; i < 3; ++i)
        lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    const std::string_view key(lower.data(), lower.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == key)
            return static_cast<int>(i) + 1;
    return 0;
}

std::optional<StampMatch> parseIso8601(std::string_view s)
{
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!readDigits(s, pos, 4, year) || !expect(s, pos, '-') || !readDigits(s, pos, 2, month) || !expect(s, pos, '-') ||
        !readDigits(s, pos, 2, day) || pos >= s.size())
        return std::nullopt;
    const char sep = s[pos++];
    if (sep != 'T' && sep != 't' && sep != ' ' && sep != '_')
        return std::nullopt;
    if (!readClock(s, pos, hour, minute, second) || !validDate(year, month, day))
        return std::nullopt;
    long nanos = 0;
    readFraction(s, pos, nanos, true);
    const long offset = readZone(s, pos);
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second, nanos) - offset * engine::NsPerSec;
    match.length = pos;
    return match;
}

TimeNs isoTime(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return engine::NoTime;
    s = s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
    const auto stamp = parseIso8601(s);
    return stamp && stamp->length == s.size() ? stamp->time : engine::NoTime;
}

std::optional<StampMatch> parseRfc3164(std::string_view s, int year)
{
    std::size_t pos = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!readMonthDay(s, pos, month, day) || !expect(s, pos, ' ') || !readClock(s, pos, hour, minute, second))
        return std::nullopt;
    if (!validDate(year, month, day))
        return std::nullopt;
    long nanos = 0;
    readFraction(s, pos, nanos, false);  // journalctl -o short-precise
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second, nanos);
    match.length = pos;
    match.hasYear = false;
    return match;
}

std::optional<StampMatch> parseDmesgT(std::string_view s)
{
    std::size_t pos = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0, year = 0;
    if (!expect(s, pos, '[') || s.size() < 5 || !isWeekday(s.substr(1, 3)))
        return std::nullopt;
    pos = 4;
    if (!expect(s, pos, ' ') || !readMonthDay(s, pos, month, day) || !expect(s, pos, ' ') ||
        !readClock(s, pos, hour, minute, second) || !expect(s, pos, ' ') || !readDigits(s, pos, 4, year) ||
        !expect(s, pos, ']') || !validDate(year, month, day))
        return std::nullopt;
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second);
    match.length = pos;
    return match;
}

std::optional<StampMatch> parseDmesgRaw(std::string_view s)
{
    std::size_t pos = 0;
    if (!expect(s, pos, '['))
        return std::nullopt;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (pos >= s.size() || !isDigit(s[pos]))
        return std::nullopt;
    std::int64_t seconds = 0;
    const char* begin = s.data() + pos;
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), seconds);
    // Over 4e9 seconds (126 years) of uptime is not a dmesg stamp (and would overflow nanoseconds later).
    if (ec != std::errc() || end == begin || end - begin > 11 || seconds > 4'000'000'000LL)
        return std::nullopt;
    pos += static_cast<std::size_t>(end - begin);
    long nanos = 0;
    const std::size_t fractionStart = pos;
    readFraction(s, pos, nanos, false);
    if (pos == fractionStart || !expect(s, pos, ']'))
        return std::nullopt;
    StampMatch match;
    match.time = seconds * engine::NsPerSec + nanos;
    match.length = pos;
    match.hasYear = false;
    return match;
}

std::optional<StampMatch> parseDmesgHuman(std::string_view s, int year)
{
    std::size_t pos = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
    // strftime("%b%e %H:%M"): `Dec 1 10:00`, `Dec10 10:00`; other writers pad the day with a blank or zero.
    if (!expect(s, pos, '[') || pos + 3 > s.size() || (month = monthFromAbbrev(s.substr(pos, 3))) == 0)
        return std::nullopt;
    pos += 3;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (!readDigits(s, pos, 2, day) && !readDigits(s, pos, 1, day))
        return std::nullopt;
    if (!expect(s, pos, ' '))
        return std::nullopt;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (!readDigits(s, pos, 2, hour) || !expect(s, pos, ':') || !readDigits(s, pos, 2, minute) || hour > 23 ||
        minute > 59)
        return std::nullopt;
    if (pos < s.size() && s[pos] == ':' && (!readDigits(s, ++pos, 2, second) || second > 60))
        return std::nullopt;
    if (!expect(s, pos, ']') || !validDate(year, month, day))
        return std::nullopt;
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second);
    match.length = pos;
    match.hasYear = false;
    return match;
}

std::optional<StampMatch> parseDmesgDelta(std::string_view s)
{
    std::size_t pos = 0;
    if (!expect(s, pos, '['))
        return std::nullopt;
    const bool angle = pos < s.size() && s[pos] == '<';
    pos += angle ? 1 : 0;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (!expect(s, pos, '+'))
        return std::nullopt;
    std::int64_t seconds = 0;
    const char* begin = s.data() + pos;
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), seconds);
    if (ec != std::errc() || end == begin || end - begin > 10)
        return std::nullopt;
    pos += static_cast<std::size_t>(end - begin);
    long nanos = 0;
    const std::size_t fractionStart = pos;
    readFraction(s, pos, nanos, false);
    if (pos == fractionStart || (angle && !expect(s, pos, '>')) || !expect(s, pos, ']'))
        return std::nullopt;
    StampMatch match;
    match.time = seconds * engine::NsPerSec + nanos;
    match.length = pos;
    match.hasYear = false;
    return match;
}

std::optional<StampMatch> parseGlog(std::string_view s, int year)
{
    std::size_t pos = 0;
    if (!s.empty() && s[0] == '[')
        ++pos;
    if (pos >= s.size() || std::string_view("IWEF").find(s[pos]) == std::string_view::npos)
        return std::nullopt;
    ++pos;
    std::size_t digits = 0;
    while (pos + digits < s.size() && isDigit(s[pos + digits]))
        ++digits;
    // PyTorch's c10 logger does not pad the month ("E321" is March 21); glog does ("E0325").
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if ((digits != 3 && digits != 4) || !readDigits(s, pos, digits - 2, month) || !readDigits(s, pos, 2, day) ||
        !expect(s, pos, ' ') || !readClock(s, pos, hour, minute, second) || !validDate(year, month, day))
        return std::nullopt;
    long nanos = 0;
    readFraction(s, pos, nanos, false);
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second, nanos);
    match.length = pos;
    match.hasYear = false;
    return match;
}

std::optional<StampMatch> parseFabricManager(std::string_view s)
{
    std::size_t pos = 0;
    int month = 0, day = 0, year = 0, hour = 0, minute = 0, second = 0;
    if (!expect(s, pos, '[') || !readMonthDay(s, pos, month, day) || !expect(s, pos, ' ') ||
        !readDigits(s, pos, 4, year) || !expect(s, pos, ' ') || !readClock(s, pos, hour, minute, second) ||
        !expect(s, pos, ']') || !validDate(year, month, day))
        return std::nullopt;
    StampMatch match;
    match.time = makeTime(year, month, day, hour, minute, second);
    match.length = pos;
    return match;
}

}  // namespace attrib::importers
