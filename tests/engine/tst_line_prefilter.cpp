// SPDX-License-Identifier: GPL-3.0-or-later
// The literal prefilter in front of the extractors: it may let a line through that no pattern matches, but it
// must never keep away a line a pattern matches. Checked on hand-made cases (case, position, short guards,
// letters beyond ASCII) and on every inline case line of the catalog against matching each rule alone.
#include "../common/test_catalog.h"
#include "engine/extractor.h"
#include "engine/line_prefilter.h"

#include <QtTest>

#include <re2/re2.h>

using namespace attrib::engine;

namespace {

constexpr std::uint32_t AllKinds = ~0u;

std::vector<int> candidatesOf(const LinePrefilter& filter, std::string_view text)
{
    std::vector<int> out;
    filter.candidates(text, AllKinds, out);
    return out;
}

}  // namespace

class TestLinePrefilter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void guardsAreFoundWhateverTheirCaseAndPosition()
    {
        const LinePrefilter filter({"(?i)uncorrectable ECC error", "NVRM: Xid \\(PCI:\\S+\\): \\d+"},
                                   {AllKinds, AllKinds});
        QVERIFY(filter.unguarded().empty());
        // Every start position, odd and even, and the guard flush with the end of the line.
        const std::string guard = "UNCORRECTABLE ecc ERROR";
        for (std::size_t pad = 0; pad < 9; ++pad) {
            const std::string line = std::string(pad, '#') + guard;
            QCOMPARE(candidatesOf(filter, line), std::vector<int>{0});
            QCOMPARE(candidatesOf(filter, line + " seen"), std::vector<int>{0});
        }
        QCOMPARE(candidatesOf(filter, "[  12.5] NVRM: Xid (PCI:0000:61:00): 79, pid=1"), std::vector<int>{1});
        QVERIFY(candidatesOf(filter, "step 1200 loss 2.31 lr 3e-4").empty());
        QVERIFY(candidatesOf(filter, "").empty());
        QVERIFY(candidatesOf(filter, "ECC").empty());
    }

    void shortGuardsAreSearchedByByte()
    {
        // A four-byte word is found by three-byte windows, `%|` (a progress bar) by a byte search.
        const LinePrefilter filter({"\\d%\\|", "(?i)\\bexit\\b"}, {AllKinds, 1u});
        QCOMPARE(candidatesOf(filter, " 45%|####      | 9/20"), std::vector<int>{0});
        QCOMPARE(candidatesOf(filter, "worker EXIT code 1"), std::vector<int>{1});
        for (std::size_t pad = 0; pad < 6; ++pad) {  // odd and even starts, flush with the end of the line
            QCOMPARE(candidatesOf(filter, std::string(pad, ' ') + "Exit"), std::vector<int>{1});
            QCOMPARE(candidatesOf(filter, std::string(pad, ' ') + "exit 3"), std::vector<int>{1});
        }
        std::vector<int> out;
        filter.candidates("worker exit code 1", 2u, out);  // a kind the pattern does not read
        QVERIFY(out.empty());
        QVERIFY(candidatesOf(filter, "45% done").empty());
    }

    void patternsWithoutLiteralsReadEveryLine()
    {
        const LinePrefilter filter({"^\\s*\\w+\\s+\\d+\\s+D\\S*\\s", "(?i)fallen off the bus"}, {AllKinds, AllKinds});
        QCOMPARE(filter.unguarded(), std::vector<int>{0});
        QVERIFY(candidatesOf(filter, "root 123 D+ /bin/sync").empty());  // the unguarded one is not listed
    }

    void lettersBeyondAsciiAreLeftOutOfGuards()
    {
        // `’` has no ASCII case: the guard is the ASCII run next to it, which a line in any case still holds.
        const LinePrefilter filter({"(?i)it’s possible that dataloader"}, {AllKinds});
        QVERIFY(filter.unguarded().empty());
        QCOMPARE(candidatesOf(filter, "IT’S POSSIBLE THAT DATALOADER's workers"), std::vector<int>{0});
    }

    void catalogCaseLinesMatchAsEachRuleAlone()
    {
        // The prefilter is only a shortcut: on every inline case line, the set finds exactly the rules that match
        // the line when each rule of the kind is run alone.
        const auto catalog = attrib::tests::sourceCatalog();
        const ExtractorSet& set = catalog->extractorSet();
        const auto& rules = catalog->extractors();
        std::size_t lines = 0;
        for (const auto& owner : rules) {
            for (const auto& ec : owner.cases) {
                for (const SourceKind kind : {SourceKind::Text, owner.sources.front()}) {
                    std::vector<LineMatch> got;
                    set.match(kind, ec.line, got);
                    std::vector<std::string> gotIds;
                    for (const auto& m : got)
                        gotIds.push_back(m.rule->id);
                    std::vector<std::string> wantIds;
                    for (const auto& rule : rules) {
                        const bool reads = kind == SourceKind::Text ||
                            std::find(rule.sources.begin(), rule.sources.end(), kind) != rule.sources.end();
                        if (reads && re2::RE2::PartialMatch(ec.line, *rule.re))
                            wantIds.push_back(rule.id);
                    }
                    QVERIFY2(gotIds == wantIds, (owner.id + ": " + ec.line).c_str());
                    ++lines;
                }
            }
        }
        QVERIFY(lines > 2000);
    }
};

QTEST_APPLESS_MAIN(TestLinePrefilter)
#include "tst_line_prefilter.moc"
