// SPDX-License-Identifier: GPL-3.0-or-later
// One name table per internal enum: the name is written (JSON, trace, progress text) and read back (stores,
// rule data) through the same table, so a vocabulary is spelled in exactly one place.
#pragma once

#include <optional>
#include <string_view>

namespace attrib::engine {

template <typename E> struct EnumName {
    E value;
    const char* name;
};

/// The name of `value` in `table` ("" when the table lacks it, which a test of each table rules out).
template <typename E, std::size_t N> constexpr const char* nameIn(const EnumName<E> (&table)[N], E value)
{
    for (const auto& entry : table)
        if (entry.value == value)
            return entry.name;
    return "";
}

/// The value named `name` in `table`; std::nullopt for a name the table does not know.
template <typename E, std::size_t N>
constexpr std::optional<E> valueIn(const EnumName<E> (&table)[N], std::string_view name)
{
    for (const auto& entry : table)
        if (name == entry.name)
            return entry.value;
    return std::nullopt;
}

}  // namespace attrib::engine
