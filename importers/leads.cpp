// SPDX-License-Identifier: GPL-3.0-or-later
// Error-level line detection (one pass over the words of a line) and the per-file lead collector.
#include "importers/leads.h"

#include "importers/records.h"

#include <algorithm>
#include <array>

namespace attrib::importers {

namespace {

/// The error words, whole and in any case; the two-word ones as their first word (the second is checked apart).
/// Beyond the level words: a timeout, a refusal to go on ('unable', 'cannot') and a fatal signal, the lines a
/// launcher, MPI's or UCX's signal handler or a watchdog prints when a job dies without the word 'error'.
constexpr std::string_view ErrorWords[] = {
    "error",  "errors",        "fatal",         "failed",       "failure", "fail",   "critical", "crit",
    "panic",  "traceback",     "exception",     "segfault",     "killed",  "abort",  "aborted",  "aborting",
    "oops",   "unrecoverable", "uncorrectable", "timeout",      "unable",  "cannot", "sigsegv",  "sigabrt",
    "sigbus", "sigkill",       "sigterm",       "segmentation", "core",    "timed",  "received", "caught"};
constexpr std::size_t LongestWord = 13;

/// Per byte: is it a word byte (ASCII letter, digit, `_`: RE2's \b), and for a word's first byte, the lengths
/// (bit per length) of the error words that start with it in any case. Most words fail this test at once.
struct WordTables {
    std::array<bool, 256> word{};
    std::array<std::uint16_t, 256> lengths{};
    constexpr WordTables()
    {
        for (int c = 0; c < 256; ++c)
            word[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        for (const auto w : ErrorWords) {
            const auto first = static_cast<unsigned char>(w[0]);
            lengths[first] = lengths[first - 32] = static_cast<std::uint16_t>(lengths[first] | (1u << w.size()));
        }
    }
};
constexpr WordTables Tables;

/// `word` equals `lower` (lower-case ASCII) in any case.
bool equalsFolded(std::string_view word, std::string_view lower)
{
    if (word.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if ((static_cast<unsigned char>(word[i]) | 0x20) != static_cast<unsigned char>(lower[i]))
            return false;
    return true;
}

/// `rest` (what follows a word) is one space and then `second`, whole, in any case.
bool followedBy(std::string_view rest, std::string_view second)
{
    return rest.size() > second.size() && rest[0] == ' ' && equalsFolded(rest.substr(1, second.size()), second) &&
        (rest.size() == 1 + second.size() || !Tables.word[static_cast<unsigned char>(rest[1 + second.size()])]);
}

/// `word` (a whole word), followed by `rest`, reads as error level.
bool errorWord(std::string_view word, std::string_view rest)
{
    const char last = word.back();
    if ((last == 'r' && word.ends_with("Error")) || (last == 'n' && word.ends_with("Exception")))
        return true;  // RuntimeError, torch.OutOfMemoryError: the class name ends the word
    if (word.size() > LongestWord || (Tables.lengths[static_cast<unsigned char>(word[0])] & (1u << word.size())) == 0)
        return false;
    for (const auto w : ErrorWords)
        if (equalsFolded(word, w))
            return w == "segmentation"             ? followedBy(rest, "fault")
                : w == "core"                      ? followedBy(rest, "dumped")
                : w == "timed"                     ? followedBy(rest, "out")
                : w == "received" || w == "caught" ? followedBy(rest, "signal")
                                                   : true;
    return false;
}

}  // namespace

bool isErrorLevel(std::string_view text)
{
    // Whole words in any case (ASCII word boundaries), or a word ending in an exception class name. One pass over
    // the words, no regex: this runs on every line of a file until the file has its leads.
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        while (i < n && !Tables.word[static_cast<unsigned char>(text[i])])
            ++i;
        const std::size_t start = i;
        while (i < n && Tables.word[static_cast<unsigned char>(text[i])])
            ++i;
        if (i > start && errorWord(text.substr(start, i - start), text.substr(i)))
            return true;
    }
    return false;
}

void LeadCollector::offer(std::size_t file, const std::string& path, std::uint64_t line, std::string_view text)
{
    if (file != m_file) {
        m_file = file;
        m_count = 0;
    }
    if (m_count >= PerFile || text.empty() || !isErrorLevel(text))
        return;
    ++m_count;
    engine::Lead lead;
    lead.file = path;
    lead.line = line;
    lead.text.assign(text.substr(0, TextBytes));
    sanitizeUtf8(lead.text);  // a cut may split a character; JSON needs valid UTF-8
    m_leads.emplace_back(file, std::move(lead));
}

void LeadCollector::absorb(LeadCollector&& other)
{
    for (auto& lead : other.m_leads)
        m_leads.push_back(std::move(lead));
    other.m_leads.clear();
}

std::vector<engine::Lead> LeadCollector::take(std::size_t limit) const
{
    auto sorted = m_leads;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first, a.second.line) < std::tie(b.first, b.second.line);
    });
    std::vector<engine::Lead> out;
    for (std::size_t i = 0; i < sorted.size() && out.size() < limit; ++i)
        out.push_back(sorted[i].second);
    return out;
}

}  // namespace attrib::importers
