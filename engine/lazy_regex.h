// SPDX-License-Identifier: GPL-3.0-or-later
// A rule's own compiled pattern, built on first use: the literal prefilter (engine/line_prefilter.h) picks each
// line's candidate rules, and a rule's own RE2 is needed only for the lines where it is a candidate, so most rules of a
// large catalog never build one in a given analysis (each is ~10 KB of program, 6.6 MB for 691 extractors).
#pragma once

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>

namespace attrib::engine {

class LazyRegex {
public:
    /// `programSize`: the size the loader measured when it checked the pattern (RE2::ProgramSize).
    LazyRegex(std::string pattern, const re2::RE2::Options& options, int programSize);
    LazyRegex(const LazyRegex&) = delete;
    LazyRegex& operator=(const LazyRegex&) = delete;
    ~LazyRegex();

    /// The compiled pattern; compiled by the first caller, safe from any thread.
    const re2::RE2& regex() const;
    const std::string& pattern() const { return m_pattern; }
    const re2::RE2::Options& options() const { return m_options; }
    int programSize() const { return m_programSize; }

private:
    std::string m_pattern;
    re2::RE2::Options m_options;
    int m_programSize = 0;
    mutable std::once_flag m_once;
    mutable std::unique_ptr<re2::RE2> m_re;
};

/// A copy of `re` not yet compiled (null stays null). Inline cases run on such a copy, so that the DFA states and
/// reverse program they build are dropped with it instead of staying in the catalog for the life of the process.
std::shared_ptr<const LazyRegex> freshCopy(const std::shared_ptr<const LazyRegex>& re);

/// The field a named group sets: `gpu__2` sets `gpu`, so that several alternatives of one pattern can each capture
/// the same field (RE2 forbids a repeated group name).
std::string captureField(const std::string& group);

}  // namespace attrib::engine
