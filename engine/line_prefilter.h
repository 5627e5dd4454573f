// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps most lines away from the extractors' regular expressions: a literal-string prefilter.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

/// For each pattern, a few literal strings (its guards, lowercase) of which every text the pattern matches holds
/// one, case-insensitively; RE2's FilteredRE2 analysis finds them. A line is a candidate only for the patterns
/// whose guards it holds. Guards of five bytes or more are found by hashing four-byte windows at every other
/// position; guards of three or four bytes (`exit`, `+0x`) by hashing three-byte windows at every position; the
/// one- or two-byte punctuation a pattern without longer literals needs (`|`, `%|`) by a byte search. A pattern
/// without guards
/// (all classes and repeats, like a `ps` row) is "unguarded": a candidate for every line of the kinds it reads.
/// ASCII case folding is used: a guard's letters beyond ASCII are left out of it.
class LinePrefilter {
public:
    /// `patterns[i]` is pattern id i, in RE2 syntax; `kinds[i]` the kinds of line it reads, one bit per kind.
    LinePrefilter(const std::vector<std::string>& patterns, const std::vector<std::uint32_t>& kinds);

    /// Appends to `out` the ids of the guarded patterns of `kind` (a bit) whose guards occur in `text`, ascending
    /// and without repeats. Unguarded patterns are not included: see unguarded().
    void candidates(std::string_view text, std::uint32_t kind, std::vector<int>& out) const;

    /// Ids of the patterns without guards (ascending).
    const std::vector<int>& unguarded() const { return m_unguarded; }
    std::size_t guardCount() const { return m_guards.size() + m_short.size(); }

private:
    struct Window {
        std::uint32_t guard;   ///< index in m_guards
        std::uint32_t offset;  ///< where the window starts in the guard
    };
    struct ShortGuard {
        std::string text;      ///< lowercase
        std::size_t rare = 0;  ///< the byte searched for
        std::uint32_t kinds = 0;
        std::vector<int> patterns;
    };
    void addGuard(const std::string& guard, int pattern, std::uint32_t kinds);
    void index();
    bool holds(std::string_view text, const ShortGuard& guard) const;
    void probeShort(std::string_view text, std::size_t at, std::uint32_t kind, std::vector<int>& out) const;

    std::vector<std::string> m_guards;              ///< lowercase, five bytes or more
    std::vector<std::vector<int>> m_guardPatterns;  ///< guard -> patterns it guards
    std::vector<std::uint64_t> m_bloom;             ///< one bit per hash of a guard's window
    std::vector<std::uint32_t> m_bucketStart;       ///< hash -> range of m_bucketWindows
    std::vector<Window> m_bucketWindows;
    std::vector<ShortGuard> m_short;          ///< three or four bytes (by window) or one or two (by byte search)
    std::vector<std::uint64_t> m_shortBloom;  ///< one bit per hash of a three- or four-byte guard's first 3 bytes
    std::vector<int> m_unguarded;
};

}  // namespace attrib::engine
