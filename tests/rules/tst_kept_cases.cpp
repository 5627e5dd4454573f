// SPDX-License-Identifier: GPL-3.0-or-later
// Extractor cases read as analyze reads them (importers/kept_cases.h): a rule whose pattern needs a prefix the importer
// takes off is reported, one that reads the kept text passes, a context case is fed as two lines in order, and a
// must-not-match case that the kept text matches is reported too.
#include "../common/test_catalog.h"

#include "importers/kept_cases.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

namespace fs = std::filesystem;
using namespace attrib;
using nlohmann::json;

namespace {

json rule(const std::string& id, const std::string& pattern, json cases)
{
    return {{"id", id}, {"sources", {"app"}}, {"pattern", pattern}, {"event", "x"}, {"cases", std::move(cases)}};
}

json must(const std::string& line)
{
    return {{"line", line}};
}

json mustNot(const std::string& line)
{
    return {{"line", line}, {"match", false}};
}

const importers::KeptCaseFinding* findingOf(const importers::KeptCaseReport& report, const std::string& id)
{
    const auto it = std::find_if(report.findings.begin(), report.findings.end(),
                                 [&](const importers::KeptCaseFinding& f) { return f.rule == id; });
    return it == report.findings.end() ? nullptr : &*it;
}

}  // namespace

class TestKeptCases : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    engine::CatalogPtr m_catalog;
    importers::KeptCaseReport m_report;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const fs::path root = fs::path(m_dir.path().toStdString()) / "rules";
        tests::writeFile(root / "catalog.json", json{{"kind", "catalog"}, {"version", "test"}}.dump());
        json prefixed = json::object({{"context", {{"pattern", "\\[rank\\d+\\]: widget list header"}, {"within", 5}}}});
        prefixed.update(rule(
            "context_needs_prefix", "widget list row (?P<n>\\d+)",
            json::array({json{{"line", "[rank0]: widget list row 4"}, {"context", "[rank0]: widget list header"}}})));
        json kept = json::object({{"context", {{"pattern", "widget table header"}, {"within", 5}}}});
        kept.update(rule(
            "context_survives", "widget table row (?P<n>\\d+)",
            json::array({json{{"line", "[rank0]: widget table row 3"}, {"context", "[rank0]: widget table header"}},
                         json{{"line", "[rank0]: widget table row 3"}, {"match", false}}})));
        const json file = {
            {"kind", "extractors"},
            {"rules",
             json::array({
                 rule("needs_prefix", "\\[rank(?P<r>\\d+)\\]: fatal widget error",
                      json::array({must("[rank3]: fatal widget error"), mustNot("fatal widget error")})),
                 rule("survives", "fatal gadget error (?P<code>\\d+)",
                      json::array({must("[rank3]: fatal gadget error 7"), mustNot("fatal gadget warning 7")})),
                 rule("anchored_negative", "^fatal sprocket error",
                      json::array({must("fatal sprocket error"), mustNot("[rank1]: fatal sprocket error")})),
                 prefixed,
                 kept,
             })}};
        tests::writeFile(root / "extractors" / "kept.json", file.dump(2));
        m_catalog = rules::loadCatalog(root.string(), rules::CaseRuns::Fresh);
        QCOMPARE(m_catalog->casesFailed(), std::size_t(0));  // every case passes on its raw line
        QCOMPARE(m_catalog->extractors().size(), std::size_t(5));
        m_report = importers::checkKeptCases(*m_catalog);
        QCOMPARE(m_report.checked, std::size_t(9));
    }

    void keptTextLosesLauncherPrefixes()
    {
        const auto kept = importers::keptTexts({"[rank3]: fatal widget error", "[default0]:[rank1]: boom"});
        QCOMPARE(kept.size(), std::size_t(2));
        QCOMPARE(kept[0].text, std::string("fatal widget error"));
        QCOMPARE(kept[1].text, std::string("boom"));
    }

    void ruleNeedingAStrippedPrefixIsReported()
    {
        const auto* f = findingOf(m_report, "needs_prefix");
        QVERIFY(f);
        QCOMPARE(f->caseIndex, std::size_t(1));
        QVERIFY(f->shouldMatch);
        QCOMPARE(f->where.file, std::string("extractors/kept.json"));
        QVERIFY(f->where.line > 0);
        QCOMPARE(f->line, std::string("[rank3]: fatal widget error"));
        QCOMPARE(f->message, std::string("matches the raw line but not the text analyze keeps: 'fatal widget error'"));
    }

    void ruleReadingTheKeptTextPasses() { QVERIFY(!findingOf(m_report, "survives")); }

    void mustNotMatchCaseMatchedOnKeptTextIsReported()
    {
        const auto* f = findingOf(m_report, "anchored_negative");
        QVERIFY(f);
        QCOMPARE(f->caseIndex, std::size_t(2));
        QVERIFY(!f->shouldMatch);
        QVERIFY2(f->message.find("does not match the raw line but matches the text analyze keeps") != std::string::npos,
                 f->message.c_str());
    }

    /// The context line goes first, as the earlier line of one file: a context pattern that reads the kept text
    /// passes, one that needs the prefix is reported.
    void contextCasesAreTwoLinesInOrder()
    {
        QVERIFY(!findingOf(m_report, "context_survives"));
        const auto* f = findingOf(m_report, "context_needs_prefix");
        QVERIFY(f);
        QCOMPARE(f->kept, std::string("widget list header | widget list row 4"));
        QCOMPARE(m_report.findings.size(), std::size_t(3));
    }
};

QTEST_APPLESS_MAIN(TestKeptCases)
#include "tst_kept_cases.moc"
