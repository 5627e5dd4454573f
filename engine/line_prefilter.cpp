// SPDX-License-Identifier: GPL-3.0-or-later
// Guards from RE2's FilteredRE2 analysis, found in a line by hashed four-byte windows or a byte search.
#include "engine/line_prefilter.h"

#include <re2/filtered_re2.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <map>
#include <numeric>
#include <tuple>

namespace attrib::engine {

namespace {

/// The guards a pattern is found by are at least this long: shorter strings ("in ", "gpu") let most lines through.
constexpr int MinGuardBytes = 3;
/// Guards this long or longer are found by four-byte windows; three- and four-byte ones by three-byte windows.
constexpr std::size_t HashedGuardBytes = 5;
/// A pattern without guards may still need one or two short strings of punctuation (`|`, `%|`): searched for by
/// a byte search.
constexpr std::size_t MaxWeakGuards = 2;
constexpr int HashBits = 16;

/// ASCII case folding cheap enough for every byte of a bundle: A-Z onto a-z, and a few punctuation bytes onto
/// others, which only costs an exact check now and then.
constexpr std::uint32_t FoldWord = 0x20202020u;

inline std::uint32_t hashWindow(std::uint32_t window)
{
    return (window * 2654435761u) >> (32 - HashBits);
}

inline unsigned char lowerAscii(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c + ('a' - 'A')) : c;
}

inline bool isLetter(unsigned char c)
{
    return c >= 'a' && c <= 'z';  // guards are lowercase
}

int commonness(unsigned char c);

bool isRarePunctuation(const std::string& s)
{
    return std::all_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return std::ispunct(u) != 0 && commonness(u) < 5;
    });
}

/// True when `guard` (lowercase) starts at `at` in `text`, ASCII case ignored.
bool holdsAt(std::string_view text, std::size_t at, const std::string& guard)
{
    if (at > text.size() || guard.size() > text.size() - at)
        return false;
    for (std::size_t j = 0; j < guard.size(); ++j)
        if (lowerAscii(static_cast<unsigned char>(text[at + j])) != static_cast<unsigned char>(guard[j]))
            return false;
    return true;
}

/// The longest run of ASCII bytes in an atom. A text holding the atom holds the run too, and the run's case is
/// folded by ASCII rules (the rest would need Unicode's: `it’s possible` keeps `s possible`).
std::string longestAsciiRun(const std::string& s)
{
    std::size_t best = 0;
    std::size_t bestLength = 0;
    for (std::size_t at = 0; at < s.size();) {
        std::size_t end = at;
        while (end < s.size() && static_cast<unsigned char>(s[end]) < 0x80)
            ++end;
        if (end - at > bestLength) {
            best = at;
            bestLength = end - at;
        }
        at = end + 1;
    }
    return s.substr(best, bestLength);
}

/// How common a byte is in log text, roughly (1 rare .. 9 everywhere): a guard is found by its rarest bytes, so
/// that ordinary words and numbers seldom reach the exact check.
int commonness(unsigned char c)
{
    c = lowerAscii(c);
    if (c == ' ' || c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n' || c == 's' || c == 'r')
        return 9;
    if ((c >= '0' && c <= '9') || c == 'l' || c == 'd' || c == 'c' || c == 'u' || c == 'h' || c == 'm')
        return 7;
    if (c == '.' || c == ':' || c == '-' || c == '_' || c == '/' || c == ',' || c == '=' || c == 'p' || c == 'g' ||
        c == 'f' || c == 'w' || c == 'b' || c == 'y')
        return 5;
    if (c == '[' || c == ']' || c == '(' || c == ')' || c == 'v' || c == 'k')
        return 3;
    return 1;
}

/// How rare a string is: higher is rarer.
int rarity(const std::string& s)
{
    int common = 0;
    for (const char c : s)
        common += commonness(static_cast<unsigned char>(c));
    return static_cast<int>(s.size()) * 9 - common;
}

/// The folded four-byte window of `s` at `at`, in the byte order a little-endian load of a line gives.
std::uint32_t windowAt(const std::string& s, std::size_t at)
{
    std::uint32_t w = 0;
    for (std::size_t j = 0; j < 4; ++j)
        w |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + j])) << (8 * j);
    return w | FoldWord;
}

/// Where the rarest pair of consecutive four-byte windows of a guard starts (one of any two consecutive positions
/// is even, and lines are hashed at even positions).
std::size_t rarestWindows(const std::string& guard)
{
    std::size_t best = 0;
    int bestScore = 1 << 30;
    for (std::size_t at = 0; at + 5 <= guard.size(); ++at) {
        int score = 0;
        for (std::size_t j = at; j < at + 5; ++j)
            score += commonness(static_cast<unsigned char>(guard[j]));
        if (score < bestScore) {
            bestScore = score;
            best = at;
        }
    }
    return best;
}

