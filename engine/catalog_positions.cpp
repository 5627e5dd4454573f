// SPDX-License-Identifier: GPL-3.0-or-later
// An iterative (no recursion: depth is unbounded) scan of a JSON text recording where each value starts.
#include "engine/catalog_positions.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace attrib::engine {

namespace {

struct Frame {
    bool object = false;
    std::string pointer;
    std::size_t index = 0;
    std::string key;
};

std::size_t skipSpace(std::string_view t, std::size_t pos)
{
    while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t' || t[pos] == '\n' || t[pos] == '\r'))
        ++pos;
    return pos;
}

/// One past the closing quote of the string starting at `pos`.
std::size_t skipString(std::string_view t, std::size_t pos)
{
    for (++pos; pos < t.size(); ++pos) {
        if (t[pos] == '\\')
            ++pos;
        else if (t[pos] == '"')
            return pos + 1;
    }
    return t.size();
}

std::size_t skipScalar(std::string_view t, std::size_t pos)
{
    while (pos < t.size() && t[pos] != ',' && t[pos] != ']' && t[pos] != '}' && t[pos] != ' ' && t[pos] != '\n' &&
           t[pos] != '\r' && t[pos] != '\t')
        ++pos;
    return pos;
}

std::string decodeKey(std::string_view quoted)
{
    const auto j = nlohmann::json::parse(quoted, nullptr, false);
    return j.is_string() ? j.get<std::string>() : std::string(quoted);
}

}  // namespace

std::string JsonPositions::child(const std::string& pointer, std::string_view key)
{
    std::string out = pointer + "/";
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string JsonPositions::child(const std::string& pointer, std::size_t index)
{
    return pointer + "/" + std::to_string(index);
}

JsonPositions::JsonPositions(std::string_view t)
{
    std::vector<Frame> stack;
    std::size_t pos = skipSpace(t, 0);
    bool expectValue = true;
    while (pos < t.size()) {
        if (expectValue) {
            const std::string here = stack.empty() ? std::string()
                : stack.back().object              ? child(stack.back().pointer, stack.back().key)
                                                   : child(stack.back().pointer, stack.back().index);
            m_offsets.emplace(here, pos);
            const char c = t[pos];
            if (c == '{' || c == '[') {
                stack.push_back({c == '{', here, 0, {}});
                pos = skipSpace(t, pos + 1);
                if (pos < t.size() && (t[pos] == '}' || t[pos] == ']')) {
                    stack.pop_back();
                    ++pos;
                    expectValue = false;
                } else if (c == '{') {
                    const std::size_t end = skipString(t, pos);
                    stack.back().key = decodeKey(t.substr(pos, end - pos));
                    pos = skipSpace(t, skipSpace(t, end) + 1);  // past ':'
                }
                continue;
            }
            pos = c == '"' ? skipString(t, pos) : skipScalar(t, pos);
            expectValue = false;
            continue;
        }
        pos = skipSpace(t, pos);
        if (pos >= t.size() || stack.empty())
            break;
        const char c = t[pos++];
        if (c == '}' || c == ']') {
            stack.pop_back();
            continue;
        }
        // ','
        pos = skipSpace(t, pos);
        Frame& f = stack.back();
        if (f.object) {
            const std::size_t end = skipString(t, pos);
            f.key = decodeKey(t.substr(pos, end - pos));
            pos = skipSpace(t, skipSpace(t, end) + 1);
        } else {
            ++f.index;
        }
        expectValue = true;
    }
}

std::size_t JsonPositions::offset(const std::string& pointer) const
{
    const auto it = m_offsets.find(pointer);
    return it == m_offsets.end() ? std::string::npos : it->second;
}

}  // namespace attrib::engine
