// SPDX-License-Identifier: GPL-3.0-or-later
// Stamps written before application text: glog, Python logging, ISO, Unix time, BMC event-log rows.
#include "importers/format_stamps.h"

#include "engine/number.h"
#include "engine/stamp_fields.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace attrib::importers::detail {

namespace {

using engine::isDigit;

bool isGlogLevel(char c)
{
    return c == 'I' || c == 'W' || c == 'E' || c == 'F';
}

/// Month of a glog stamp that starts at the level letter: `E1206` -> 12, `E321` -> 3.
int glogMonth(std::string_view s)
{
    std::size_t digits = 1;
    while (digits < s.size() && isDigit(s[digits]))
        ++digits;
    --digits;
    if (digits == 3)
        return s[1] - '0';
    return (s[1] - '0') * 10 + (s[2] - '0');
}

/// Parses a glog stamp starting at the level letter; sets a year-inferred time when a year is known.
std::size_t takeGlogStamp(std::string_view s, YearTracker& years, ParsedLine& out)
{
    const auto probe = parseGlog(s, 2000);  // a leap year, so Feb 29 is not rejected before the year is known
    if (!probe)
        return 0;
    const int year = years.yearFor(glogMonth(s));
    if (year != 0)
        if (const auto stamp = parseGlog(s, year))
            offerTime(out, stamp->time, TimeSource::YearInferred);
    return probe->length;
}

bool isLogLevel(std::string_view word)
{
    static constexpr std::array<std::string_view, 6> levels = {"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL"};
    return std::find(levels.begin(), levels.end(), word) != levels.end();
}

/// Skips ` | ` between two table columns, with any padding (FreeIPMI pads its columns); false when it is not there.
bool skipColumnBar(std::string_view s, std::size_t& pos)
{
    std::size_t p = pos;
    while (p < s.size() && s[p] == ' ')
        ++p;
    if (p == pos || !charAt(s, p++, '|'))
        return false;
    while (p < s.size() && s[p] == ' ')
        ++p;
    pos = p;
    return true;
}

/// Where glog's `file:line` starts: the last word of s[from, close) (close: the `]` that ends the header), when it
/// is `name:digits`; npos otherwise (`[E1111 17:10:53] ` has none).
std::size_t glogLocation(std::string_view s, std::size_t from, std::size_t close)
{
    const std::size_t space = close == 0 ? std::string_view::npos : s.rfind(' ', close - 1);
    const std::size_t start = space == std::string_view::npos || space < from ? from : space + 1;
    const std::string_view word = s.substr(start, close - start);
    const std::size_t colon = word.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == word.size())
        return std::string_view::npos;
    const std::string_view line = word.substr(colon + 1);
    return std::all_of(line.begin(), line.end(), [](char c) { return isDigit(c); }) ? start : std::string_view::npos;
}

/// The message after a glog header whose `]` is at `close`: from the source location on when the header names one
/// (`ir_emitter.cc:123] Check failed: ...`: rules written from XLA, TensorFlow or Paddle sources anchor on the
/// file), else after the `]`.
std::string_view glogMessage(std::string_view s, std::size_t from, std::size_t close)
{
    const std::size_t location = glogLocation(s, from, close);
    return location == std::string_view::npos ? skipSpaces(s.substr(close + 1)) : s.substr(location);
}

}  // namespace

/// `[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] `, `[E1111 17:10:53] ` or `[E ProcessGroupNCCL.cpp:737] `.
bool stripGlogBracket(std::string_view& s, YearTracker& years, ParsedLine& out)
{
    if (s.size() < 4 || s[0] != '[' || !isGlogLevel(s[1]))
        return false;
    std::size_t pos = 0;
    std::size_t from = 3;  // where the header's words after the stamp begin
    if (s[2] == ' ') {
        pos = 3;  // old c10 form without a stamp: the next token must be `file:line]`
        const std::size_t close = s.find(']', pos);
        const std::size_t colon = s.find(':', pos);
        if (close == std::string_view::npos || colon > close || s.substr(pos, close - pos).find(' ') != s.npos)
            return false;
        pos = close;
    } else {
        const std::size_t length = takeGlogStamp(s.substr(1), years, out);
        if (length == 0)
            return false;
        from = 1 + length;
        pos = s.find(']', from);
        if (pos == std::string_view::npos || pos > 1 + length + 200)
            return false;
    }
    s = glogMessage(s, from, pos);
    return true;
}

