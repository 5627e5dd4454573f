// SPDX-License-Identifier: GPL-3.0-or-later
// Log platforms' CSV exports: which columns hold the message, its time and its host, by the headers CloudWatch Logs
// Insights, Datadog, Kibana/OpenSearch Dashboards, Azure Log Analytics and Grafana write.
#include "importers/log_export_csv.h"

#include "importers/format_prefix.h"
#include "importers/sniff_structured.h"
#include "importers/timestamps.h"

#include "engine/number.h"

#include <array>

namespace attrib::importers::detail {

namespace {

template <std::size_t N>
int columnOf(const std::vector<std::string>& columns, const std::array<std::string_view, N>& names)
{
    for (const auto name : names)
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (lower(columns[i]) == name)
                return static_cast<int>(i);
    return -1;
}

constexpr std::array<std::string_view, 9> MessageColumns = {"@message",    "message", "logmessage", "log",        "msg",
                                                            "textpayload", "content", "line",       "log message"};
constexpr std::array<std::string_view, 8> TimeColumns = {
    "@timestamp", "timestamp", "timegenerated [utc]", "timegenerated", "time", "date", "datetime", "ts"};
constexpr std::array<std::string_view, 7> HostColumns = {"host", "host.name", "hostname",       "computer",
                                                         "node", "_hostname", "kubernetes.host"};

/// The quotes of `s` leave a cell open (an odd number of `"`: doubled quotes inside a cell count twice).
bool leavesCellOpen(std::string_view s, bool open)
{
    for (const char c : s)
        if (c == '"')
            open = !open;
    return open;
}

/// `HH:MM:SS[.fff]` at `pos` (hours 0-23); the time of day in nanoseconds, moving `pos` past it; -1 when absent.
engine::TimeNs timeOfDay(std::string_view s, std::size_t& pos)
{
    int hour = 0, minute = 0, second = 0;
    if (!readInt(s, pos, hour, 2) || !charAt(s, pos++, ':') || !readInt(s, pos, minute, 2) || !charAt(s, pos++, ':') ||
        !readInt(s, pos, second, 2) || hour > 23 || minute > 59 || second > 60)
        return -1;
    engine::TimeNs nanos = 0;
    if (charAt(s, pos, '.')) {
        engine::TimeNs scale = 100'000'000;
        for (++pos; pos < s.size() && engine::isDigit(s[pos]); ++pos, scale /= 10)
            nanos += (s[pos] - '0') * scale;
    }
    return ((hour * 60 + minute) * 60 + second) * 1'000'000'000LL + nanos;
}

/// The log consoles' own forms: Kibana's `Dec 1, 2026 @ 10:11:12.345` and the Azure portal's
/// `12/1/2026, 10:11:12.345 AM` (month first, 12-hour clock); NoTime for anything else.
engine::TimeNs consoleTime(std::string_view s)
{
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0;
    engine::TimeNs clock = -1;
    if ((month = readMonthName(s, pos)) != 0) {
        if (!charAt(s, pos++, ' ') || !readInt(s, pos, day, 2) || !charAt(s, pos++, ',') || !charAt(s, pos++, ' ') ||
            !readInt(s, pos, year, 4) || s.substr(pos, 3) != " @ ")
            return engine::NoTime;
        pos += 3;
        clock = timeOfDay(s, pos);
    } else {
        if (!readInt(s, pos, month, 2) || !charAt(s, pos++, '/') || !readInt(s, pos, day, 2) ||
            !charAt(s, pos++, '/') || !readInt(s, pos, year, 4) || !charAt(s, pos++, ',') || !charAt(s, pos++, ' '))
            return engine::NoTime;
        clock = timeOfDay(s, pos);
        const std::string_view half = pos < s.size() ? s.substr(pos) : std::string_view();
        const engine::TimeNs hours12 = 12LL * 3600 * 1'000'000'000;
        if (clock < 0 || clock >= hours12 + 3600LL * 1'000'000'000 || (half != " AM" && half != " PM"))
            return engine::NoTime;
        if (clock >= hours12)  // 12:xx AM is just after midnight, 12:xx PM just after noon
            clock -= hours12;
        if (half == " PM")
            clock += hours12;
        pos = s.size();
    }
    if (clock < 0 || year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31)
        return engine::NoTime;
    return engine::makeTime(year, month, day, 0, 0, 0) + clock;
}

/// A cell's time: an ISO stamp (`2026-12-01 10:11:12.345`), a log console's own form, or Unix seconds to
/// nanoseconds.
engine::TimeNs cellTime(const std::string& cell)
{
    if (const auto stamp = parseIso8601(cell))
        return stamp->time;
    if (const engine::TimeNs console = consoleTime(cell); console != engine::NoTime)
        return console;
    if (const auto number = engine::parseFinite(cell))
        return unixTime(*number);
    return engine::NoTime;
}

}  // namespace

bool isLogExportHeader(std::string_view header)
{
    const auto columns = splitCsv(header);
    return columns.size() >= 2 && columnOf(columns, MessageColumns) >= 0;
}

bool LogExportRows::takeHeader(std::string_view header)
{
    const auto columns = splitCsv(header);
    m_message = columns.size() >= 2 ? columnOf(columns, MessageColumns) : -1;
    m_time = columnOf(columns, TimeColumns);
    m_host = columnOf(columns, HostColumns);
    return m_message >= 0;
}

bool LogExportRows::add(std::string_view line, Envelope& out, std::size_t maxLines, std::size_t maxBytes)
{
    if (!m_open) {
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            return false;
        m_row.assign(line);
        m_lines = 1;
    } else {
        if (m_row.size() + line.size() < maxBytes)
            m_row.append("\n").append(line);
        ++m_lines;
    }
    m_open = leavesCellOpen(line, m_open) && m_lines < maxLines;
    if (m_open)
        return false;
    complete(out);
    return true;
}

void LogExportRows::complete(Envelope& out) const
{
    out.lines.clear();
    out.time = engine::NoTime;
    out.host.clear();
    const auto cells = splitCsv(m_row);
    const auto cell = [&](int column) {
        return column >= 0 && static_cast<std::size_t>(column) < cells.size() ? cells[static_cast<std::size_t>(column)]
                                                                              : std::string();
    };
    const std::string message = cell(m_message);
    // Azure writes a record's JSON into the cell: a cell holding a record is read as that record.
    if (message.empty())
        appendMessageLines(m_row, out);  // a row without its message cell is still read, whole
    else if (!unwrapEnvelope(message, out))
        appendMessageLines(message, out);
    if (out.time == engine::NoTime)
        out.time = cellTime(cell(m_time));
    if (const std::string host = cell(m_host); out.host.empty() && !host.empty() && isHostName(host))
        out.host = host;
}

}  // namespace attrib::importers::detail
