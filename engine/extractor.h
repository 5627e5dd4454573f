// SPDX-License-Identifier: GPL-3.0-or-later
// Extract phase: each line's candidate rules found from the literals they need, then each candidate's own pattern;
// a line's matches are kept for the rules that read its source kind.
#pragma once

#include "engine/catalog.h"

#include <array>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attrib::engine {

/// An event found on one line, before ids and observation links are assigned.
struct LineMatch {
    const ExtractorRule* rule = nullptr;
    AttrMap captures;
};

/// What a file's earlier lines left for the rules with a context (ExtractorContext): per rule, the latest line that
/// matched its context pattern, with that line's captures. One per file, fed in line order; at most one entry per
/// rule, so it stays small whatever the file's size.
///
/// It also holds the matches of rules with an `after` (ExtractorAfter) until a later line decides them: `pending`
/// in line order, at most MaxPendingPerRule per rule (a file repeating the line without end drops the oldest and
/// counts it in `dropped`). A decided match moves to `resolved`, which the caller takes (takeResolved) after each
/// line and after finish() at the end of the file.
struct ContextMemory {
    struct Seen {
        std::uint64_t line = 0;
        AttrMap captures;
    };
    /// A rule's match held for a later line; `tag` is the caller's record number at the time, `order` the rule's
    /// place in the catalog (matches of one line come out in that order).
    struct Pending {
        LineMatch match;
        std::uint64_t line = 0;
        std::uint64_t tag = 0;
        std::uint32_t order = 0;
    };
    static constexpr std::size_t MaxPendingPerRule = 8;
    std::uint64_t line = 0;  ///< the number of the line being matched; the caller raises it for every line
    std::uint64_t tag = 0;   ///< the caller's number for the record being matched, kept with its pending matches
    std::unordered_map<const ExtractorRule*, Seen> seen;
    std::vector<Pending> pending;   ///< in line order
    std::vector<Pending> resolved;  ///< decided matches not yet taken, in the order they were decided
    std::uint64_t dropped = 0;      ///< pending matches dropped over the per-rule bound
    /// True when some match is held or decided (the caller then keeps the record until it is).
    bool holding() const { return !pending.empty() || !resolved.empty(); }
    /// End of the file: matches waiting for an absent line hold, those waiting for a present one do not.
    void finish();
    /// The decided matches, sorted by (tag, order): the order in which they would have matched at once.
    std::vector<Pending> takeResolved();
};

/// Matches lines against every extractor that reads their source kind, in one pass.
class ExtractorSet {
public:
    explicit ExtractorSet(const std::vector<ExtractorRule>& rules);
    ~ExtractorSet();
    ExtractorSet(const ExtractorSet&) = delete;
    ExtractorSet& operator=(const ExtractorSet&) = delete;

    /// Appends the matches of `text` to `out`; returns true when anything matched. With `memory` (the file's), the
    /// line's context hits are remembered and rules with a required context match when theirs came close enough
    /// before; without it, rules with a required context never match. A rule with an `after` does not match at once:
    /// with `memory` its match is held there until a later line (or the end of the file) decides it, and this line's
    /// `after` hits decide the matches held for it; without `memory` (no later line) an `absent` rule matches at
    /// once and the others never do.
    bool match(SourceKind kind, std::string_view text, std::vector<LineMatch>& out,
               ContextMemory* memory = nullptr) const;
    /// Ids of the rules that looked at lines of this kind (for "which rules looked at this line").
    std::vector<std::string> rulesFor(SourceKind kind) const;
    /// False when there were patterns but their set did not compile (then no line matches), for a diagnostic.
    bool compiled() const;

private:
    struct Compiled;
    std::unique_ptr<Compiled> m_compiled;
};

/// Runs one rule's pattern on a line; fills the named captures. Used by the set and by inline cases.
bool matchRule(const ExtractorRule& rule, std::string_view text, AttrMap& captures);

/// True when `require`, `map` or `exclude` can refuse a line the rule's own pattern matches (its pattern alone,
/// as `attrib rules patterns` prints it, is then a superset of its lines).
bool narrowsPattern(const ExtractorRule& rule);

/// Runs one rule's context pattern on a line; fills its named captures.
bool matchContext(const ExtractorRule& rule, std::string_view text, AttrMap& captures);
/// Runs one rule's `after` pattern on a line; fills its named captures.
bool matchAfter(const ExtractorRule& rule, std::string_view text, AttrMap& captures);
/// Whether a later line (its `after` captures) names the same thing as the held line (its captures): the rule's
/// `after.same` captures agree wherever both lines have them.
bool sameThing(const ExtractorRule& rule, const AttrMap& held, const AttrMap& later);

/// Builds the event a match emits from an observation (node/gpu/rank/link taken from captures or the line).
Event makeEvent(const LineMatch& match, const Observation& obs);

/// Expands `{name}` placeholders from a map; unknown names expand to "?".
std::string expandTemplate(const std::string& tpl, const AttrMap& values);
/// A `set` attribute's value for a line: `{capture}` placeholders filled from the line's captures; empty when one of
/// them has no value.
std::string setValue(const std::string& value, const AttrMap& captures);
/// Expands `{name}` placeholders for prose read by people: unknown values become words ("an unknown node",
/// "unknown"), never "?". Sets `missing` when a placeholder had no value. A `[[segment]]` is kept (without the
/// brackets) only when all its placeholders have values: "the traceback[[ of rank {rank}]]".
std::string expandProse(const std::string& tpl, const AttrMap& values, bool* missing = nullptr);

}  // namespace attrib::engine