/// The byte a short guard is searched for: a non-letter if it has one (one search, not two), else its rarest.
std::size_t rarestByte(const std::string& guard)
{
    std::size_t best = 0;
    for (std::size_t j = 1; j < guard.size(); ++j) {
        const auto c = static_cast<unsigned char>(guard[j]);
        const auto b = static_cast<unsigned char>(guard[best]);
        if (std::pair(isLetter(c), commonness(c)) < std::pair(isLetter(b), commonness(b)))
            best = j;
    }
    return best;
}

std::vector<std::string> guardsOf(const std::string& pattern, int minLength, bool keepPunctuation)
{
    re2::FilteredRE2 filter(minLength);
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(8 << 20);
    int id = 0;
    if (filter.Add(pattern, options, &id) != re2::RE2::NoError)
        return {};
    std::vector<std::string> atoms;
    filter.Compile(&atoms);
    std::vector<int> present;
    std::vector<int> passed;
    filter.AllPotentials(present, &passed);
    if (atoms.empty() || !passed.empty())
        return {};
    for (auto& atom : atoms) {
        atom = longestAsciiRun(atom);
        if (atom.size() < static_cast<std::size_t>(minLength))
            return {};
    }
    // Drop the weakest atom first (short, then common; rare punctuation last when asked) while the pattern still cannot
    // pass unless one of the rest occurs.
    const auto weakness = [&](std::size_t a) {
        return std::tuple(keepPunctuation && isRarePunctuation(atoms[a]), atoms[a].size(), rarity(atoms[a]));
    };
    std::vector<std::size_t> order(atoms.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return weakness(a) < weakness(b); });
    std::vector<bool> guard(atoms.size(), true);
    for (const std::size_t drop : order) {
        guard[drop] = false;
        present.clear();
        for (std::size_t a = 0; a < atoms.size(); ++a)
            if (!guard[a])
                present.push_back(static_cast<int>(a));
        filter.AllPotentials(present, &passed);
        if (!passed.empty())
            guard[drop] = true;  // without it the pattern could pass on the other atoms alone
    }
    std::vector<std::string> guards;
    for (std::size_t a = 0; a < atoms.size(); ++a)
        if (guard[a])
            guards.push_back(atoms[a]);
    return guards;
}

}  // namespace

LinePrefilter::LinePrefilter(const std::vector<std::string>& patterns, const std::vector<std::uint32_t>& kinds)
{
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        auto guards = guardsOf(patterns[i], MinGuardBytes, false);
        if (guards.empty()) {
            guards = guardsOf(patterns[i], 1, true);
            if (guards.size() > MaxWeakGuards || !std::all_of(guards.begin(), guards.end(), isRarePunctuation))
                guards.clear();  // a letter, digit, space, `.`, `:` or `,` is on nearly every line
        }
        if (guards.empty())
            m_unguarded.push_back(static_cast<int>(i));
        for (const auto& guard : guards)
            addGuard(guard, static_cast<int>(i), kinds[i]);
    }
    index();
}

void LinePrefilter::addGuard(const std::string& guard, int pattern, std::uint32_t kinds)
{
    if (guard.size() < HashedGuardBytes) {
        const auto same = std::find_if(m_short.begin(), m_short.end(), [&](const auto& s) { return s.text == guard; });
        ShortGuard& entry = same != m_short.end() ? *same : m_short.emplace_back();
        if (entry.text.empty()) {
            entry.text = guard;
            entry.rare = rarestByte(guard);
        }
        entry.kinds |= kinds;
        entry.patterns.push_back(pattern);
        return;
    }
    const auto same = std::find(m_guards.begin(), m_guards.end(), guard);
    if (same != m_guards.end()) {
        m_guardPatterns[static_cast<std::size_t>(same - m_guards.begin())].push_back(pattern);
        return;
    }
    m_guards.push_back(guard);
    m_guardPatterns.push_back({pattern});
}

