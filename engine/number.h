// SPDX-License-Identifier: GPL-3.0-or-later
// The one way to read a number out of evidence or rule data: std::from_chars over the whole text, with range
// checks. Every parser returns std::nullopt instead of throwing, so a malformed or absurd field can be reported
// (a coverage note, a diagnostic) without stopping the analysis.
#pragma once

#include "engine/attr_map.h"

#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace attrib::engine {

/// ASCII digit test that never depends on the locale or on the sign of `char`.
constexpr bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// The whole of `text` as an integer of type T in `base`: no spaces, no '+', a '-' only for signed T.
/// std::nullopt when empty, malformed, followed by other characters, or outside T's range.
template <std::integral T> std::optional<T> parseInteger(std::string_view text, int base = 10)
{
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
    if (text.empty() || ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

/// parseInteger, and the value must lie in [min, max].
template <std::integral T> std::optional<T> parseIntegerIn(std::string_view text, T min, T max, int base = 10)
{
    const auto value = parseInteger<T>(text, base);
    if (!value || *value < min || *value > max)
        return std::nullopt;
    return value;
}

/// A duration in whole milliseconds, at most ten years (so that it converts to nanoseconds without overflow).
inline std::optional<std::int64_t> durationMs(std::string_view text)
{
    constexpr std::int64_t MaxMs = 10LL * 365 * 24 * 3600 * 1000;
    return parseIntegerIn<std::int64_t>(text, 0, MaxMs);
}

/// A hexadecimal number with an optional `0x`/`0X` prefix (`0x1f`, `1F`), within T's range.
template <std::unsigned_integral T> std::optional<T> parseHex(std::string_view text)
{
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text.remove_prefix(2);
    return parseInteger<T>(text, 16);
}

/// The whole of `text` as a finite double (an optional leading '+' is accepted); NaN and infinities are refused.
inline std::optional<double> parseFinite(std::string_view text)
{
    if (!text.empty() && text[0] == '+')
        text.remove_prefix(1);
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

/// Event attribute in which rules note the fields they could not read (malformed or out-of-range numbers), one
/// note per line of text; the analyzer turns each note into a coverage note naming the event's first line.
inline constexpr const char* UnreadableAttr = "unreadable";

/// Adds a note to an event's (or any attribute map's) UnreadableAttr.
inline void noteUnreadable(AttrMap& attrs, const std::string& note)
{
    std::string& notes = attrs[UnreadableAttr];
    notes += (notes.empty() ? "" : "\n") + note;
}

}  // namespace attrib::engine
