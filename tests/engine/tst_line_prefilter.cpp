// SPDX-License-Identifier: GPL-3.0-or-later
// The required-literal prefilter: a line that a pattern matches always makes that pattern a candidate, and the
// extractor set finds exactly what running every rule alone finds, on every inline case line of the catalog.
#include "engine/model.h"

#include "../common/test_catalog.h"

#include "engine/extractor.h"
#include "engine/lazy_regex.h"
#include "engine/line_prefilter.h"

#include <QtTest>

#include <re2/set.h>

#include <memory>
#include <set>

using namespace attrib;
using engine::LinePrefilter;

namespace {

re2::RE2::Options options()
{
    re2::RE2::Options o;
    o.set_log_errors(false);
    return o;
}

std::vector<std::uint32_t> candidates(const LinePrefilter& filter, std::string_view line)
{
    std::vector<std::uint32_t> out;
    filter.candidates(line, out);
    return out;
}

/// An oracle independent of the prefilter: the catalog's patterns as RE2::Sets of a few hundred each (the DFA of
/// one set of all would outgrow its memory). A set names every pattern that matches a line, so running each rule
/// alone only on those is what running every rule alone finds, in time linear in cases plus rules.
class PatternBatches {
public:
    explicit PatternBatches(const std::vector<engine::ExtractorRule>& rules)
    {
        constexpr std::size_t batchSize = 256;
        for (std::size_t i = 0; i < rules.size(); ++i) {
            if (i % batchSize == 0) {
                auto options = rules[i].re ? rules[i].re->options() : re2::RE2::Options{};
                options.set_max_mem(std::int64_t{64} << 20);
                m_batches.push_back({std::make_unique<re2::RE2::Set>(options, re2::RE2::UNANCHORED), {}});
            }
            if (rules[i].re && m_batches.back().set->Add(rules[i].pattern, nullptr) >= 0)
                m_batches.back().rules.push_back(i);
            else
                m_unsettable.push_back(i);  // matched one by one
        }
        for (auto& b : m_batches)
            m_compiled = b.set->Compile() && m_compiled;
    }

    bool compiled() const { return m_compiled; }

    /// Indices of the rules whose pattern matches the line (a superset of those matchRule accepts).
    std::vector<std::size_t> matching(std::string_view line, std::size_t& fallbacks) const
    {
        std::vector<std::size_t> out = m_unsettable;
        for (const auto& b : m_batches) {
            std::vector<int> hits;
            re2::RE2::Set::ErrorInfo error{};
            if (b.set->Match(re2::StringPiece(line.data(), line.size()), &hits, &error)) {
                for (int h : hits)
                    out.push_back(b.rules[static_cast<std::size_t>(h)]);
            } else if (error.kind != re2::RE2::Set::kNoError) {  // out of DFA memory: every rule of the batch
                ++fallbacks;
                out.insert(out.end(), b.rules.begin(), b.rules.end());
            }
        }
        return out;
    }

private:
    struct Batch {
        std::unique_ptr<re2::RE2::Set> set;
        std::vector<std::size_t> rules;  ///< by set index: the rule index
    };
    std::vector<Batch> m_batches;
    std::vector<std::size_t> m_unsettable;
    bool m_compiled = true;
};

}  // namespace

