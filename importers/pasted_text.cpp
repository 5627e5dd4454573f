// SPDX-License-Identifier: GPL-3.0-or-later
// Markdown marks in pasted log text (CommonMark's left- and right-flanking delimiter runs, simplified to `**`) and
// the typography an editor or a web page puts in place of the characters a program wrote.
#include "importers/pasted_text.h"

#include <algorithm>
#include <array>
#include <cctype>
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

void stripMarkdownAutolinks(std::string& text)
{
    std::size_t middle = text.find("](http");
    while (middle != std::string::npos) {
        const std::size_t open = text.rfind('[', middle);
        const std::size_t close = text.find(')', middle);
        if (open == std::string::npos || close == std::string::npos) {
            middle = text.find("](http", middle + 2);
            continue;
        }
        const std::string_view name = std::string_view(text).substr(open + 1, middle - open - 1);
        std::string_view address = std::string_view(text).substr(middle + 2, close - middle - 2);
        for (const std::string_view scheme : {std::string_view("https://"), std::string_view("http://")})
            if (address.starts_with(scheme)) {
                address.remove_prefix(scheme.size());
                break;
            }
        if (address.ends_with('/'))
            address.remove_suffix(1);
        if (name.empty() || name != address || name.find(' ') != std::string_view::npos) {
            middle = text.find("](http", middle + 2);
            continue;
        }
        const std::string kept(name);
        text.replace(open, close + 1 - open, kept);
        middle = text.find("](http", open + kept.size());
    }
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

namespace {

/// Length of the escaped line break at `i`: one or two backslashes and `n`, optionally after the same escape of
/// `r` (`\\r\\n`); 0 when there is none.
std::size_t escapedBreakAt(std::string_view line, std::size_t i)
{
    const std::size_t slashes = line.substr(i, 3).find_first_not_of('\\');
    if (slashes == 0 || slashes > 2 || i + slashes >= line.size())
        return 0;
    if (line[i + slashes] == 'n')
        return slashes + 1;
    const std::string_view escape = line.substr(i, slashes);
    const std::size_t next = i + slashes + 1;
    const bool crlf = line[i + slashes] == 'r' && line.substr(next, slashes) == escape &&
        next + slashes < line.size() && line[next + slashes] == 'n';
    return crlf ? 2 * slashes + 2 : 0;
}

/// `piece` without its escapes: an escaped quote or tab as the character, a doubled backslash as one.
void unescapeInto(std::string_view piece, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < piece.size(); ++i) {
        if (piece[i] != '\\') {
            out.push_back(piece[i]);
            continue;
        }
        std::size_t run = 1;
        while (i + run < piece.size() && piece[i + run] == '\\')
            ++run;
        const char next = i + run < piece.size() ? piece[i + run] : '\0';
        if (next == '"' || next == '\'')
            out.push_back(next);
        else if (next == 't')
            out.push_back('\t');
        else {
            out.append((run + 1) / 2, '\\');
            i += run - 1;
            continue;
        }
        i += run;
    }
}

/// Whether a piece reads as text: something after its indentation, with a space inside.
bool readsAsText(std::string_view piece)
{
    const std::size_t first = piece.find_first_not_of(" \t");
    return first != std::string_view::npos && piece.find(' ', first) != std::string_view::npos;
}

}  // namespace

bool splitEscapedLines(std::string_view line, std::vector<std::string>& pieces)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = line.find('\\'); i != std::string_view::npos; i = line.find('\\', i)) {
        if (const std::size_t length = escapedBreakAt(line, i); length > 0) {
            parts.push_back(line.substr(start, i - start));
            start = i + length;
            i = start;
        } else
            i = line.find_first_not_of('\\', i);
        if (i == std::string_view::npos)
            break;
    }
    if (parts.size() < 2)
        return false;
    parts.push_back(line.substr(start));
    // Lines read as text; a path's components between its `\n`s (`C:\\Users\\nick\\new`) do not.
    if (std::count_if(parts.begin(), parts.end(), readsAsText) < 2 ||
        std::none_of(parts.begin() + 1, parts.end() - 1, readsAsText))
        return false;
    std::string piece;
    for (const std::string_view part : parts) {
        unescapeInto(part, piece);
        pieces.push_back(piece);
    }
    return true;
}

