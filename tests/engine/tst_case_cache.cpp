// SPDX-License-Identifier: GPL-3.0-or-later
// Kept inline-case outcomes (engine/case_cache.h): a second load of the same catalog takes them instead of running
// the cases, leaves out the same rules, and anything changed or damaged makes the cases run again.
#include "../common/test_catalog.h"

#include "catalog_fixtures.h"
#include "engine/case_cache.h"
#include "engine/catalog.h"
#include "engine/extractor.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

namespace fs = std::filesystem;
using namespace attrib;
using nlohmann::json;

namespace {

std::vector<fs::path> entries(const fs::path& cacheDir)
{
    std::vector<fs::path> found;
    std::error_code ec;
    for (fs::directory_iterator it(cacheDir, ec), end; !ec && it != end; it.increment(ec))
        found.push_back(it->path());
    return found;
}

/// Everything a load decides from its cases, as text: results, diagnostics and the rules kept.
std::string decided(const engine::Catalog& c)
{
    std::string s;
    for (const auto& r : c.caseResults())
        s += r.rule + '|' + r.name + '|' + (r.passed ? "ok" : "FAIL") + '|' + r.failure + '|' + r.where.str() + '\n';
    for (const auto& d : c.diagnostics())
        s += d.str() + '\n';
    for (const auto& r : c.extractors())
        s += "extractor " + r.id + '\n';
    for (const auto& r : c.codeRules())
        s += "code " + r.rule->id() + '\n';
    for (const auto& r : c.refineRules())
        s += "refine " + r.id + '\n';
    for (const auto& t : c.priorityTables())
        s += "table " + t.id + '\n';
    return s;
}

json readJson(const fs::path& path)
{
    std::ifstream in(path);
    return json::parse(in);
}

}  // namespace