class TestLinePrefilter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void guardsAreLongLiteralsFoldedForCase()
    {
        const std::vector<std::string_view> patterns{
            R"(NVRM: Xid \(PCI:(?P<pci>[0-9a-fA-F:.]+)\): (?P<xid>\d+))",  // 0: several literals
            R"((?i)watchdog caught collective operation timeout)",         // 1: one long literal
            R"(^\s*(?P<pid>\d+),\s*[0-9a-f]{8}:[0-9a-f]{2}\s*$)",          // 2: no literal at all
            R"(link (?:down|flapped) on port \d+)",                        // 3: alternation
        };
        const LinePrefilter filter(patterns, options());
        QVERIFY(filter.guarded(0));
        QVERIFY(filter.guarded(1));
        QVERIFY(!filter.guarded(2));
        QVERIFY(filter.guarded(3));
        QCOMPARE(filter.guardsOf(1), std::vector<std::string>{"watchdog caught collective operation timeout"});
        for (const auto& g : filter.guardsOf(0))
            QCOMPARE(QString::fromStdString(g), QString::fromStdString(g).toLower());

        QCOMPARE(candidates(filter, "kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1"), std::vector<std::uint32_t>{0});
        QCOMPARE(candidates(filter, "nvrm: xid (pci:..."), std::vector<std::uint32_t>{0});  // case folded
        QCOMPARE(candidates(filter, "[rank3] WATCHDOG CAUGHT COLLECTIVE OPERATION TIMEOUT"),
                 std::vector<std::uint32_t>{1});
        QCOMPARE(candidates(filter, "mlx5: link flapped on port 1"), std::vector<std::uint32_t>{3});
        QCOMPARE(candidates(filter, "mlx5: link down on port 1"), std::vector<std::uint32_t>{3});
        QVERIFY(candidates(filter, "step 100 loss 2.31 lr 3e-4").empty());
        QVERIFY(candidates(filter, "").empty());
        QVERIFY(candidates(filter, "ab").empty());
        // A guard at the very start and the very end of the line, and one cut off by the line's end.
        QCOMPARE(candidates(filter, "watchdog caught collective operation timeout"), std::vector<std::uint32_t>{1});
        QVERIFY(candidates(filter, "watchdog caught collective operation timeou").empty());
    }

    void punctuationGuardsAndCaseOnlyFromAscii()
    {
        const std::vector<std::string_view> patterns{
            "the actor[’']s node was preempted",  // ’ has no case: usable as a guard
            "(?i)café crashed",                   // é has a case form the line may hold: not a guard
        };
        const LinePrefilter filter(patterns, options());
        QVERIFY(filter.guarded(0));
        QCOMPARE(candidates(filter, "The actor’s node was preempted"), std::vector<std::uint32_t>{0});
        QCOMPARE(candidates(filter, "the actor's node was preempted"), std::vector<std::uint32_t>{0});
        const re2::RE2 cafe(std::string(patterns[1]), options());
        QVERIFY(re2::RE2::PartialMatch("CAFÉ CRASHED", cafe));  // what a guard "café crashed" would miss
        QVERIFY(!filter.guarded(1));
    }

    /// Every line of every inline case, positive or negative, through the catalog's set and through each rule
    /// alone (those whose pattern an independent RE2::Set finds in the line): the same rules match. A guard the
    /// prefilter got wrong would lose a match here.
    void setFindsWhatEachRuleAloneFinds()
    {
        const auto catalog = tests::sourceCatalog();
        const auto& rules = catalog->extractors();
        const auto& set = catalog->extractorSet();
        const PatternBatches oracle(rules);
        QVERIFY(oracle.compiled());
        std::size_t lines = 0;
        std::size_t matched = 0;
        std::size_t fallbacks = 0;
        for (const auto& owner : rules) {
            for (const auto& c : owner.cases) {
                std::set<std::string> alone;
                for (const std::size_t index : oracle.matching(c.line, fallbacks)) {
                    const auto& rule = rules[index];
                    engine::AttrMap captures;
                    if (rule.context && rule.context->required)  // needs an earlier line: a single line never matches
                        continue;
                    if (rule.after && !rule.after->absent)  // needs a later line: likewise
                        continue;
                    if (engine::matchRule(rule, c.line, captures))
                        alone.insert(rule.id);
                }
                std::vector<engine::LineMatch> found;
                set.match(engine::SourceKind::Text, c.line, found);  // plain text: every rule reads it
                std::set<std::string> viaSet;
                for (const auto& m : found)
                    viaSet.insert(m.rule->id);
                if (viaSet != alone)
                    QFAIL(qPrintable(QString::fromStdString(owner.id + ": '" + c.line + "'")));
                ++lines;
                matched += alone.empty() ? 0 : 1;
            }
        }
        QVERIFY(lines > 1000);
        QVERIFY(matched > lines / 2);
        QVERIFY(fallbacks < lines);  // the oracle's sets did run (a fallback still checks every rule of its batch)
    }

    /// Nearly every catalog pattern has a guard: an unguarded one runs on every line of its kinds.
    void catalogPatternsAreGuarded()
    {
        const auto catalog = tests::sourceCatalog();
        std::vector<std::string_view> patterns;
        for (const auto& rule : catalog->extractors())
            patterns.push_back(rule.pattern);
        const LinePrefilter filter(patterns, options());
        std::size_t unguarded = 0;
        for (std::size_t i = 0; i < patterns.size(); ++i)
            unguarded += filter.guarded(i) ? 0 : 1;
        qInfo("%zu of %zu patterns unguarded, %zu guards", unguarded, patterns.size(), filter.guardCount());
        QVERIFY(patterns.size() > 500);
        QVERIFY(unguarded * 50 < patterns.size());
    }
};

QTEST_GUILESS_MAIN(TestLinePrefilter)
#include "tst_line_prefilter.moc"
