// SPDX-License-Identifier: GPL-3.0-or-later
// AttrMap: an event's or symptom's decoded fields, as one sorted vector of pairs.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// After the standard headers: moc (AUTOMOC of the Service's headers) cannot parse <compare> read first.
#include "engine/name.h"

namespace attrib::engine {

/// String fields sorted by key, iterated in key order like the std::map it replaces (so every output that walks
/// it stays the same), but held in one vector: an event's three to eight fields cost one allocation instead of
/// one tree node each, the largest share of an event's memory on a large bundle. Keys are interned (a catalog's
/// capture and field names, a few hundred): 40 bytes a field instead of 64. Lookups take a string_view.
class AttrMap {
public:
    using value_type = std::pair<Name, std::string>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    AttrMap() = default;
    AttrMap(std::initializer_list<value_type> items);
    explicit AttrMap(const std::map<std::string, std::string>& items);

    iterator begin() { return m_items.begin(); }
    iterator end() { return m_items.end(); }
    const_iterator begin() const { return m_items.begin(); }
    const_iterator end() const { return m_items.end(); }
    std::size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    void clear() { m_items.clear(); }
    void reserve(std::size_t n) { m_items.reserve(n); }

    iterator find(std::string_view key);
    const_iterator find(std::string_view key) const;
    std::size_t count(std::string_view key) const { return find(key) == end() ? 0 : 1; }
    /// The value of `key`; throws std::out_of_range when it is absent (as std::map::at does).
    const std::string& at(std::string_view key) const;
    /// The value of `key`, inserted empty when absent.
    std::string& operator[](std::string_view key);
    /// Inserts `key` = `value` unless `key` is present; the bool says whether it was inserted.
    std::pair<iterator, bool> emplace(std::string_view key, std::string value);

    std::map<std::string, std::string> toMap() const;
    bool operator==(const AttrMap& other) const = default;

private:
    iterator lowerBound(std::string_view key);

    std::vector<value_type> m_items;
};

}  // namespace attrib::engine
