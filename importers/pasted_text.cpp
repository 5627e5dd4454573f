// SPDX-License-Identifier: GPL-3.0-or-later
// Markdown marks in pasted log text (CommonMark's left- and right-flanking delimiter runs, simplified to `**`).
#include "importers/pasted_text.h"

#include <string_view>

namespace attrib::importers::detail {

namespace {

bool opensAt(std::string_view s, std::size_t i)
{
    const bool before = i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '(' || s[i - 1] == '[' ||
        s[i - 1] == '"' || s[i - 1] == '\'' || s[i - 1] == '>';
    return before && i + 2 < s.size() && s[i + 2] != ' ' && s[i + 2] != '*';
}

bool closesAt(std::string_view s, std::size_t i)
{
    if (i == 0 || s[i - 1] == ' ' || s[i - 1] == '*')
        return false;
    if (i + 2 == s.size())
        return true;
    const char after = s[i + 2];
    return after == ' ' || after == '\t' || after == ':' || after == '.' || after == ',' || after == ';' ||
        after == ')' || after == ']' || after == '"' || after == '\'';
}

}  // namespace

void stripMarkdownStrong(std::string& text)
{
    std::size_t open = text.find("**");
    while (open != std::string::npos) {
        if (!opensAt(text, open)) {
            open = text.find("**", open + 1);
            continue;
        }
        std::size_t close = text.find("**", open + 2);
        while (close != std::string::npos && !closesAt(text, close))
            close = text.find("**", close + 1);
        if (close == std::string::npos)
            return;
        text.erase(close, 2);
        text.erase(open, 2);
        open = text.find("**", close - 2);
    }
}

}  // namespace attrib::importers::detail
