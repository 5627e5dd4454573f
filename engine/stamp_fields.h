// SPDX-License-Identifier: GPL-3.0-or-later
// The fields of written timestamps: the one ISO 8601 parser (catalog data, workload.json, captured `time` fields,
// every importer) and the pieces the importers' other stamp parsers (syslog, dmesg, glog, Fabric Manager) are
// built from. Every reader checks bounds and ranges and never throws.
#pragma once

#include "engine/model.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace attrib::engine {

/// Days-from-civil conversion; valid for the proleptic Gregorian calendar. Times are UTC.
TimeNs makeTime(int year, int month, int day, int hour, int minute, int second, long nanos = 0);

/// The UTC calendar fields of a time: the inverse of makeTime (`nanos` in 0..999999999, a time before a whole second
/// belongs to the second before it). For any time but NoTime.
struct CivilTime {
    int year = 1970;
    int month = 1;
    int day = 1;
    int hour = 0;
    int minute = 0;
    int second = 0;
    long nanos = 0;
};
CivilTime civilTime(TimeNs time);

/// An ISO 8601 stamp at the start of a text: its time and how many bytes it used.
struct IsoStamp {
    TimeNs time = NoTime;
    std::size_t length = 0;
};
/// `2026-04-22T21:34:20Z`, `2026-04-22T21:34:20.123456+08:00`, `2026-04-22 21:34:20,123`, `2026-04-22_07:01:51`,
/// `2026-04-22 21:34:20.123 +08:00` at the start of `s` (what follows is not looked at). A stamp without zone is taken
/// as UTC. Years outside 1900..2200 and impossible dates are rejected, so untrusted input cannot overflow nanoseconds.
std::optional<IsoStamp> parseIsoStamp(std::string_view s);

namespace stamp {

/// A date inside 1900..2200 that exists (Feb 29 only in leap years).
bool validDate(int year, int month, int day);
/// Reads exactly `count` decimal digits at `pos` (advanced past them).
bool readDigits(std::string_view s, std::size_t& pos, std::size_t count, int& out);
/// The character `c` at `pos` (advanced past it).
bool expect(std::string_view s, std::size_t& pos, char c);
/// `HH:MM:SS`, validated (a leap second 60 is accepted).
bool readClock(std::string_view s, std::size_t& pos, int& hour, int& minute, int& second);
/// Optional `.frac` (and `,frac` when `allowComma`): one or more digits; digits past nanoseconds are dropped.
void readFraction(std::string_view s, std::size_t& pos, long& nanos, bool allowComma);
/// Optional zone: `Z`, `+HH:MM`, `+HHMM`. Returns the offset east of UTC in seconds.
long readZone(std::string_view s, std::size_t& pos);

}  // namespace stamp

}  // namespace attrib::engine