/// Newer torch elastic: `E0325 20:57:27.620000 2606 site-packages/.../api.py:869] msg`.
bool stripBareGlog(std::string_view& s, YearTracker& years, ParsedLine& out)
{
    const auto probe = s.empty() || !isGlogLevel(s[0]) ? std::nullopt : parseGlog(s, 2000);
    if (!probe)
        return false;
    const std::size_t length = probe->length;
    const std::size_t close = s.find("] ", length);
    if (close == std::string_view::npos || close > length + 300)
        return false;
    const std::string_view between = s.substr(length, close - length);
    if (between.find(':') == std::string_view::npos || between.find('[') != std::string_view::npos)
        return false;
    takeGlogStamp(s, years, out);
    s = glogMessage(s, length, close);
    return true;
}

namespace {

/// A parallel rank's tag after a stamp: two to four capitals and a number (`TP0`, `DP1`, `EP3`, `PP12`).
std::size_t rankTagLength(std::string_view s)
{
    std::size_t letters = 0;
    while (letters < s.size() && letters < 5 && s[letters] >= 'A' && s[letters] <= 'Z')
        ++letters;
    std::size_t end = letters;
    while (end < s.size() && end - letters < 5 && isDigit(s[end]))
        ++end;
    return letters >= 2 && letters <= 4 && end > letters ? end : 0;
}

}  // namespace

/// `[2026-04-22 21:34:20,123] ` (Python logging) or `[2026-04-29T23:36:37.809] `, and SGLang's
/// `[2025-03-29 18:18:34 DP0 TP1] ` (`[%(asctime)s{prefix}] ` with the process's parallel ranks as the prefix,
/// sglang/srt/utils.py configure_logger).
bool stripBracketIso(std::string_view& s, ParsedLine& out, unsigned& marks)
{
    if (!charAt(s, 0, '['))
        return false;
    const auto stamp = parseIso8601(s.substr(1));
    if (!stamp)
        return false;
    std::size_t close = 1 + stamp->length;
    for (std::size_t tag = 0; charAt(s, close, ' ') && (tag = rankTagLength(s.substr(close + 1))) > 0;)
        close += 1 + tag;
    if (!charAt(s, close, ']'))
        return false;
    offerTime(out, stamp->time, TimeSource::Absolute);
    marks |= s[11] == ' ' ? MarkPyLog : MarkIso;
    s = skipSpaces(s.substr(close + 1));
    return true;
}

/// UCX's `[1701292112.829711] ` Unix-time stamp.
bool stripEpochBracket(std::string_view& s, ParsedLine& out)
{
    const auto stamp = parseEpochBracket(s);
    if (!stamp || !charAt(s, stamp->length, ' '))
        return false;
    offerTime(out, stamp->time, TimeSource::Absolute);
    s = skipSpaces(s.substr(stamp->length));
    return true;
}

/// A bare ISO stamp added by a log collector, followed by a space.
bool stripBareIso(std::string_view& s, ParsedLine& out)
{
    if (s.empty() || !isDigit(s[0]))
        return false;
    const auto stamp = parseIso8601(s);
    if (!stamp)
        return false;
    // `2019-06-02T16:13:44.884Z: [1,12]<stdout>:...` (a collector's stamp closed by a colon) as well as `... `.
    std::size_t end = stamp->length;
    if (end + 1 < s.size() && s[end] == ':' && s[end + 1] == ' ')
        ++end;
    // A blank or a tab (a stamp column copied from a log console: CloudWatch, Grafana, SageMaker's stream view).
    if (end < s.size() && s[end] != ' ' && s[end] != '\t')
        return false;
    offerTime(out, stamp->time, TimeSource::Absolute);
    if (end < s.size() && s[end] == '\t')
        ++end;
    s = skipSpaces(s.substr(end));
    return true;
}

/// Go's log package stamp, `2009/11/10 23:00:00 ` or with microseconds (the device plugin, the container toolkit's
/// hooks, many operators' helpers): taken and stripped, as an ISO stamp is.
bool stripGoLogStamp(std::string_view& s, ParsedLine& out)
{
    if (s.size() < 20 || !isDigit(s[0]) || s[4] != '/')
        return false;
    const auto stamp = parseSlashDate(s, ShortYear::First);
    if (!stamp || !charAt(s, stamp->length, ' '))
        return false;
    offerTime(out, stamp->time, TimeSource::Absolute);
    s = skipSpaces(s.substr(stamp->length));
    return true;
}

