// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/line_prefilter.h"

#include <re2/filtered_re2.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace attrib::engine {

namespace {

constexpr int MinGuardBytes = 3;  ///< FilteredRE2's shortest atom; also the indexed window
constexpr std::uint32_t NoKey = 0xFFFFFFFFu;

constexpr std::array<unsigned char, 256> foldTable()
{
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[static_cast<std::size_t>(c)] = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return t;
}
constexpr std::array<unsigned char, 256> Fold = foldTable();

inline std::uint32_t fold(unsigned char c)
{
    return Fold[c];
}

/// A byte over 0x7f in a guard is safe only inside U+2000-U+207F (general punctuation: ’ ‘ “ ” …), characters
/// without case, so that folding the line for ASCII only cannot hide them. Other letters may have a case form the
/// line holds instead.
bool usable(const std::string& atom)
{
    for (std::size_t i = 0; i < atom.size(); ++i) {
        const auto c = static_cast<unsigned char>(atom[i]);
        if (c < 0x80)
            continue;
        if (c != 0xE2 || i + 2 >= atom.size())
            return false;
        const auto second = static_cast<unsigned char>(atom[i + 1]);
        if (second != 0x80 && second != 0x81)
            return false;
        i += 2;
    }
    return true;
}

/// How rare a byte is in log text, for choosing which three bytes of a guard to index: letters by their
/// frequency in English, digits, spaces and the separators of stamps and paths low, other punctuation high.
int rarity(unsigned char c)
{
    static constexpr std::string_view ByFrequency = "etaoinshrdlcumwfgypbvkjxqz";
    if (c >= 'a' && c <= 'z')
        return 4 + static_cast<int>(ByFrequency.find(static_cast<char>(c)));
    if (c == ' ' || c == ':' || c == '-' || c == '.' || c == '/' || c == '=' || c == ',' || c == '_')
        return 0;
    if (c >= '0' && c <= '9')
        return 2;
    return 20;
}

int windowRarity(const std::string& guard, std::size_t at)
{
    return rarity(static_cast<unsigned char>(guard[at])) + rarity(static_cast<unsigned char>(guard[at + 1])) +
        rarity(static_cast<unsigned char>(guard[at + 2]));
}

std::uint32_t trigram(const std::string& guard, std::size_t at)
{
    return (fold(static_cast<unsigned char>(guard[at])) << 16) |
        (fold(static_cast<unsigned char>(guard[at + 1])) << 8) | fold(static_cast<unsigned char>(guard[at + 2]));
}

std::uint32_t slotOf(std::uint32_t key, std::uint32_t mask)
{
    return (key * 2654435761u >> 8) & mask;
}

/// The guards of one pattern, or false when a line holding none of its literals could still match it.
bool findGuards(std::string_view pattern, const re2::RE2::Options& options, std::vector<std::string>& guards)
{
    re2::FilteredRE2 filter(MinGuardBytes);
    int id = 0;
    if (filter.Add(re2::StringPiece(pattern.data(), pattern.size()), options, &id) != re2::RE2::NoError)
        return false;
    std::vector<std::string> atoms;
    filter.Compile(&atoms);
    std::vector<int> potential;
    filter.AllPotentials({}, &potential);
    if (!potential.empty() || atoms.empty())
        return false;
    // Drop the likeliest atoms first (unusable ones, then the shortest), keeping each drop only while a line
    // that holds every dropped atom still cannot match: what is left is a small set of long literals.
    std::vector<std::size_t> order(atoms.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::make_tuple(usable(atoms[a]), atoms[a].size(), atoms[a]) <
            std::make_tuple(usable(atoms[b]), atoms[b].size(), atoms[b]);
    });
    std::vector<bool> dropped(atoms.size(), false);
    std::vector<int> present;
    for (std::size_t candidate : order) {
        dropped[candidate] = true;
        present.clear();
        for (std::size_t i = 0; i < atoms.size(); ++i)
            if (dropped[i])
                present.push_back(static_cast<int>(i));
        potential.clear();
        filter.AllPotentials(present, &potential);
        if (!potential.empty())
            dropped[candidate] = false;  // needed: without it a line holding the others could match
    }
    for (std::size_t i = 0; i < atoms.size(); ++i) {
        if (dropped[i])
            continue;
        if (!usable(atoms[i]))
            return false;
        guards.push_back(atoms[i]);
    }
    std::sort(guards.begin(), guards.end());
    return !guards.empty();
}

}  // namespace

LinePrefilter::LinePrefilter(const std::vector<std::string_view>& patterns, const re2::RE2::Options& options)
    : m_guarded(patterns.size(), false)
{
    std::vector<std::vector<std::string>> guards(patterns.size());
    for (std::size_t i = 0; i < patterns.size(); ++i)
        m_guarded[i] = findGuards(patterns[i], options, guards[i]);
    index(guards);
}

