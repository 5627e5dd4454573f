// SPDX-License-Identifier: GPL-3.0-or-later
// Markdown marks in pasted log text (CommonMark's left- and right-flanking delimiter runs, simplified to `**`) and
// the typography an editor or a web page puts in place of the characters a program wrote.
#include "importers/pasted_text.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <span>

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

/// One retyped character or entity and the text a program would have written.
struct Retyped {
    std::string_view from;
    std::string_view to;
};

// UTF-8 forms (Unicode 15 code charts: General Punctuation U+2000-U+206F, Latin-1 Supplement, CJK Symbols).
constexpr std::array<Retyped, 30> Characters{{
    {"\xc2\xa0", " "},  // U+00A0 no-break space
    {"\xe2\x80\x80", " "},   {"\xe2\x80\x81", " "},  {"\xe2\x80\x82", " "},  {"\xe2\x80\x83", " "},
    {"\xe2\x80\x84", " "},   {"\xe2\x80\x85", " "},  {"\xe2\x80\x86", " "},  {"\xe2\x80\x87", " "},
    {"\xe2\x80\x88", " "},   {"\xe2\x80\x89", " "},  {"\xe2\x80\x8a", " "},   // U+2000-U+200A spaces
    {"\xe2\x80\xaf", " "},                                                    // U+202F narrow no-break space
    {"\xe3\x80\x80", " "},                                                    // U+3000 ideographic space
    {"\xe2\x80\x8b", ""},    {"\xe2\x80\x8c", ""},   {"\xe2\x80\x8d", ""},    // U+200B-U+200D zero width
    {"\xe2\x81\xa0", ""},                                                     // U+2060 word joiner
    {"\xef\xbb\xbf", ""},                                                     // U+FEFF byte-order mark
    {"\xe2\x80\x98", "'"},   {"\xe2\x80\x99", "'"},  {"\xe2\x80\xb2", "'"},   // curly single quotes, prime
    {"\xe2\x80\x9c", "\""},  {"\xe2\x80\x9d", "\""}, {"\xe2\x80\xb3", "\""},  // curly double quotes, double prime
    {"\xe2\x80\x90", "-"},   {"\xe2\x80\x91", "-"},  {"\xe2\x80\x93", "-"},   // hyphen, non-breaking hyphen, en dash
    {"\xe2\x88\x92", "-"},                                                    // U+2212 minus sign
    {"\xe2\x80\xa6", "..."},                                                  // U+2026 ellipsis
}};

constexpr std::array<Retyped, 10> Entities{{
    {"&quot;", "\""},
    {"&#34;", "\""},
    {"&#39;", "'"},
    {"&#x27;", "'"},
    {"&apos;", "'"},
    {"&lt;", "<"},
    {"&gt;", ">"},
    {"&amp;", "&"},
    {"&nbsp;", " "},
    {"&#x22;", "\""},
}};

/// The retyped form starting at `line[i]`, or nullptr.
const Retyped* retypedAt(std::string_view line, std::size_t i)
{
    const std::string_view rest = line.substr(i);
    const std::span<const Retyped> table =
        line[i] == '&' ? std::span<const Retyped>(Entities) : std::span<const Retyped>(Characters);
    for (const Retyped& r : table)
        if (rest.substr(0, r.from.size()) == r.from)
            return &r;
    return nullptr;
}

bool mayStartRetyped(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return c == '&' || u == 0xc2 || u == 0xe2 || u == 0xe3 || u == 0xef;
}

/// How many leading bytes hold neither `&` nor a byte of a multi-byte character, eight bytes at a time (most log
/// lines are ASCII without `&`: the whole line).
std::size_t plainPrefix(std::string_view line)
{
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (; i + 8 <= line.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, line.data() + i, 8);
        const std::uint64_t amp = word ^ (ones * '&');  // a zero byte where the line has `&`
        if ((word & highs) != 0 || ((amp - ones) & ~amp & highs) != 0)
            break;
    }
    return i;
}

}  // namespace

std::string_view plainTypography(std::string_view line, std::string& buffer)
{
    std::size_t i = plainPrefix(line);
    while (i < line.size() && !(mayStartRetyped(line[i]) && retypedAt(line, i)))
        ++i;
    if (i == line.size())
        return line;
    buffer.assign(line.substr(0, i));
    while (i < line.size()) {
        const Retyped* r = mayStartRetyped(line[i]) ? retypedAt(line, i) : nullptr;
        if (r == nullptr) {
            buffer += line[i++];
            continue;
        }
        buffer.append(r->to);
        i += r->from.size();
    }
    return buffer;
}

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