class TestCaseCache : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    fs::path m_rules;
    fs::path m_cache;

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        const fs::path root = m_dir.path().toStdString();
        m_rules = root / "rules";
        m_cache = root / "cache";
        fs::remove_all(m_rules);
        fs::remove_all(m_cache);
        fs::copy(ATTRIB_SOURCE_RULES_DIR, m_rules, fs::copy_options::recursive);
        tests::writeFile(m_rules / "extractors" / "wrong.json", fixtures::WrongCaseRules);
    }

    void secondLoadDecidesTheSame()
    {
        const auto first = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        QCOMPARE(entries(m_cache).size(), std::size_t(1));
        const auto second = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        const auto fresh = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules());
        QCOMPARE(decided(*second), decided(*first));
        QCOMPARE(decided(*second), decided(*fresh));
        QVERIFY(decided(*second).find("extractor wrong_case") == std::string::npos);  // still left out
        QVERIFY(second->casesFailed() >= 1);
    }

    void keptOutcomeIsWhatTheSecondLoadUses()
    {
        engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        const fs::path entry = entries(m_cache).at(0);
        json kept = readJson(entry);
        const auto fresh = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules());
        QVERIFY(!fresh->refineRules().empty());
        const std::string victim = fresh->refineRules().front().id;
        kept["dropped"][2].push_back(victim);  // as if its case had failed: the next load must leave it out
        std::ofstream(entry) << kept.dump();
        const auto reused = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        for (const auto& r : reused->refineRules())
            QVERIFY(r.id != victim);
        QCOMPARE(reused->refineRules().size() + 1, fresh->refineRules().size());
    }

    void changedRuleFileRunsTheCasesAgain()
    {
        engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        fs::remove(m_rules / "extractors" / "wrong.json");
        const auto after = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        QCOMPARE(after->casesFailed(), std::size_t(0));  // the failing rule's file is gone: nothing reused
        QCOMPARE(entries(m_cache).size(), std::size_t(2));
    }

    void damagedEntryIsIgnored()
    {
        const auto first = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        const fs::path entry = entries(m_cache).at(0);
        std::ofstream(entry, std::ios::trunc) << R"({"format": "attrib-case-outcome/1", "key": )";
        const auto second = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        QCOMPARE(decided(*second), decided(*first));
        QVERIFY(readJson(entry).contains("results"));  // written again whole
    }

    void outcomeRoundTripsAndUnwritableTextIsNotKept()
    {
        engine::CaseOutcome outcome;
        outcome.results.push_back({"r1", "case 1", false, "expected 'a' but got 'b'", {"extractors/x.json", 7}});
        outcome.diagnostics.push_back(
            {engine::Diagnostic::Severity::Warning, {"refine/y.json", 3}, "r2", "inline case 'c' failed"});
        outcome.dropped[static_cast<std::size_t>(engine::CaseRuleKind::Code)].push_back("R3");
        engine::writeCaseOutcome(m_cache.string(), "key-a", outcome);
        const auto back = engine::readCaseOutcome(m_cache.string(), "key-a");
        QVERIFY(back);
        QCOMPARE(back->results.at(0).failure, outcome.results.at(0).failure);
        QCOMPARE(back->results.at(0).where.str(), std::string("extractors/x.json:7"));
        QVERIFY(back->diagnostics.at(0).severity == engine::Diagnostic::Severity::Warning);
        QCOMPARE(back->diagnostics.at(0).str(), outcome.diagnostics.at(0).str());
        QCOMPARE(back->dropped[static_cast<std::size_t>(engine::CaseRuleKind::Code)], std::vector<std::string>{"R3"});
        QVERIFY(!engine::readCaseOutcome(m_cache.string(), "key-b"));  // another key reads nothing

        outcome.results.at(0).failure = "got '\xff\xfe'";  // not UTF-8 (a C++ rule's exception text)
        engine::writeCaseOutcome(m_cache.string(), "key-c", outcome);
        QVERIFY(!engine::readCaseOutcome(m_cache.string(), "key-c"));
        QCOMPARE(entries(m_cache).size(), std::size_t(1));  // nothing written aside either
    }

    /// An analysis' load (CaseDetail::CountsOnly) keeps the same rules and counts but frees every case and the
    /// extractors' descriptions: fresh or from the kept outcome, no rule of any kind still holds a case.
    void countsOnlyFreesTheCasesAndKeepsTheRules()
    {
        const auto full = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), m_cache.string());
        for (const std::string& cache : {std::string(), m_cache.string()}) {
            const auto lean = engine::Catalog::load(m_rules.string(), rules::builtinCodeRules(), cache,
                                                    engine::CaseDetail::CountsOnly);
            QCOMPARE(lean->casesPassed(), full->casesPassed());
            QCOMPARE(lean->casesFailed(), full->casesFailed());
            QVERIFY(lean->caseResults().empty());
            QCOMPARE(lean->extractors().size(), full->extractors().size());
            QVERIFY(!full->extractors().front().cases.empty());
            for (const auto& r : lean->extractors())
                QVERIFY2(r.cases.empty() && r.description.empty(), r.id.c_str());
            for (const auto& r : lean->codeRules())
                QVERIFY(r.cases.empty());
            for (const auto& r : lean->refineRules())
                QVERIFY(r.cases.empty());
            for (const auto& t : lean->priorityTables())
                QVERIFY(t.cases.empty());
            for (const auto& m : lean->metricRules())
                QVERIFY(m.cases.empty());
            QVERIFY(lean->extractorSet().compiled());
        }
    }

    void noFolderNoCache()
    {
        engine::Catalog::load(m_rules.string(), rules::builtinCodeRules());
        QVERIFY(!fs::exists(m_cache));
        qputenv("ATTRIB_CASE_CACHE", "off");
        QCOMPARE(engine::defaultCaseCacheDir(), std::string());
        qputenv("ATTRIB_CASE_CACHE", m_cache.string().c_str());
        QCOMPARE(engine::defaultCaseCacheDir(), m_cache.string());
        qunsetenv("ATTRIB_CASE_CACHE");
        qputenv("XDG_CACHE_HOME", "/some/where");
        QCOMPARE(engine::defaultCaseCacheDir(), std::string("/some/where/attrib-workbench"));
    }
};

QTEST_GUILESS_MAIN(TestCaseCache)
#include "tst_case_cache.moc"
