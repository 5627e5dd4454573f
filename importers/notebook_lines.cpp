// SPDX-License-Identifier: GPL-3.0-or-later
// Jupyter notebooks read as the lines their outputs hold (notebook_lines.h).
#include "importers/notebook_lines.h"

#include "importers/multiline.h"
#include "importers/utf16_text.h"

namespace attrib::importers::detail {

namespace {

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// The string a JSON string's inside (`body`, without its quotes) holds; a printed line's own `\n` at its end goes, one
/// inside it stays escaped (the reader splits such a line into its lines, splitEscapedLines).
void unescape(std::string_view body, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || i + 1 >= body.size()) {
            out += body[i];
            continue;
        }
        const char c = body[++i];
        switch (c) {
        case 'n': out += i + 1 == body.size() ? "" : "\\n"; break;  // a line break inside stays escaped: split later
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b':
        case 'f': break;
        case 'u': {
            unsigned cp = 0;
            bool ok = i + 4 < body.size();
            for (std::size_t k = 1; ok && k <= 4; ++k) {
                const int d = hexDigit(body[i + k]);
                ok = d >= 0;
                cp = cp * 16 + static_cast<unsigned>(d);
            }
            if (!ok) {
                out += "\\u";
                break;
            }
            appendUtf8(out, cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : char32_t(cp));
            i += 4;
            break;
        }
        default: out += c;  // `\"`, `\\`, `\/`
        }
    }
}

}  // namespace

bool isNotebook(std::string_view head, std::string_view path)
{
    if (path.ends_with(".ipynb"))
        return true;
    const std::size_t brace = head.find_first_not_of(" \t\r\n");
    if (brace == std::string_view::npos || head[brace] != '{')
        return false;
    const std::size_t key = head.find_first_not_of(" \t\r\n", brace + 1);
    return key != std::string_view::npos && head.substr(key).starts_with("\"cells\"") &&
        head.find("\"cell_type\"") != std::string_view::npos;
}

std::string_view NotebookLines::text(std::string_view line, std::string& buffer)
{
    const std::string_view s = trimRight(trimLeft(line));
    // `"text": [`, `"traceback": [`, `"text/plain": [` open an output's lines; any other list (`"source": [`,
    // `"outputs": [`) or its end closes them.
    if (s.ends_with("[") && s.starts_with("\"")) {
        m_output = s.starts_with("\"text\":") || s.starts_with("\"traceback\":") || s.starts_with("\"text/plain\":");
        return {};
    }
    if (!m_output || !s.starts_with("\"")) {
        if (s.starts_with("]"))
            m_output = false;
        return {};
    }
    std::string_view body = s.substr(1);
    if (body.ends_with(","))
        body.remove_suffix(1);
    if (!body.ends_with("\""))
        return {};
    body.remove_suffix(1);
    unescape(body, buffer);
    return buffer;
}

}  // namespace attrib::importers::detail
