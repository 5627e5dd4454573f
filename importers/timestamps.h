// SPDX-License-Identifier: GPL-3.0-or-later
// Timestamp parsing for every form the importers meet. All results are UTC nanoseconds.
#pragma once

#include "engine/model.h"
#include "engine/stamp_fields.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace attrib::importers {

using engine::TimeNs;

using engine::makeTime;

/// A parsed stamp and how many bytes of the input it used.
struct StampMatch {
    TimeNs time = engine::NoTime;
    std::size_t length = 0;
    bool hasYear = true;
};

/// engine::parseIsoStamp as a StampMatch.
std::optional<StampMatch> parseIso8601(std::string_view s);
/// RFC 3164 `Mmm dd HH:MM:SS` (no year; `year` supplies it).
std::optional<StampMatch> parseRfc3164(std::string_view s, int year);
/// `dmesg -T`: `[Www Mmm dd HH:MM:SS YYYY]` including the brackets.
std::optional<StampMatch> parseDmesgT(std::string_view s);
/// `talosctl dmesg`: `[2026-04-22T21:25:20.458998481Z]: ` (after the record's facility and level), brackets, colon and
/// space included.
std::optional<StampMatch> parseTalosStamp(std::string_view s);
/// Raw dmesg `[ 1234.567890]`: returns seconds since boot in `time` (as ns), including the brackets. Under
/// 1e9 seconds only: a larger number is a Unix time (parseEpochBracket), no machine having run 31 years.
std::optional<StampMatch> parseDmesgRaw(std::string_view s);
/// UCX and other tools' `[1701292112.829711]`: Unix seconds with a fraction, 1e9 to 4e9 (2001 to 2096),
/// including the brackets.
std::optional<StampMatch> parseEpochBracket(std::string_view s);
/// `dmesg -H` / `--reltime` minute header `[Dec 1 10:00]` (seconds optional, no year; `year` supplies it),
/// including the brackets.
std::optional<StampMatch> parseDmesgHuman(std::string_view s, int year);
/// `dmesg -H` / `--reltime` delta to the previous message `[  +0.000123]` (also `[<    +0.000123>]`), including
/// the brackets; `time` holds the delta in ns.
std::optional<StampMatch> parseDmesgDelta(std::string_view s);
/// glog / PyTorch c10 `[E1206 18:44:12.715298746 ` style `LMMDD HH:MM:SS.frac` (no year).
std::optional<StampMatch> parseGlog(std::string_view s, int year);
/// Fabric Manager `[Jul 23 2024 07:53:55]` including the brackets.
std::optional<StampMatch> parseFabricManager(std::string_view s);
/// Where a two-digit year stands in a slash date: last in strftime's `%x` (C locale `MM/DD/YY`: Python Rich's log
/// handler), first in log4j's `yy/MM/dd` (Spark's default console layout).
enum class ShortYear : std::uint8_t { Last, First };
/// A numeric date and time with slashes: `06/18/2024 10:22:33` (PBS/Torque daemon logs, Windows tools; TensorRT and
/// TensorRT-LLM's Python loggers put a dash before the time, `12/06/2026-10:11:12`; month first
/// as in the C locale, unless the first number cannot be a month: `18/06/2024` is day first), or with a two-digit
/// year (20YY) where `shortYear` says, or year first as Go's log package writes it (`2009/11/10 23:00:00`).
/// Fraction optional; no bracket included.
std::optional<StampMatch> parseSlashDate(std::string_view s, ShortYear shortYear);
/// A whole string that is one ISO 8601 stamp (surrounding blanks allowed); NoTime otherwise.
TimeNs isoTime(std::string_view s);
/// `t` with its calendar year moved by `years` (a Feb 29 that the new year lacks becomes Mar 1).
TimeNs shiftYears(TimeNs t, int years);
/// Month abbreviation (Jan..Dec) -> 1..12, 0 if unknown.
int monthFromAbbrev(std::string_view s);
/// The month name at `pos` as strftime's `%b` prints it in English and the common locales (`Nov`, `nov.`, `déc.`,
/// `Dez`, `dic`, `ноя`, `11月`): 1..12 with `pos` past the name (and a trailing '.'), or 0 with `pos` unchanged.
int readMonthName(std::string_view s, std::size_t& pos);
/// readMonthName at the start of `s`.
int monthAt(std::string_view s);

}  // namespace attrib::importers
