// SPDX-License-Identifier: GPL-3.0-or-later
// Neutralising untrusted strings for terminals, Markdown, HTML/SVG and JSON (policy in safe_text.h).
#include "engine/safe_text.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>

namespace attrib::engine {

namespace {

/// Length of the valid UTF-8 sequence at `s[i]` and its code point; 0 when the byte starts no valid sequence.
std::size_t decodeUtf8(std::string_view s, std::size_t i, char32_t& cp)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    std::size_t len = 0;
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    if (b0 >= 0xc2 && b0 <= 0xdf) {
        len = 2;
        cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
        len = 3;
        cp = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        len = 4;
        cp = b0 & 0x07;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (std::size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

bool isHiddenFormat(char32_t cp)
{
    return cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
        (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff;
}

void appendHex(std::string& out, const char* format, unsigned value)
{
    std::array<char, 16> buf{};
    const int n = std::snprintf(buf.data(), buf.size(), format, value);
    out.append(buf.data(), static_cast<std::size_t>(n));
}

void appendControl(std::string& out, unsigned char c)
{
    switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: appendHex(out, "\\x%02x", c);
    }
}

/// Rewrites `s` one UTF-8 sequence at a time: `valid(out, code point, its bytes)` for each valid sequence,
/// `invalid(out, byte)` for each byte that starts none.
template <typename Valid, typename Invalid> std::string transcode(std::string_view s, Valid valid, Invalid invalid)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t len = decodeUtf8(s, i, cp);
        if (len == 0) {
            invalid(out, static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        valid(out, cp, s.substr(i, len));
        i += len;
    }
    return out;
}

std::string neutralise(std::string_view s, bool keepLayout)
{
    const auto valid = [keepLayout](std::string& out, char32_t cp, std::string_view bytes) {
        if (cp < 0x20 || cp == 0x7f) {
            if (keepLayout && (cp == '\n' || cp == '\t'))
                out += static_cast<char>(cp);
            else
                appendControl(out, static_cast<unsigned char>(cp));
        } else if ((cp >= 0x80 && cp <= 0x9f) || isHiddenFormat(cp)) {
            appendHex(out, "\\u{%x}", static_cast<unsigned>(cp));
        } else {
            out.append(bytes);
        }
    };
    return transcode(s, valid, [](std::string& out, unsigned char byte) { appendHex(out, "\\x%02x", byte); });
}

/// terminalSafe(s) with each character passed through `escape(out, c)`.
template <typename Escape> std::string escapeSafe(std::string_view s, Escape escape)
{
    const std::string safe = terminalSafe(s);
    std::string out;
    out.reserve(safe.size() + 8);
    for (const char c : safe)
        escape(out, c);
    return out;
}

}  // namespace

std::string terminalSafe(std::string_view s)
{
    return neutralise(s, false);
}

std::string terminalSafeBlock(std::string_view s)
{
    return neutralise(s, true);
}

std::string markdownText(std::string_view s)
{
    return escapeSafe(s, [](std::string& out, char c) {
        if (std::string_view("\\`*_{}[]()<>#!|~&:").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    });
}

std::string markdownCode(std::string_view s)
{
    std::string safe = terminalSafe(s);
    std::size_t longest = 0;
    std::size_t run = 0;
    std::string body;
    body.reserve(safe.size());
    for (const char c : safe) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        if (c == '|')
            body += '\\';
        body += c;
    }
    const std::string fence(longest + 1, '`');
    return fence + " " + body + " " + fence;
}

std::string xmlText(std::string_view s)
{
    return escapeSafe(s, [](std::string& out, char c) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += c;
        }
    });
}

std::string jsonReplaceInvalid(std::string_view s)
{
    return transcode(
        s, [](std::string& out, char32_t, std::string_view bytes) { out.append(bytes); },
        [](std::string& out, unsigned char) { out += "\xef\xbf\xbd"; });
}

std::string_view stripTerminalCodes(std::string_view line, std::string& buffer)
{
    std::size_t at = line.find('\x1b');
    if (at == std::string_view::npos)
        return line;
    buffer.assign(line.substr(0, at));
    while (at < line.size()) {
        if (line[at] != '\x1b') {
            const std::size_t next = std::min(line.find('\x1b', at), line.size());
            buffer.append(line.substr(at, next - at));
            at = next;
            continue;
        }
        const char kind = at + 1 < line.size() ? line[at + 1] : '\0';
        at += 2;
        if (kind == '[') {  // CSI: parameter and intermediate bytes, then one final byte
            while (at < line.size() && line[at] >= 0x20 && line[at] <= 0x3f)
                ++at;
            if (at < line.size() && line[at] >= 0x40 && line[at] <= 0x7e)
                ++at;
        } else if (kind == ']') {  // OSC (a hyperlink, a window title): up to BEL or ESC '\'
            while (at < line.size() && line[at] != '\a' && line[at] != '\x1b')
                ++at;
            if (at < line.size())
                at += line[at] == '\a' ? 1 : 2;
        } else if (kind >= 0x20 && kind <= 0x2f) {  // a character-set designation: ESC ( B
            if (at < line.size())
                ++at;
        }
    }
    return buffer;
}

}  // namespace attrib::engine
