// SPDX-License-Identifier: GPL-3.0-or-later
// JSON value spans by scanning (strings with escapes, nested brackets counted, never recursive).
#include "importers/json_spans.h"

#include <algorithm>

namespace attrib::importers::detail {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpaces(std::string_view t, std::size_t i)
{
    while (i < t.size() && isSpace(t[i]))
        ++i;
    return i;
}

/// End of the string starting at `i` (the opening quote); t.size() when unterminated.
std::size_t skipString(std::string_view t, std::size_t i)
{
    for (++i; i < t.size(); ++i) {
        if (t[i] == '\\')
            ++i;
        else if (t[i] == '"')
            return i + 1;
    }
    return t.size();
}

/// End of the value starting at `i`; t.size() when it runs off the end.
std::size_t skipValue(std::string_view t, std::size_t i)
{
    if (i >= t.size())
        return t.size();
    if (t[i] == '"')
        return skipString(t, i);
    if (t[i] != '{' && t[i] != '[') {
        while (i < t.size() && !isSpace(t[i]) && t[i] != ',' && t[i] != '}' && t[i] != ']')
            ++i;
        return i;
    }
    std::size_t depth = 0;
    while (i < t.size()) {
        const char c = t[i];
        if (c == '"') {
            i = skipString(t, i);
            continue;
        }
        if (c == '{' || c == '[')
            ++depth;
        else if ((c == '}' || c == ']') && --depth == 0)
            return i + 1;
        ++i;
    }
    return t.size();
}

}  // namespace

std::vector<JsonSpan> topLevelValues(std::string_view text)
{
    std::vector<JsonSpan> out;
    std::size_t i = skipSpaces(text, 0);
    while (i < text.size()) {
        const std::size_t end = skipValue(text, i);
        if (end <= i)
            break;
        out.push_back({i, end});
        i = skipSpaces(text, end);
        if (i < text.size() && text[i] == ',')
            i = skipSpaces(text, i + 1);
    }
    return out;
}

std::optional<JsonSpan> memberValue(std::string_view text, JsonSpan object, std::string_view key)
{
    const std::string_view t = text.substr(0, object.end);
    if (object.begin >= t.size() || t[object.begin] != '{')
        return std::nullopt;
    std::size_t i = skipSpaces(t, object.begin + 1);
    while (i < t.size() && t[i] == '"') {
        const std::size_t keyEnd = skipString(t, i);
        const std::string_view name = t.substr(i + 1, keyEnd > i + 1 ? keyEnd - i - 2 : 0);
        i = skipSpaces(t, keyEnd);
        if (i >= t.size() || t[i] != ':')
            return std::nullopt;
        i = skipSpaces(t, i + 1);
        const std::size_t valueEnd = skipValue(t, i);
        if (name == key)
            return JsonSpan{i, valueEnd};
        i = skipSpaces(t, valueEnd);
        if (i < t.size() && t[i] == ',')
            i = skipSpaces(t, i + 1);
        else
            break;
    }
    return std::nullopt;
}

std::vector<JsonSpan> arrayElements(std::string_view text, JsonSpan array)
{
    std::vector<JsonSpan> out;
    const std::string_view t = text.substr(0, array.end);
    if (array.begin >= t.size() || t[array.begin] != '[')
        return out;
    std::size_t i = skipSpaces(t, array.begin + 1);
    while (i < t.size() && t[i] != ']') {
        const std::size_t end = skipValue(t, i);
        if (end <= i)
            break;
        out.push_back({i, end});
        i = skipSpaces(t, end);
        if (i < t.size() && t[i] == ',')
            i = skipSpaces(t, i + 1);
    }
    return out;
}

std::string jsonString(const nlohmann::json& j, std::string_view key)
{
    if (!j.is_object())
        return {};
    const auto it = j.find(key);
    if (it == j.end())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number() || it->is_boolean())
        return it->dump();
    return {};
}

const nlohmann::json& jsonMember(const nlohmann::json& j, std::string_view key)
{
    static const nlohmann::json null;
    if (!j.is_object())
        return null;
    const auto it = j.find(key);
    return it == j.end() ? null : *it;
}

long long jsonInt(const nlohmann::json& j, long long fallback)
{
    if (j.is_number_integer())
        return j.get<long long>();
    if (j.is_number_float()) {
        const double d = j.get<double>();
        return d > -9e18 && d < 9e18 ? static_cast<long long>(d) : fallback;
    }
    if (j.is_object() && jsonMember(j, "set").is_boolean() && jsonMember(j, "set").get<bool>())
        return jsonInt(jsonMember(j, "number"), fallback);
    return fallback;
}

LineIndex::LineIndex(std::string_view text)
{
    m_starts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n')
            m_starts.push_back(i + 1);
}

std::uint64_t LineIndex::lineOf(std::size_t offset) const
{
    const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
    return static_cast<std::uint64_t>(it - m_starts.begin());
}

}  // namespace attrib::importers::detail
