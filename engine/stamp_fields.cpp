// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the fields of written timestamps (see stamp_fields.h).
#include "engine/stamp_fields.h"

#include "engine/number.h"

#include <array>
#include <cstdint>

namespace attrib::engine {

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

}  // namespace

namespace stamp {

bool validDate(int year, int month, int day)
{
    // Nanoseconds since 1970 in 64 bits reach from 1677 to 2262; log stamps outside 1900..2200 are garbage.
    return year >= 1900 && year <= 2200 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

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

bool readClock(std::string_view s, std::size_t& pos, int& hour, int& minute, int& second)
{
    return readDigits(s, pos, 2, hour) && expect(s, pos, ':') && readDigits(s, pos, 2, minute) && expect(s, pos, ':') &&
        readDigits(s, pos, 2, second) && hour <= 23 && minute <= 59 && second <= 60;
}

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

}  // namespace stamp

using namespace stamp;

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
    return seconds * NsPerSec + nanos;
}

CivilTime civilTime(TimeNs time)
{
    std::int64_t secs = time / NsPerSec;
    std::int64_t ns = time % NsPerSec;
    if (ns < 0) {
        ns += NsPerSec;
        --secs;
    }
    std::int64_t days = secs / 86400;
    std::int64_t rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    // Howard Hinnant's civil_from_days.
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    CivilTime c;
    c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    c.year = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (c.month <= 2 ? 1 : 0));
    c.hour = static_cast<int>(rem / 3600);
    c.minute = static_cast<int>(rem % 3600 / 60);
    c.second = static_cast<int>(rem % 60);
    c.nanos = static_cast<long>(ns);
    return c;
}

std::optional<IsoStamp> parseIsoStamp(std::string_view s)
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
    const std::size_t zoneAt = pos;
    long offset = readZone(s, pos);
    if (pos == zoneAt && pos + 1 < s.size() && s[pos] == ' ' && (s[pos + 1] == '+' || s[pos + 1] == '-')) {
        std::size_t spaced = pos + 1;  // `2025-11-09 15:39:31.043 +08:00`: the zone after a space (spdlog, loguru)
        offset = readZone(s, spaced);
        if (spaced != pos + 1)
            pos = spaced;
    }
    return IsoStamp{makeTime(year, month, day, hour, minute, second, nanos) - offset * NsPerSec, pos};
}

}  // namespace attrib::engine
