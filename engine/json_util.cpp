// SPDX-License-Identifier: GPL-3.0-or-later
// Line lookup, hashing and ISO time formatting for the engine.
#include "engine/json_util.h"

#include "engine/stamp_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace attrib::engine {

const nlohmann::json& objectAt(const nlohmann::json& j, const char* key)
{
    static const nlohmann::json empty = nlohmann::json::object();
    if (!j.is_object())
        return empty;
    auto it = j.find(key);
    return it != j.end() && it->is_object() ? *it : empty;
}

std::vector<std::string> stringList(const nlohmann::json& v)
{
    std::vector<std::string> out;
    if (v.is_string())
        out.push_back(v.get<std::string>());
    else if (v.is_array())
        for (const auto& item : v)
            if (item.is_string())
                out.push_back(item.get<std::string>());
    return out;
}

std::vector<std::string> stringsAt(const nlohmann::json& obj, const char* key)
{
    if (!obj.is_object())
        return {};
    auto it = obj.find(key);
    return it == obj.end() ? std::vector<std::string>() : stringList(*it);
}

SourceText::SourceText(std::string text)
    : m_text(std::move(text))
{
    m_lineStarts.push_back(0);
    for (std::size_t i = 0; i < m_text.size(); ++i)
        if (m_text[i] == '\n')
            m_lineStarts.push_back(i + 1);
}

int SourceText::lineAtOffset(std::size_t offset) const
{
    auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    return static_cast<int>(it - m_lineStarts.begin());
}

std::size_t SourceText::offsetOf(std::string_view needle, std::size_t from) const
{
    if (from == std::string::npos)
        from = 0;
    return m_text.find(needle, from);
}

int SourceText::lineOf(std::string_view needle, std::size_t from) const
{
    const auto pos = offsetOf(needle, from);
    return pos == std::string::npos ? 0 : lineAtOffset(pos);
}

std::string jsonEscapedPrefix(std::string_view s, std::size_t length)
{
    std::string dumped =
        nlohmann::json(std::string(s.substr(0, length))).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // drop the quotes, and a possibly split escape at the end
    dumped = dumped.substr(1, dumped.size() - 2);
    return dumped.substr(0, std::min<std::size_t>(dumped.size(), length));
}

std::uint64_t fnv1a(std::string_view data, std::uint64_t seed)
{
    std::uint64_t h = seed;
    for (unsigned char c : data) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

std::string formatTime(TimeNs time, TimeSource source)
{
    if (time == NoTime)
        return {};
    char buf[64];
    if (source == TimeSource::BootRelative) {
        std::snprintf(buf, sizeof buf, "+%lld.%06llds since boot", static_cast<long long>(time / NsPerSec),
                      static_cast<long long>((time % NsPerSec) / 1000));
        return buf;
    }
    const CivilTime c = civilTime(time);
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", c.year, c.month, c.day, c.hour, c.minute,
                  c.second, c.nanos / 1000);
    return buf;
}

TimeNs parseIsoTime(std::string_view s)
{
    const auto stamp = parseIsoStamp(s);
    return stamp ? stamp->time : NoTime;
}

}  // namespace attrib::engine
