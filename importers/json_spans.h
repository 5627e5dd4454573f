// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: byte ranges of JSON values without building a document (string-aware bracket matching, no
// recursion), so that each element of a large document can be parsed alone and point at its own bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers::detail {

struct JsonSpan {
    std::size_t begin = 0;
    std::size_t end = 0;  ///< one past the last byte
};

/// The top-level values of `text`: one document, or several (concatenated or one per line).
std::vector<JsonSpan> topLevelValues(std::string_view text);
/// The value of member `key` of the object at `object` (nullopt when absent or not an object).
std::optional<JsonSpan> memberValue(std::string_view text, JsonSpan object, std::string_view key);
/// The elements of the array at `array` (empty when it is not an array).
std::vector<JsonSpan> arrayElements(std::string_view text, JsonSpan array);

/// Never-throwing accessors for parsed elements.
std::string jsonString(const nlohmann::json& j, std::string_view key);
const nlohmann::json& jsonMember(const nlohmann::json& j, std::string_view key);
/// An integer that may be a number or Slurm's `{"set": true, "number": N}`; `fallback` otherwise.
long long jsonInt(const nlohmann::json& j, long long fallback);

/// 1-based line numbers of byte offsets in one text (offsets may come in any order).
class LineIndex {
public:
    explicit LineIndex(std::string_view text);
    std::uint64_t lineOf(std::size_t offset) const;

private:
    std::vector<std::size_t> m_starts;
};

}  // namespace attrib::importers::detail
