// SPDX-License-Identifier: GPL-3.0-or-later
// Line-number gutters of a copied log (line_gutter.h).
#include "importers/line_gutter.h"

namespace attrib::importers::detail {

namespace {

constexpr std::size_t GutterLines = 200;  ///< lines of the head looked at
constexpr std::size_t MaxDigits = 7;

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

}  // namespace

Gutter gutterOf(std::string_view line)
{
    Gutter g;
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i]))
        ++i;
    const std::size_t digits = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - digits < MaxDigits)
        g.number = g.number * 10 + static_cast<std::uint64_t>(line[i++] - '0');
    if (i == digits || (i < line.size() && line[i] >= '0' && line[i] <= '9'))
        return {};
    if (i == line.size()) {
        g.length = i;  // a numbered empty line
        return g;
    }
    g.marked = true;
    if (line[i] == '\t') {
        g.length = i + 1;
        return g;
    }
    std::size_t j = i;
    while (j < line.size() && line[j] == ' ')
        ++j;
    if (j < line.size() && line[j] == '|') {
        ++j;
        g.length = j < line.size() && line[j] == ' ' ? j + 1 : j;
        return g;
    }
    g.marked = false;
    g.length = j > i ? j : 0;
    return g;
}

std::vector<std::string_view> headLines(std::string_view head, std::size_t limit)
{
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; pos < head.size() && lines.size() < limit;) {
        const std::size_t end = head.find('\n', pos);
        if (end == std::string_view::npos)
            break;  // the head may cut the last line
        std::string_view line = head.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        pos = end + 1;
    }
    return lines;
}

bool hasLineNumberGutter(std::string_view head)
{
    std::size_t lines = 0;
    std::size_t counted = 0;
    std::uint64_t previous = 0;
    bool havePrevious = false;
    bool fromOne = true;  // every line so far numbered 1, 2, 3 ... with a tab or a bar
    for (const std::string_view line : headLines(head, GutterLines)) {
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;  // blank lines of a copy carry no number
        ++lines;
        const Gutter g = gutterOf(line);
        fromOne = fromOne && g.length > 0 && g.marked && g.number == (havePrevious ? previous + 1 : 1);
        if (g.length == 0)
            continue;
        counted += havePrevious && g.number == previous + 1 ? 1 : 0;
        previous = g.number;
        havePrevious = true;
    }
    // The first numbered line has no line before it to count up from.
    return (counted >= 4 && (counted + 1) * 10 >= lines * 9) || (lines > 0 && lines < 5 && fromOne);
}

std::string withoutGutters(std::string_view head)
{
    std::string out;
    out.reserve(head.size());
    std::size_t pos = 0;
    while (pos < head.size()) {
        std::size_t end = head.find('\n', pos);
        const bool whole = end != std::string_view::npos;
        if (!whole)
            end = head.size();
        std::string_view line = head.substr(pos, end - pos);
        line.remove_prefix(gutterOf(line).length);
        out.append(line);
        if (whole)
            out.push_back('\n');
        pos = end + 1;
    }
    return out;
}

}  // namespace attrib::importers::detail
