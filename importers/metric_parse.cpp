// SPDX-License-Identifier: GPL-3.0-or-later
// Prometheus exposition lines, numeric cells and time cells, by hand (no regex).
#include "importers/metric_parse.h"

#include "engine/number.h"
#include "importers/timestamps.h"

#include <string>

namespace attrib::importers::detail {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

std::string_view trim(std::string_view s)
{
    const std::size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string_view::npos)
        return {};
    const std::size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

/// `{a="x",b="y\"z"}` starting at `pos` (the brace); advances past the closing brace.
bool parseLabels(std::string_view s, std::size_t& pos, std::map<std::string, std::string>& labels)
{
    ++pos;
    while (pos < s.size()) {
        while (pos < s.size() && (s[pos] == ' ' || s[pos] == ','))
            ++pos;
        if (pos < s.size() && s[pos] == '}') {
            ++pos;
            return true;
        }
        const std::size_t start = pos;
        while (pos < s.size() && isNameChar(s[pos]))
            ++pos;
        if (pos == start || pos + 1 >= s.size() || s[pos] != '=' || s[pos + 1] != '"')
            return false;
        const std::string key(s.substr(start, pos - start));
        pos += 2;
        std::string value;
        while (pos < s.size() && s[pos] != '"') {
            if (s[pos] == '\\' && pos + 1 < s.size()) {
                ++pos;
                value += s[pos] == 'n' ? '\n' : s[pos];
            } else {
                value += s[pos];
            }
            ++pos;
        }
        if (pos >= s.size())
            return false;
        ++pos;
        labels[key] = std::move(value);
    }
    return false;
}

bool parseDouble(std::string_view token, double& value)
{
    // NaN and +-Inf samples carry no usable value for counter or threshold conditions.
    const auto parsed = engine::parseFinite(token);
    if (parsed)
        value = *parsed;
    return parsed.has_value();
}

}  // namespace

bool parsePrometheusLine(std::string_view line, PromSample& out)
{
    line = trim(line);
    if (line.empty() || line[0] == '#' || !isNameStart(line[0]))
        return false;
    std::size_t pos = 0;
    while (pos < line.size() && isNameChar(line[pos]))
        ++pos;
    // `Rate: 10`, `Base lid: 0` (ibstat, `key: value` tool output): a name may hold colons (recording rules,
    // `job:rate5m:sum`) but none ends with one before its value.
    if (line[pos - 1] == ':')
        return false;
    out.name = std::string(line.substr(0, pos));
    out.labels.clear();
    if (pos < line.size() && line[pos] == '{' && !parseLabels(line, pos, out.labels))
        return false;
    if (pos >= line.size() || line[pos] != ' ')
        return false;
    std::string_view rest = trim(line.substr(pos));
    const std::size_t space = rest.find(' ');
    if (!parseDouble(rest.substr(0, space), out.value))
        return false;
    out.time = engine::NoTime;
    if (space != std::string_view::npos) {
        const std::string_view stamp = trim(rest.substr(space));
        // Milliseconds up to year ~2190: beyond that nanoseconds overflow 64 bits.
        const auto ms = engine::parseIntegerIn<long long>(stamp, 0, 7'000'000'000'000LL);
        if (!ms)
            return false;
        out.time = static_cast<engine::TimeNs>(*ms) * engine::NsPerMs;
    }
    return true;
}

bool parseNumberCell(std::string_view cell, double& value)
{
    cell = trim(cell);
    std::size_t end = 0;
    while (end < cell.size() &&
           (std::isdigit(static_cast<unsigned char>(cell[end])) || cell[end] == '.' || cell[end] == '-' ||
            cell[end] == '+' || cell[end] == 'e' || cell[end] == 'E'))
        ++end;
    return end > 0 && parseDouble(cell.substr(0, end), value);
}

engine::TimeNs parseTimeCell(std::string_view cell)
{
    cell = trim(cell);
    if (cell.empty())
        return engine::NoTime;
    if (cell.size() >= 19 && cell[4] == '/' && cell[7] == '/') {  // nvidia-smi: 2026/04/22 21:34:20.123
        std::string iso(cell);
        iso[4] = '-';
        iso[7] = '-';
        const auto stamp = parseIso8601(iso);
        return stamp ? stamp->time : engine::NoTime;
    }
    if (const auto stamp = parseIso8601(cell); stamp && stamp->length >= 19)
        return stamp->time;
    double number = 0;
    if (!parseDouble(cell, number) || number <= 0)
        return engine::NoTime;
    // Epoch seconds, milliseconds, microseconds or nanoseconds, by magnitude; each up to year ~2190 so that the
    // nanoseconds fit in 64 bits.
    if (number < 1e10)
        return number < 7e9 ? static_cast<engine::TimeNs>(number * 1e9) : engine::NoTime;
    if (number < 1e13)
        return number < 7e12 ? static_cast<engine::TimeNs>(number * 1e6) : engine::NoTime;
    if (number < 1e16)
        return number < 7e15 ? static_cast<engine::TimeNs>(number * 1e3) : engine::NoTime;
    return number < 7e18 ? static_cast<engine::TimeNs>(number) : engine::NoTime;
}

}  // namespace attrib::importers::detail
