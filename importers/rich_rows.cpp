// SPDX-License-Identifier: GPL-3.0-or-later
// Rows of Python Rich's log handler (format: rich/_log_render.py, rich/logging.py: LogRender's time, level, message
// and path columns; level names padded to eight; time omitted when it repeats).
#include "importers/rich_rows.h"

#include <array>

namespace attrib::importers::detail {

namespace {

constexpr std::size_t LevelColumn = 9;     ///< a level name padded to 8 and the column gap
constexpr std::size_t MaxTimeColumn = 40;  ///< `[%x %X] ` and longer custom time formats
constexpr std::size_t MinBlankTime = 8;    ///< the narrowest blank time column of a repeated second

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// Where the level starts: after a bracketed time with digits and a space, after a blank time column, or at 0.
std::size_t levelStart(std::string_view row)
{
    if (!row.empty() && row[0] == '[') {
        const std::size_t close = row.find(']');
        if (close == std::string_view::npos || close + 2 > MaxTimeColumn || row.size() <= close + 1 ||
            row[close + 1] != ' ')
            return std::string_view::npos;
        const std::string_view time = row.substr(1, close - 1);
        return time.find_first_of("0123456789") != std::string_view::npos && time.find(':') != std::string_view::npos
            ? close + 2
            : std::string_view::npos;
    }
    const std::size_t blank = row.find_first_not_of(' ');
    if (blank == 0)
        return 0;
    return blank != std::string_view::npos && blank >= MinBlankTime && blank <= MaxTimeColumn ? blank
                                                                                              : std::string_view::npos;
}

/// `name.ext:N` at the end of the trimmed row, after a space: its start, npos when there is none.
std::size_t locationStart(std::string_view row)
{
    std::size_t end = row.find_last_not_of(' ');
    if (end == std::string_view::npos || !isDigit(row[end]))
        return std::string_view::npos;
    std::size_t i = end;
    while (i > 0 && isDigit(row[i]))
        --i;
    if (row[i] != ':')
        return std::string_view::npos;
    const std::size_t colon = i;
    bool dot = false;
    while (i > 0) {
        const char c = row[i - 1];
        if (c == ' ')
            break;
        if (!(isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' || c == '.'))
            return std::string_view::npos;
        dot = dot || c == '.';
        --i;
    }
    return dot && i > 0 && i < colon - 1 ? i : std::string_view::npos;
}

}  // namespace

std::size_t richMessageColumn(std::string_view row, std::string_view& location)
{
    static constexpr std::array<std::string_view, 5> levels = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"};
    const std::size_t level = levelStart(row);
    if (level == std::string_view::npos)
        return 0;
    const std::string_view rest = row.substr(level);
    const std::size_t column = level + LevelColumn;
    bool named = false;
    for (const std::string_view name : levels)
        named = named ||
            (rest.starts_with(name) && rest.size() > LevelColumn &&
             rest.substr(name.size(), LevelColumn - name.size()).find_first_not_of(' ') == std::string_view::npos);
    if (!named || row[column] == ' ')
        return 0;
    const std::size_t at = locationStart(row);
    if (at == std::string_view::npos || at <= column)
        return 0;
    // Without a time column the row could be any `%(levelname)-8s %(message)s` line ending in a path: the message
    // column's padding must stand before the location.
    if (level == 0 && row.substr(at - 2, 2) != "  ")
        return 0;
    location = row.substr(at, row.find_last_not_of(' ') + 1 - at);
    return column;
}

bool continuesRichRecord(std::string_view row, std::size_t column)
{
    const std::size_t text = row.find_first_not_of(' ');
    return column > 0 && text != std::string_view::npos && text >= column;
}

void dropRichLocation(std::string& text, std::string_view location)
{
    const std::size_t end = text.find_last_not_of(' ');
    if (end == std::string::npos || end + 1 <= location.size() ||
        std::string_view(text).substr(end + 1 - location.size(), location.size()) != location)
        return;
    text.resize(end + 1 - location.size());
    text.resize(text.find_last_not_of(' ') + 1);  // npos + 1 == 0: nothing but the location
}

}  // namespace attrib::importers::detail
