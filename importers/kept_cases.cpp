// SPDX-License-Identifier: GPL-3.0-or-later
// Extractor cases through the importers: what analyze keeps of a case's line, and whether its rule still decides it.
#include "importers/kept_cases.h"

#include "engine/extractor.h"
#include "engine/lazy_regex.h"
#include "importers/records.h"

#include <algorithm>
#include <cstring>

namespace attrib::importers {

namespace {

/// A ReadFn over one string.
ReadFn stringReader(const std::string& bytes)
{
    return [&bytes, pos = std::size_t(0)](char* buffer, std::size_t capacity) mutable -> long {
        const std::size_t n = std::min(capacity, bytes.size() - pos);
        std::memcpy(buffer, bytes.data() + pos, n);
        pos += n;
        return static_cast<long>(n);
    };
}

/// Whether the set fires `rule` on the kept texts, fed as analyze feeds one file's records (Collector::matchRecord:
/// one context memory for the file, a line number per text; matches held for a later line are decided by the
/// lines after them or at the end of the file).
bool firesOn(const engine::ExtractorSet& set, const engine::ExtractorRule& rule, const std::vector<KeptText>& kept)
{
    engine::ContextMemory memory;
    std::vector<engine::LineMatch> matches;
    const auto decided = [&] {
        for (const auto& p : memory.takeResolved())
            if (p.match.rule->id == rule.id)
                return true;
        return false;
    };
    for (const auto& k : kept) {
        ++memory.line;
        ++memory.tag;
        matches.clear();
        set.match(k.kind, k.text, matches, &memory);
        for (const auto& m : matches)
            if (m.rule->id == rule.id)
                return true;
        if (decided())
            return true;
    }
    memory.finish();
    return decided();
}

std::string joined(const std::vector<KeptText>& kept)
{
    std::string out;
    for (const auto& k : kept)
        out += (out.empty() ? "" : " | ") + k.text;
    return out;
}

/// Why a must-match case is missed, beyond its text: the kept text matches the rule's pattern, but the record is of a
/// kind the rule does not read (a `kernel:` line read as kernel output by an application rule).
std::string kindNote(const engine::ExtractorRule& rule, const std::vector<KeptText>& kept)
{
    for (const auto& k : kept) {
        engine::AttrMap captures;
        if (k.kind != engine::SourceKind::Text && engine::matchRule(rule, k.text, captures))
            return std::string(" (it is read as a ") + engine::toString(k.kind) +
                " line, a kind the rule does not read)";
    }
    return {};
}

/// A copy of `rule` whose patterns compile afresh. Its cases run on the copy, alone in a set of its own, and the DFA
/// states and reverse programs they build go with it: run through the catalog's own set, the cases of every rule left
/// every rule's pattern compiled with its states cached for the rest of the run (most of `rules test`'s memory, which
/// grew past the hostile suite's 512 MB cap).
engine::ExtractorRule scratchCopy(const engine::ExtractorRule& rule)
{
    engine::ExtractorRule copy = rule;
    copy.re = engine::freshCopy(rule.re);
    copy.exclude = engine::freshCopy(rule.exclude);
    if (copy.context)
        copy.context->re = engine::freshCopy(rule.context->re);
    if (copy.after)
        copy.after->re = engine::freshCopy(rule.after->re);
    return copy;
}

}  // namespace

std::vector<KeptText> keptTexts(const std::vector<std::string>& lines)
{
    std::string bytes;
    for (const auto& line : lines)
        bytes += line + "\n";
    const Sniffed plain{engine::SourceKind::Text, Format::Plain, "extractor case"};
    TimeHints hints;
    hints.year = 2026;
    ReaderOptions options;
    options.chunkBytes = 1 << 16;
    std::vector<KeptText> out;
    readRecords(stringReader(bytes), plain, hints, options, [&](Record& r) {
        const engine::SourceKind kind = r.kind != engine::SourceKind::Unknown ? r.kind : plain.kind;
        for (const auto& inner : r.innerLines)
            out.push_back({kind, inner});
        if (!r.isMetric && !r.text.empty())
            out.push_back({kind, r.text});
        return true;
    });
    return out;
}

KeptCaseReport checkKeptCases(const engine::Catalog& catalog)
{
    KeptCaseReport report;
    for (const auto& catalogRule : catalog.extractors()) {
        if (!catalogRule.re)
            continue;
        const std::vector<engine::ExtractorRule> alone{scratchCopy(catalogRule)};
        const engine::ExtractorRule& rule = alone.front();
        const engine::ExtractorSet set(alone);
        for (std::size_t i = 0; i < rule.cases.size(); ++i) {
            const auto& ec = rule.cases[i];
            std::vector<std::string> lines;
            if (!ec.context.empty())
                lines.push_back(ec.context);
            lines.push_back(ec.line);
            if (!ec.after.empty())
                lines.push_back(ec.after);
            const auto kept = keptTexts(lines);
            ++report.checked;
            const bool fires = firesOn(set, rule, kept);
            if (fires == ec.shouldMatch)
                continue;
            KeptCaseFinding f{rule.id, i + 1, ec.where, ec.shouldMatch, ec.line, joined(kept), {}};
            std::vector<KeptText> raw;
            for (const auto& line : lines)
                raw.push_back({engine::SourceKind::Text, line});
            if (firesOn(set, rule, raw) != ec.shouldMatch)  // not the importer's doing: the set decides the raw line so
                f.message = std::string("the rule's own pattern ") +
                    (ec.shouldMatch ? "does not fire it" : "fires it") + " even on the raw line";
            else if (ec.shouldMatch)
                f.message =
                    "matches the raw line but not the text analyze keeps: '" + f.kept + "'" + kindNote(rule, kept);
            else
                f.message = "does not match the raw line but matches the text analyze keeps: '" + f.kept + "'";
            report.findings.push_back(std::move(f));
        }
    }
    return report;
}

}  // namespace attrib::importers