void LinePrefilter::index()
{
    const std::size_t slots = std::size_t{1} << HashBits;
    std::vector<std::pair<std::uint32_t, Window>> windows;
    for (std::size_t g = 0; g < m_guards.size(); ++g) {
        const auto at = static_cast<std::uint32_t>(rarestWindows(m_guards[g]));
        for (const std::uint32_t offset : {at, at + 1})
            windows.push_back({hashWindow(windowAt(m_guards[g], offset)), {static_cast<std::uint32_t>(g), offset}});
    }
    std::stable_sort(windows.begin(), windows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    m_bloom.assign(slots / 64, 0);
    m_bucketStart.assign(slots + 1, 0);
    for (const auto& [hash, window] : windows) {
        m_bloom[hash >> 6] |= std::uint64_t{1} << (hash & 63);
        ++m_bucketStart[hash + 1];
        m_bucketWindows.push_back(window);
    }
    std::partial_sum(m_bucketStart.begin(), m_bucketStart.end(), m_bucketStart.begin());
    m_shortBloom.assign(slots / 64, 0);
    for (const auto& guard : m_short)
        if (guard.text.size() >= 3) {
            const std::uint32_t h = hashWindow(windowAt(guard.text + ' ', 0) & 0xffffffu);
            m_shortBloom[h >> 6] |= std::uint64_t{1} << (h & 63);
        }
}

/// The three- and four-byte guards that start at `at` (whose three-byte window passed the short bloom filter).
void LinePrefilter::probeShort(std::string_view text, std::size_t at, std::uint32_t kind, std::vector<int>& out) const
{
    for (const auto& guard : m_short)
        if (guard.text.size() >= 3 && (guard.kinds & kind) != 0 && holdsAt(text, at, guard.text))
            out.insert(out.end(), guard.patterns.begin(), guard.patterns.end());
}

bool LinePrefilter::holds(std::string_view text, const ShortGuard& guard) const
{
    const auto rare = static_cast<unsigned char>(guard.text[guard.rare]);
    for (const unsigned char c : {rare, static_cast<unsigned char>(isLetter(rare) ? rare - ('a' - 'A') : rare)}) {
        for (std::size_t at = 0; at < text.size();) {
            const void* hit = std::memchr(text.data() + at, c, text.size() - at);
            if (hit == nullptr)
                break;
            const auto found = static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
            if (found >= guard.rare && holdsAt(text, found - guard.rare, guard.text))
                return true;
            at = found + 1;
        }
        if (!isLetter(rare))
            break;
    }
    return false;
}

void LinePrefilter::candidates(std::string_view text, std::uint32_t kind, std::vector<int>& out) const
{
    const std::size_t first = out.size();
    const std::size_t n = text.size();
    const bool shortGuards = !m_short.empty();
    for (std::size_t at = 0; at + 4 <= n; at += 2) {
        std::uint32_t window = 0;
        std::memcpy(&window, text.data() + at, 4);
        if constexpr (std::endian::native == std::endian::big)
            window = __builtin_bswap32(window);
        window |= FoldWord;
        if (shortGuards) {  // the three-byte windows at `at` and `at + 1`
            const std::uint32_t here = hashWindow(window & 0xffffffu);
            const std::uint32_t next = hashWindow(window >> 8);
            if ((m_shortBloom[here >> 6] >> (here & 63) & 1) != 0)
                probeShort(text, at, kind, out);
            if ((m_shortBloom[next >> 6] >> (next & 63) & 1) != 0)
                probeShort(text, at + 1, kind, out);
        }
        const std::uint32_t h = hashWindow(window);
        if ((m_bloom[h >> 6] >> (h & 63) & 1) == 0)
            continue;
        for (std::uint32_t k = m_bucketStart[h]; k < m_bucketStart[h + 1]; ++k) {
            const Window& w = m_bucketWindows[k];
            if (at >= w.offset && holdsAt(text, at - w.offset, m_guards[w.guard])) {
                const auto& guarded = m_guardPatterns[w.guard];
                out.insert(out.end(), guarded.begin(), guarded.end());
            }
        }
    }
    if (shortGuards && n >= 3 && (n - 3) % 2 == 0) {  // the last three-byte window, which no load above held
        std::uint32_t window = 0;
        std::memcpy(&window, text.data() + n - 3, 3);
        if constexpr (std::endian::native == std::endian::big)
            window = __builtin_bswap32(window) >> 8;
        const std::uint32_t last = hashWindow(window | (FoldWord & 0xffffffu));
        if ((m_shortBloom[last >> 6] >> (last & 63) & 1) != 0)
            probeShort(text, n - 3, kind, out);
    }
    for (const auto& guard : m_short)
        if (guard.text.size() < 3 && (guard.kinds & kind) != 0 && holds(text, guard))
            out.insert(out.end(), guard.patterns.begin(), guard.patterns.end());
    if (out.size() - first > 1) {
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
        out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end()), out.end());
    }
}

}  // namespace attrib::engine
