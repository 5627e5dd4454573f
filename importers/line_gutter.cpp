// SPDX-License-Identifier: GPL-3.0-or-later
// Columns before every line of a file: line numbers, Docker Compose's service column (line_gutter.h).
#include "importers/line_gutter.h"
#include "importers/format_prefix.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace attrib::importers::detail {

namespace {

constexpr std::size_t GutterLines = 200;  ///< lines of the head looked at
constexpr std::size_t MaxDigits = 7;
constexpr std::size_t MaxComposeName = 128;  ///< longer first words are no container name

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

std::size_t composeColumnOf(std::string_view line, std::size_t& bar)
{
    std::size_t pos = 0;
    while (pos < line.size() && pos <= MaxComposeName &&
           (std::isalnum(static_cast<unsigned char>(line[pos])) || line[pos] == '_' || line[pos] == '-' ||
            line[pos] == '.'))
        ++pos;
    if (pos == 0 || pos > MaxComposeName || pos >= line.size() || line[pos] != ' ')
        return 0;
    bar = pos;
    while (bar < line.size() && line[bar] == ' ')
        ++bar;
    if (bar >= line.size() || line[bar] != '|')
        return 0;
    if (bar + 1 == line.size())
        return bar + 1;  // an empty line of the container's output
    return line[bar + 1] == ' ' ? bar + 2 : 0;
}

std::size_t sternColumnOf(std::string_view line)
{
    const auto label = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; };
    std::size_t pod = 0;
    bool hyphen = false;
    while (pod < line.size() && pod <= MaxComposeName && (label(line[pod]) || line[pod] == '.')) {
        hyphen = hyphen || line[pod] == '-';
        ++pod;
    }
    if (pod == 0 || !hyphen || pod > MaxComposeName || pod >= line.size() || line[pod] != ' ' || line[0] == '-' ||
        line[pod - 1] == '-')
        return 0;
    std::size_t end = pod + 1;
    while (end < line.size() && end - pod <= 64 && label(line[end]))
        ++end;
    if (end == pod + 1 || end - pod > 64 || end >= line.size() || line[end] != ' ' || line[pod + 1] == '-' ||
        line[end - 1] == '-')
        return 0;
    return end + 1;
}

namespace {

/// A line the poster put among the tool's lines: where they cut lines out (`...`, `[...]`, `<snip>`), a Markdown
/// fence or heading, a `<details>` wrapper, a shell prompt (`$ docker compose logs`): no line of the tool, so no line a
/// column check counts. A UTF-8 byte-order mark before a file's first line is not part of it either.
bool isPosterLine(std::string_view& line)
{
    if (line.substr(0, 3) == "\xEF\xBB\xBF")
        line.remove_prefix(3);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return true;
    const std::string_view trimmed = line.substr(first, line.find_last_not_of(" \t") + 1 - first);
    for (const std::string_view snip : {"...", "\xE2\x80\xA6", "[...]", "[\xE2\x80\xA6]", "(...)", "<...>", "<snip>",
                                        "[snip]", "...snip...", "[ ... ]"})
        if (trimmed == snip)
            return true;
    for (const std::string_view scaffold :
         {"```", "~~~", "# ", "## ", "### ", "#### ", "$ ", "<details", "</details", "<summary", "</summary"})
        if (trimmed.substr(0, scaffold.size()) == scaffold)
            return true;
    return false;
}

bool hasSternColumn(std::string_view head)
{
    std::size_t lines = 0;
    std::size_t column = 0;
    std::set<std::string_view> pairs;
    for (std::string_view line : headLines(head, GutterLines)) {
        if (isPosterLine(line))
            continue;
        ++lines;
        if (const std::size_t length = sternColumnOf(line); length > 0) {
            ++column;
            pairs.insert(line.substr(0, length));
        }
    }
    // A pod's few containers (a stern of several pods names each); prose never opens nine lines in ten with the same
    // two lower-case words. A short excerpt counts when its every line names one replica's pod (`...-worker-0`) and
    // goes on like a log line.
    if (column >= 4 && column * 10 >= lines * 9 && pairs.size() * 2 <= column)
        return true;
    if (lines == 0 || lines >= 4 || column != lines || pairs.size() != 1)
        return false;
    const std::string_view pair = *pairs.begin();
    const std::string_view pod = pair.substr(0, pair.find(' '));
    const std::size_t dash = pod.find_last_of('-');
    if (dash + 1 >= pod.size() || pod.find_first_not_of("0123456789", dash + 1) != std::string_view::npos)
        return false;
    for (std::string_view line : headLines(head, GutterLines)) {
        if (isPosterLine(line))
            continue;
        const char c = line.size() > pair.size() ? line[pair.size()] : ' ';
        if (!std::isupper(static_cast<unsigned char>(c)) && c != '[' && c != '(')
            return false;
    }
    return true;
}

bool hasComposeColumn(std::string_view head)
{
    std::size_t lines = 0;
    std::size_t replicas = 0;                 // lines whose container name ends in its replica number (`trainer-1`)
    std::map<std::size_t, std::size_t> bars;  // bar column -> lines
    std::set<std::string_view> names;
    for (std::string_view line : headLines(head, GutterLines)) {
        if (isPosterLine(line))
            continue;
        ++lines;
        std::size_t bar = 0;
        if (composeColumnOf(line, bar) > 0) {
            ++bars[bar];
            names.insert(line.substr(0, line.find(' ')));
            std::string_view rest = line;
            replicas += stripComposeService(rest) ? 1 : 0;
        }
    }
    std::size_t column = 0;
    for (const auto& [at, count] : bars)
        column = std::max(column, count);
    // A project has a few services; a table names a different device or host on every row. A short excerpt counts
    // when every line carries a replica-numbered name (what Compose names a service's containers).
    return (column >= 4 && column * 10 >= lines * 9 && names.size() * 4 <= column) ||
        (lines > 0 && lines < 4 && column == lines && replicas == lines);
}

}  // namespace

LineColumn lineColumnOf(std::string_view head)
{
    if (hasLineNumberGutter(head))
        return LineColumn::Numbers;
    if (hasComposeColumn(head))
        return LineColumn::Compose;
    return hasSternColumn(head) ? LineColumn::Stern : LineColumn::None;
}

std::size_t columnLength(std::string_view line, LineColumn column)
{
    if (column != LineColumn::None && line.substr(0, 3) == "\xEF\xBB\xBF") {
        const std::size_t inner = columnLength(line.substr(3), column);
        return inner > 0 ? inner + 3 : 0;  // a file's byte-order mark goes with the column before its first line
    }
    std::size_t bar = 0;
    switch (column) {
    case LineColumn::Numbers: return gutterOf(line).length;
    case LineColumn::Compose: return composeColumnOf(line, bar);
    case LineColumn::Stern: return sternColumnOf(line);
    case LineColumn::None: break;
    }
    return 0;
}

std::string withoutColumn(std::string_view head, LineColumn column)
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
        line.remove_prefix(columnLength(line, column));
        out.append(line);
        if (whole)
            out.push_back('\n');
        pos = end + 1;
    }
    return out;
}

}  // namespace attrib::importers::detail