void LinePrefilter::index(const std::vector<std::vector<std::string>>& guards)
{
    std::map<std::string, std::vector<std::uint32_t>> byGuard;
    for (std::size_t p = 0; p < guards.size(); ++p)
        if (m_guarded[p])
            for (const auto& g : guards[p])
                byGuard[g].push_back(static_cast<std::uint32_t>(p));
    m_patternStart.push_back(0);
    for (auto& [guard, patterns] : byGuard) {
        m_guards.push_back(guard);
        m_patterns.insert(m_patterns.end(), patterns.begin(), patterns.end());
        m_patternStart.push_back(static_cast<std::uint32_t>(m_patterns.size()));
    }
    // Each guard is indexed by its rarest three bytes; the table holds each distinct window once.
    std::map<std::uint32_t, std::vector<Probe>> byKey;
    for (std::uint32_t g = 0; g < m_guards.size(); ++g) {
        const auto& guard = m_guards[g];
        std::size_t best = 0;
        for (std::size_t at = 1; at + MinGuardBytes <= guard.size(); ++at)
            if (windowRarity(guard, at) > windowRarity(guard, best))
                best = at;
        byKey[trigram(guard, best)].push_back({g, static_cast<std::uint32_t>(best)});
    }
    std::uint32_t size = 64;
    while (size < byKey.size() * 4)
        size *= 2;
    m_slotMask = size - 1;
    m_slotKey.assign(size, NoKey);
    m_slotStart.assign(size, 0);
    m_slotEnd.assign(size, 0);
    for (const auto& [key, probes] : byKey) {
        std::uint32_t slot = slotOf(key, m_slotMask);
        while (m_slotKey[slot] != NoKey)
            slot = (slot + 1) & m_slotMask;
        m_slotKey[slot] = key;
        m_slotStart[slot] = static_cast<std::uint32_t>(m_probes.size());
        m_probes.insert(m_probes.end(), probes.begin(), probes.end());
        m_slotEnd[slot] = static_cast<std::uint32_t>(m_probes.size());
    }
}

void LinePrefilter::onHit(std::uint32_t slot, std::string_view line, std::size_t end,
                          std::vector<std::uint32_t>& found) const
{
    for (std::uint32_t i = m_slotStart[slot]; i < m_slotEnd[slot]; ++i) {
        const Probe& probe = m_probes[i];
        const std::string& guard = m_guards[probe.guard];
        const std::size_t window = end - MinGuardBytes;  // where the three bytes start in the line
        if (window < probe.offset || window - probe.offset + guard.size() > line.size())
            continue;
        const std::size_t start = window - probe.offset;
        bool equal = true;
        for (std::size_t k = 0; k < guard.size() && equal; ++k)
            equal = Fold[static_cast<unsigned char>(line[start + k])] == static_cast<unsigned char>(guard[k]);
        if (equal)
            found.push_back(probe.guard);
    }
}

void LinePrefilter::candidates(std::string_view line, std::vector<std::uint32_t>& out) const
{
    if (m_guards.empty() || line.size() < MinGuardBytes)
        return;
    thread_local std::vector<std::uint32_t> found;
    found.clear();
    const auto* bytes = reinterpret_cast<const unsigned char*>(line.data());
    std::uint32_t key = (fold(bytes[0]) << 8) | fold(bytes[1]);
    for (std::size_t i = 2; i < line.size(); ++i) {
        key = ((key << 8) | fold(bytes[i])) & 0xFFFFFFu;
        for (std::uint32_t slot = slotOf(key, m_slotMask); m_slotKey[slot] != NoKey; slot = (slot + 1) & m_slotMask) {
            if (m_slotKey[slot] == key) {
                onHit(slot, line, i + 1, found);
                break;
            }
        }
    }
    if (found.empty())
        return;
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    const std::size_t before = out.size();
    for (std::uint32_t g : found)
        out.insert(out.end(), m_patterns.begin() + m_patternStart[g], m_patterns.begin() + m_patternStart[g + 1]);
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(before), out.end());
    out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(before), out.end()), out.end());
}

std::vector<std::string> LinePrefilter::guardsOf(std::size_t pattern) const
{
    std::vector<std::string> guards;
    for (std::uint32_t g = 0; g < m_guards.size(); ++g)
        if (std::binary_search(m_patterns.begin() + m_patternStart[g], m_patterns.begin() + m_patternStart[g + 1],
                               static_cast<std::uint32_t>(pattern)))
            guards.push_back(m_guards[g]);
    return guards;
}

}  // namespace attrib::engine
