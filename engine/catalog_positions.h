// SPDX-License-Identifier: GPL-3.0-or-later
// Where each value of a rule file starts, by JSON pointer ("/rules/3/cases/1/line"), found by one scan of the
// text the parser accepted, so catalog diagnostics name the line of the value itself rather than the first
// occurrence of some quoted text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace attrib::engine {

class JsonPositions {
public:
    JsonPositions() = default;
    /// Scans `text` (valid JSON: call after the parser accepted it).
    explicit JsonPositions(std::string_view text);
    /// Byte offset where the value at `pointer` starts; npos when there is none.
    std::size_t offset(const std::string& pointer) const;

    /// "/a/b" + "/" + key, with the key escaped as RFC 6901 says.
    static std::string child(const std::string& pointer, std::string_view key);
    static std::string child(const std::string& pointer, std::size_t index);

private:
    std::unordered_map<std::string, std::size_t> m_offsets;
};

}  // namespace attrib::engine