/// Python logging's `%(name)s %(levelname)s (%(asctime)s) - %(message)s`, as submitit writes it: the stamp is
/// taken and the line kept whole (the logger name and level are part of what rules read). Only the first two
/// words are looked at: this runs on every unstamped application line.
void takeLoggerStamp(std::string_view s, ParsedLine& out)
{
    const std::size_t nameEnd = s.find(' ');
    if (nameEnd == 0 || nameEnd > 64 || nameEnd == std::string_view::npos)
        return;
    const std::size_t levelEnd = s.find(' ', nameEnd + 1);
    if (levelEnd == std::string_view::npos || !charAt(s, levelEnd + 1, '(') ||
        !isLogLevel(s.substr(nameEnd + 1, levelEnd - nameEnd - 1)))
        return;
    const std::size_t open = levelEnd + 2;
    const auto stamp = parseIso8601(s.substr(open));
    if (stamp && charAt(s, open + stamp->length, ')'))
        offerTime(out, stamp->time, TimeSource::Absolute);
}

/// A slash-dated line (Rich's `[12/03/24 14:22:05]`, Spark's `21/01/15 18:40:27 WARN`, PBS's `06/18/2024 10:22:33;`):
/// the stamp is taken and the line kept whole, so a file of them reads as before (PBS rules read
/// the `;`-separated record from its start) and only gains its time. The stamp ends at the line's end, a blank, the
/// `]` of its bracket or PBS's `;`.
void takeSlashStamp(std::string_view s, ParsedLine& out)
{
    const bool bracket = charAt(s, 0, '[');
    // Rich brackets strftime's `%x %X`; a bare two-digit year leads in log4j's `yy/MM/dd HH:mm:ss` (Spark).
    const auto stamp = parseSlashDate(s.substr(bracket ? 1 : 0), bracket ? ShortYear::Last : ShortYear::First);
    if (!stamp)
        return;
    const std::size_t end = stamp->length + (bracket ? 1 : 0);
    if (bracket ? !charAt(s, end, ']') : end < s.size() && s[end] != ' ' && s[end] != '\t' && s[end] != ';')
        return;
    offerTime(out, stamp->time, TimeSource::Absolute);
}

/// A BMC event-log row (`ipmitool sel list`, FreeIPMI `ipmi-sel`): `   1 | 06/22/2021 | 10:24:13 | Power Supply ...`
/// or `57 | Oct-02-2025 | 03:11:47 | ...`. The date and time columns are taken as the line's time and the row kept
/// whole (rules read its columns). The BMC's clock, in its own zone (usually UTC).
void takeSelStamp(std::string_view s, ParsedLine& out)
{
    std::size_t pos = 0;
    while (pos < s.size() && s[pos] == ' ')
        ++pos;
    const std::size_t idStart = pos;
    while (pos < s.size() && std::isxdigit(static_cast<unsigned char>(s[pos])))
        ++pos;
    if (pos == idStart || pos - idStart > 8 || !skipColumnBar(s, pos))
        return;
    int month = 0;
    int day = 0;
    int year = 0;
    if (std::isdigit(static_cast<unsigned char>(s[pos]))) {  // MM/DD/YYYY
        if (!readInt(s, pos, month, 2) || !charAt(s, pos++, '/') || !readInt(s, pos, day, 2) ||
            !charAt(s, pos++, '/') || !readInt(s, pos, year, 4))
            return;
    } else {  // Mon-DD-YYYY
        month = monthFromAbbrev(s.substr(pos, 3));
        pos += 3;
        if (month == 0 || !charAt(s, pos++, '-') || !readInt(s, pos, day, 2) || !charAt(s, pos++, '-') ||
            !readInt(s, pos, year, 4))
            return;
    }
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (!skipColumnBar(s, pos))
        return;
    if (!readInt(s, pos, hour, 2) || !charAt(s, pos++, ':') || !readInt(s, pos, minute, 2) || !charAt(s, pos++, ':') ||
        !readInt(s, pos, second, 2) || !skipColumnBar(s, pos))
        return;
    if (year < 1990 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return;  // `Pre-Init` rows and a BMC clock never set (01/01/1970) carry no usable time
    offerTime(out, engine::makeTime(year, month, day, hour, minute, second), TimeSource::Absolute);
}

}  // namespace attrib::importers::detail