namespace {

std::size_t digitsAt(std::string_view s, std::size_t i)
{
    std::size_t n = 0;
    while (i + n < s.size() && std::isdigit(static_cast<unsigned char>(s[i + n])))
        ++n;
    return n;
}

/// A chat header's bracketed stamp: `5/1/2024 10:42 AM`, `5/1/2024, 10:42 PM` (dated) or `10:42 AM`; false for
/// anything else.
bool chatStamp(std::string_view s, bool& dated)
{
    std::size_t i = 0;
    dated = s.find('/') != std::string_view::npos;
    if (dated) {
        for (int part = 0; part < 3; ++part) {
            const std::size_t n = digitsAt(s, i);
            if (n == 0 || n > 4 || (part < 2 && (n > 2 || i + n >= s.size() || s[i + n] != '/')))
                return false;
            i += n + (part < 2 ? 1 : 0);
        }
        i += i < s.size() && s[i] == ',' ? 1 : 0;
        if (i >= s.size() || s[i] != ' ')
            return false;
        ++i;
    }
    const std::size_t hours = digitsAt(s, i);
    if (hours == 0 || hours > 2 || i + hours >= s.size() || s[i + hours] != ':' || digitsAt(s, i + hours + 1) != 2)
        return false;
    const std::string_view rest = s.substr(i + hours + 3);
    return rest == " AM" || rest == " PM";
}

/// A sender's name as Teams shows it: one to four words of letters (an apostrophe or a hyphen inside), none of them
/// an exception's name.
bool personName(std::string_view s)
{
    if (s.empty() || s.size() > 40)
        return false;
    int words = 0;
    for (std::size_t start = 0; start < s.size();) {
        const std::size_t end = std::min(s.find(' ', start), s.size());
        const std::string_view word = s.substr(start, end - start);
        const bool letters = !word.empty() && std::isalpha(static_cast<unsigned char>(word[0])) &&
            std::all_of(word.begin(), word.end(),
                        [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '\'' || c == '-'; });
        if (!letters || ++words > 4)
            return false;
        for (const std::string_view tail : {"Error", "Exception", "Warning", "Exit", "Interrupt"})
            if (word.size() >= tail.size() && word.substr(word.size() - tail.size()) == tail)
                return false;
        start = end + 1;
    }
    return true;
}

}  // namespace

std::string_view stripChatHeader(std::string_view line)
{
    if (line.empty() || line[0] != '[')
        return line;
    const std::size_t close = line.find("] ");
    bool dated = false;
    if (close == std::string_view::npos || close > 32 || !chatStamp(line.substr(1, close - 1), dated))
        return line;
    std::string_view rest = line.substr(close + 2);
    if (const std::size_t colon = rest.find(": ");
        dated && colon != std::string_view::npos && personName(rest.substr(0, colon)))
        rest.remove_prefix(colon + 2);
    return rest;
}

std::string_view stripNativeCommandPrefix(std::string_view line)
{
    static constexpr std::array<std::string_view, 10> tools = {"python",    "python3", "py",   "torchrun", "accelerate",
                                                               "deepspeed", "pip",     "pip3", "conda",    "uv"};
    const std::size_t sep = line.find(" : ");
    if (sep == std::string_view::npos || sep == 0 || sep > 64)
        return line;
    const std::string_view command = line.substr(0, sep);
    if (!std::all_of(command.begin(), command.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
        }))
        return line;
    const bool exe = command.size() > 4 && command.substr(command.size() - 4) == ".exe";
    if (!exe && std::find(tools.begin(), tools.end(), command) == tools.end())
        return line;
    return line.substr(sep + 3);
}

}  // namespace attrib::importers::detail
