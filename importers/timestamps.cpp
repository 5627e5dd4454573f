// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written parsers for the timestamp shapes of kernel, syslog, application and daemon logs.
#include "importers/timestamps.h"
#include "engine/number.h"

#include <array>
#include <cctype>
#include <utility>

namespace attrib::importers {

namespace {

using engine::isDigit;
using namespace engine::stamp;

/// Number of decimal digits from `pos` on.
std::size_t digitRun(std::string_view s, std::size_t pos)
{
    std::size_t end = pos;
    while (end < s.size() && isDigit(s[end]))
        ++end;
    return end - pos;
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

/// `Mmm dd` as used by syslog, dmesg -T and Fabric Manager (the month in any locale readMonthName knows).
bool readMonthDay(std::string_view s, std::size_t& pos, int& month, int& day)
{
    month = readMonthName(s, pos);
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

TimeNs shiftYears(TimeNs t, int years)
{
    const engine::CivilTime c = engine::civilTime(t);
    return makeTime(c.year + years, c.month, c.day, c.hour, c.minute, c.second, c.nanos);
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

namespace {

struct LocalMonth {
    std::string_view name;  // lower case; UTF-8
    int month;
};

// strftime("%b") of the locales journalctl, syslog and dmesg print in when the machine is not set to English
// (glibc's abmon tables: fr_FR, de_DE, es_ES, it_IT, pt_BR, nl_NL, pl_PL, ru_RU). A trailing '.' is read apart.
constexpr std::array<LocalMonth, 50> localMonths = {{
    {"janv", 1}, {"févr", 2}, {"mars", 3}, {"avr", 4},  {"juin", 6}, {"juil", 7}, {"août", 8}, {"sept", 9}, {"déc", 12},
    {"mär", 3},  {"okt", 10}, {"dez", 12}, {"ene", 1},  {"abr", 4},  {"ago", 8},  {"dic", 12}, {"gen", 1},  {"mag", 5},
    {"giu", 6},  {"lug", 7},  {"set", 9},  {"ott", 10}, {"fev", 2},  {"mai", 5},  {"out", 10}, {"mrt", 3},  {"mei", 5},
    {"sty", 1},  {"lut", 2},  {"kwi", 4},  {"maj", 5},  {"cze", 6},  {"lip", 7},  {"sie", 8},  {"wrz", 9},  {"paź", 10},
    {"lis", 11}, {"gru", 12}, {"янв", 1},  {"фев", 2},  {"мар", 3},  {"апр", 4},  {"мая", 5},  {"июн", 6},  {"июл", 7},
    {"авг", 8},  {"сен", 9},  {"окт", 10}, {"ноя", 11}, {"дек", 12},
}};

bool isAsciiLetter(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

/// `name` at `pos`, ASCII letters compared without case.
bool namedAt(std::string_view s, std::size_t pos, std::string_view name)
{
    if (pos + name.size() > s.size())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[pos + i])) != static_cast<unsigned char>(name[i]))
            return false;
    return true;
}

}  // namespace

int readMonthName(std::string_view s, std::size_t& pos)
{
    // Chinese, Japanese and Korean locales: `11月` / `11월`.
    std::size_t digits = 0;
    int number = 0;
    while (pos + digits < s.size() && digits < 2 && isDigit(s[pos + digits]))
        number = number * 10 + (s[pos + digits++] - '0');
    if (digits > 0) {
        for (const std::string_view mark : {std::string_view("\u6708"), std::string_view("\uc6d4")})
            if (number >= 1 && number <= 12 && s.substr(pos + digits, mark.size()) == mark) {
                pos += digits + mark.size();
                return number;
            }
        return 0;
    }
    int month = monthFromAbbrev(s.substr(pos, 3));
    std::size_t length = month != 0 ? 3 : 0;
    if (month != 0 && (pos + 3 >= s.size() || !isAsciiLetter(s[pos + 3]))) {  // English: the common case
        pos += pos + 3 < s.size() && s[pos + 3] == '.' ? 4 : 3;
        return month;
    }
    auto consider = [&](const LocalMonth& m) {
        if (m.name.size() > length && namedAt(s, pos, m.name)) {
            month = m.month;
            length = m.name.size();
        }
    };
    for (const auto& m : localMonths)
        consider(m);
    std::size_t end = pos + length;
    if (month == 0 || (end < s.size() && isAsciiLetter(s[end])))
        return 0;
    if (end < s.size() && s[end] == '.')
        ++end;
    pos = end;
    return month;
}

int monthAt(std::string_view s)
{
    std::size_t pos = 0;
    return readMonthName(s, pos);
}

std::optional<StampMatch> parseIso8601(std::string_view s)
{
    const auto stamp = engine::parseIsoStamp(s);
    if (!stamp)
        return std::nullopt;
    return StampMatch{stamp->time, stamp->length, true};
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
    return StampMatch{makeTime(year, month, day, hour, minute, second, nanos), pos, false};
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
    return StampMatch{makeTime(year, month, day, hour, minute, second), pos, true};
}

std::optional<StampMatch> parseTalosStamp(std::string_view s)
{
    if (s.size() < 12 || s[0] != '[' || s[11] != 'T')
        return std::nullopt;
    const auto iso = parseIso8601(s.substr(1));
    if (!iso || s.substr(iso->length + 1, 3) != "]: ")
        return std::nullopt;
    return StampMatch{iso->time, iso->length + 4, true};
}

namespace {

/// `[ seconds.fraction]` with seconds in [low, high): the seconds (as ns) and the length, brackets included.
std::optional<StampMatch> parseBracketSeconds(std::string_view s, std::int64_t low, std::int64_t high)
{
    std::size_t pos = 0;
    if (!expect(s, pos, '['))
        return std::nullopt;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    if (pos >= s.size() || !isDigit(s[pos]))
        return std::nullopt;
    const std::size_t digits = digitRun(s, pos);
    const auto seconds = digits <= 11 ? engine::parseInteger<std::int64_t>(s.substr(pos, digits)) : std::nullopt;
    if (!seconds || *seconds < low || *seconds >= high)
        return std::nullopt;
    pos += digits;
    long nanos = 0;
    const std::size_t fractionStart = pos;
    readFraction(s, pos, nanos, false);
    if (pos == fractionStart || !expect(s, pos, ']'))
        return std::nullopt;
    return StampMatch{*seconds * engine::NsPerSec + nanos, pos, false};
}

constexpr std::int64_t EpochLow = 1'000'000'000LL;   // 2001-09-09 as Unix time, 31 years as an uptime
constexpr std::int64_t EpochHigh = 4'000'000'000LL;  // 2096; keeps nanoseconds far from overflow

}  // namespace

std::optional<StampMatch> parseDmesgRaw(std::string_view s)
{
    return parseBracketSeconds(s, 0, EpochLow);
}

std::optional<StampMatch> parseEpochBracket(std::string_view s)
{
    auto stamp = parseBracketSeconds(s, EpochLow, EpochHigh);
    if (stamp)
        stamp->hasYear = true;
    return stamp;
}

std::optional<StampMatch> parseDmesgHuman(std::string_view s, int year)
{
    std::size_t pos = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
    // strftime("%b%e %H:%M"): `Dec 1 10:00`, `Dec10 10:00`; other writers pad the day with a blank or zero.
    if (!expect(s, pos, '[') || (month = readMonthName(s, pos)) == 0)
        return std::nullopt;
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
    return StampMatch{makeTime(year, month, day, hour, minute, second), pos, false};
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
    const std::size_t digits = digitRun(s, pos);
    const auto seconds = digits <= 10 ? engine::parseInteger<std::int64_t>(s.substr(pos, digits)) : std::nullopt;
    if (!seconds)
        return std::nullopt;
    pos += digits;
    long nanos = 0;
    const std::size_t fractionStart = pos;
    readFraction(s, pos, nanos, false);
    if (pos == fractionStart || (angle && !expect(s, pos, '>')) || !expect(s, pos, ']'))
        return std::nullopt;
    return StampMatch{*seconds * engine::NsPerSec + nanos, pos, false};
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
    return StampMatch{makeTime(year, month, day, hour, minute, second, nanos), pos, false};
}

std::optional<StampMatch> parseSlashDate(std::string_view s, ShortYear shortYear)
{
    std::size_t pos = 0;
    int a = 0, b = 0, c = 0, hour = 0, minute = 0, second = 0;
    if (digitRun(s, 0) == 4) {  // year first: Go's log package, `2009/11/10 23:00:00[.000000]`
        if (!readDigits(s, pos, 4, a) || !expect(s, pos, '/') || !readDigits(s, pos, 2, b) || !expect(s, pos, '/') ||
            !readDigits(s, pos, 2, c) || !expect(s, pos, ' ') || !readClock(s, pos, hour, minute, second) ||
            !validDate(a, b, c))
            return std::nullopt;
        long nanos = 0;
        readFraction(s, pos, nanos, false);
        return StampMatch{makeTime(a, b, c, hour, minute, second, nanos), pos, true};
    }
    if (!readDigits(s, pos, 2, a) || !expect(s, pos, '/') || !readDigits(s, pos, 2, b) || !expect(s, pos, '/'))
        return std::nullopt;
    const std::size_t lastDigits = digitRun(s, pos);
    // TensorRT's Python logger writes `%m/%d/%Y-%H:%M:%S`: a dash between date and time, only after a 4-digit year.
    if ((lastDigits != 2 && lastDigits != 4) || !readDigits(s, pos, lastDigits, c) ||
        !(expect(s, pos, ' ') || (lastDigits == 4 && expect(s, pos, '-'))) || !readClock(s, pos, hour, minute, second))
        return std::nullopt;
    int year = c, month = a, day = b;
    if (lastDigits == 2 && shortYear == ShortYear::First) {
        year = 2000 + a;
        month = b;
        day = c;
    } else {
        year = lastDigits == 2 ? 2000 + c : c;
        if (a > 12 && b <= 12)
            std::swap(month, day);
    }
    if (!validDate(year, month, day))
        return std::nullopt;
    long nanos = 0;
    readFraction(s, pos, nanos, false);
    return StampMatch{makeTime(year, month, day, hour, minute, second, nanos), pos, true};
}

std::optional<StampMatch> parseFabricManager(std::string_view s)
{
    std::size_t pos = 0;
    int month = 0, day = 0, year = 0, hour = 0, minute = 0, second = 0;
    if (!expect(s, pos, '[') || !readMonthDay(s, pos, month, day) || !expect(s, pos, ' ') ||
        !readDigits(s, pos, 4, year) || !expect(s, pos, ' ') || !readClock(s, pos, hour, minute, second) ||
        !expect(s, pos, ']') || !validDate(year, month, day))
        return std::nullopt;
    return StampMatch{makeTime(year, month, day, hour, minute, second), pos, true};
}

}  // namespace attrib::importers
