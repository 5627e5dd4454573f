// SPDX-License-Identifier: GPL-3.0-or-later
// Required-literal prefilter: which extractor patterns could match a line, from the literals each one needs.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::engine {

/// For each pattern, a few *guards*: literals (ASCII case folded) such that a line holding none of them cannot
/// match it. A line is scanned once for every guard; the patterns whose guard it holds are its candidates, and only
/// those run their own regex. A pattern with no such literal (a table row, `^\s*\d+, ...`) is *unguarded*: the
/// caller runs it on every line.
///
/// Guards come from RE2's own prefilter (re2::FilteredRE2, atoms of three bytes or more), one pattern at a time:
/// of the pattern's atoms, the longest are kept and the rest dropped while the prefilter still rejects a line
/// that holds every dropped atom. A guard with a byte over 0x7f is used only when its characters have no case
/// (general punctuation such as ’): the line is folded for ASCII only.
class LinePrefilter {
public:
    LinePrefilter() = default;
    /// `patterns[i]` is pattern i; `options` those it is compiled with.
    LinePrefilter(const std::vector<std::string_view>& patterns, const re2::RE2::Options& options);

    bool guarded(std::size_t pattern) const { return m_guarded[pattern]; }
    /// Appends to `out` the guarded patterns whose guard occurs in `line`, ascending and without repeats.
    void candidates(std::string_view line, std::vector<std::uint32_t>& out) const;
    /// The guards of a pattern (lower case), for tests and diagnostics.
    std::vector<std::string> guardsOf(std::size_t pattern) const;
    std::size_t guardCount() const { return m_guards.size(); }

private:
    void index(const std::vector<std::vector<std::string>>& guards);
    void onHit(std::uint32_t slot, std::string_view line, std::size_t end, std::vector<std::uint32_t>& found) const;

    struct Probe {
        std::uint32_t guard = 0;
        std::uint32_t offset = 0;  ///< where the guard's indexed trigram starts in the guard
    };

    std::vector<bool> m_guarded;                ///< by pattern
    std::vector<std::string> m_guards;          ///< distinct guards, lower case
    std::vector<std::uint32_t> m_patternStart;  ///< by guard: start in m_patterns (one more entry at the end)
    std::vector<std::uint32_t> m_patterns;      ///< patterns of each guard, ascending
    std::vector<std::uint32_t> m_slotKey;       ///< open-addressing table of indexed trigrams (NoKey = free)
    std::vector<std::uint32_t> m_slotStart;     ///< by slot: its probes are m_probes[start, end)
    std::vector<std::uint32_t> m_slotEnd;
    std::vector<Probe> m_probes;
    std::uint32_t m_slotMask = 0;
};

}  // namespace attrib::engine
