// SPDX-License-Identifier: GPL-3.0-or-later
// Small helpers for reading rule files: line lookup for diagnostics, hashing, time formatting.
#pragma once

#include "engine/model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

/// The object member `key` of `j`, or an empty object (safe to iterate: never a temporary).
const nlohmann::json& objectAt(const nlohmann::json& j, const char* key);

/// A string or an array of strings as a list (other values are ignored).
std::vector<std::string> stringList(const nlohmann::json& v);
/// stringList of the member `key` of `obj` (empty when absent).
std::vector<std::string> stringsAt(const nlohmann::json& obj, const char* key);

/// A file's text with a line index, so diagnostics can name lines.
class SourceText {
public:
    SourceText() = default;
    explicit SourceText(std::string text);
    const std::string& text() const { return m_text; }
    /// 1-based line of a byte offset.
    int lineAtOffset(std::size_t offset) const;
    /// Offset of the first occurrence of `needle` at or after `from` (npos when absent).
    std::size_t offsetOf(std::string_view needle, std::size_t from = 0) const;
    /// Line of the first occurrence at or after `from`; 0 when absent.
    int lineOf(std::string_view needle, std::size_t from = 0) const;

private:
    std::string m_text;
    std::vector<std::size_t> m_lineStarts;
};

/// The first characters of `s` as they would appear inside a JSON string literal.
std::string jsonEscapedPrefix(std::string_view s, std::size_t length = 40);

/// 64-bit FNV-1a, chainable.
std::uint64_t fnv1a(std::string_view data, std::uint64_t seed = 1469598103934665603ULL);

/// `2026-04-22T21:34:20.118251Z`; boot-relative times as `+2040.118251s since boot`; NoTime as "".
std::string formatTime(TimeNs time, TimeSource source = TimeSource::Absolute);

/// The ISO 8601 stamp at the start of `s` (engine::parseIsoStamp); NoTime when there is none.
TimeNs parseIsoTime(std::string_view s);

}  // namespace attrib::engine
