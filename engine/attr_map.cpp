// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attr_map.h"

#include <algorithm>
#include <stdexcept>

namespace attrib::engine {

namespace {

bool keyBefore(const AttrMap::value_type& item, std::string_view key)
{
    return std::string_view(item.first) < key;
}

}  // namespace

AttrMap::AttrMap(std::initializer_list<value_type> items)
{
    for (const auto& item : items)
        emplace(item.first, item.second);
}

AttrMap::AttrMap(const std::map<std::string, std::string>& items)
    : m_items(items.begin(), items.end())
{
}

AttrMap::iterator AttrMap::lowerBound(std::string_view key)
{
    return std::lower_bound(m_items.begin(), m_items.end(), key, keyBefore);
}

AttrMap::iterator AttrMap::find(std::string_view key)
{
    const auto it = lowerBound(key);
    return it != m_items.end() && it->first == key ? it : m_items.end();
}

AttrMap::const_iterator AttrMap::find(std::string_view key) const
{
    const auto it = std::lower_bound(m_items.begin(), m_items.end(), key, keyBefore);
    return it != m_items.end() && it->first == key ? it : m_items.end();
}

const std::string& AttrMap::at(std::string_view key) const
{
    const auto it = find(key);
    if (it == m_items.end())
        throw std::out_of_range("no attribute '" + std::string(key) + "'");
    return it->second;
}

std::string& AttrMap::operator[](std::string_view key)
{
    auto it = lowerBound(key);
    if (it == m_items.end() || it->first != key)
        it = m_items.insert(it, {Name(key), std::string()});
    return it->second;
}

std::pair<AttrMap::iterator, bool> AttrMap::emplace(std::string_view key, std::string value)
{
    auto it = lowerBound(key);
    if (it != m_items.end() && it->first == key)
        return {it, false};
    return {m_items.insert(it, {Name(key), std::move(value)}), true};
}

std::map<std::string, std::string> AttrMap::toMap() const
{
    return {m_items.begin(), m_items.end()};
}

}  // namespace attrib::engine
