// SPDX-License-Identifier: GPL-3.0-or-later
// Follows docs/rule-authoring.md step by step: copy the catalog, add exactly the files the guide shows, run
// their inline cases, analyse the bundle the guide shows, check the verdict against the guide's expectation,
// and ask the debugger's questions the guide promises answers to.
#include "../common/guide_blocks.h"

#include "engine/corpus_impact.h"
#include "engine/expectation.h"
#include "engine/trace_why.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;

class TestRuleAuthoringGuide : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    std::vector<tests::GuideBlock> m_blocks;
    std::filesystem::path m_rules;
    std::filesystem::path m_bundle;
    engine::CatalogPtr m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_blocks = tests::guideBlocks();
        m_rules = std::filesystem::path(m_tmp.path().toStdString()) / "rules";
        m_bundle = std::filesystem::path(m_tmp.path().toStdString()) / "bundle-4242";
    }

    void guideShowsTwoRuleFilesABundleAndAnExpectation()
    {
        int files = 0, bundles = 0, expects = 0;
        for (const auto& b : m_blocks) {
            files += b.kind == "file";
            bundles += b.kind == "bundle";
            expects += b.kind == "expect";
        }
        QCOMPARE(files, 2);
        QCOMPARE(bundles, 1);
        QCOMPARE(expects, 1);
    }

    void addedFilesAreNewToTheCatalog()
    {
        for (const auto& b : m_blocks)
            if (b.kind == "file")
                QVERIFY2(!std::filesystem::exists(std::filesystem::path(ATTRIB_SOURCE_RULES_DIR) / b.name),
                         b.name.c_str());
    }

    void inlineCasesOfTheNewRulePass()
    {
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, m_rules);
        QCOMPARE(tests::writeGuideBlocks(m_blocks, "file", m_rules), 2);
        m_catalog = rules::loadCatalog(m_rules.string());
        const auto baseline = tests::sourceCatalog();
        for (const auto& d : engine::newDiagnostics(*baseline, *m_catalog))
            QFAIL(d.str().c_str());
        int cases = 0;
        for (const auto& r : m_catalog->caseResults())
            if (r.rule == "spank_container_image_reference") {
                QVERIFY2(r.passed, r.failure.c_str());
                ++cases;
            }
        QCOMPARE(cases, 5);
        QVERIFY(m_catalog->symptom("container_image_reference_invalid"));
    }

    void bundleAnalysesToTheGuidesVerdict()
    {
        QVERIFY(m_catalog);
        QCOMPARE(tests::writeGuideBlocks(m_blocks, "bundle", m_bundle), 1);
        const auto outcome = importers::analyzeBundle(m_bundle.string(), m_catalog);
        QVERIFY2(outcome.result, outcome.error.c_str());
        nlohmann::json expected;
        for (const auto& b : m_blocks)
            if (b.kind == "expect")
                expected = nlohmann::json::parse(b.text);
        const auto failures = engine::compareWithExpected(engine::verdictToJson(*outcome.result), expected);
        for (const auto& f : failures)
            qWarning("%s", f.c_str());
        QVERIFY(failures.empty());
        QCOMPARE(outcome.result->verdict.rootCause->symptomId, std::string("container_image_reference_invalid@job"));
        QVERIFY(outcome.result->verdict.action.action.find("nvcr.io#nvidia/pytorch:24.01-py3") != std::string::npos);
    }

    void withoutTheGuidesFilesTheVerdictIsTheGenericOne()
    {
        const auto outcome = importers::analyzeBundle(m_bundle.string(), tests::sourceCatalog());
        QVERIFY(outcome.result);
        QVERIFY(outcome.result->verdict.rootCause);
        QVERIFY(outcome.result->verdict.rootCause->symptomId != "container_image_reference_invalid@job");
    }

    void sampleCorpusIsUnchangedAsTheGuideSays()
    {
        const engine::BundleAnalyzer analyze = [](const std::string& b, const engine::CatalogPtr& c, std::string& e) {
            auto outcome = importers::analyzeBundle(b, c);
            e = outcome.error;
            return engine::AnalysisSnapshot(outcome.result);
        };
        const auto bundles = engine::listBundles(std::string(ATTRIB_SOURCE_DIR) + "/samples");
        QVERIFY(bundles.size() > 1);
        const auto impact = engine::runCorpusImpact(bundles, tests::sourceCatalog(), m_catalog, analyze);
        QVERIFY2(impact.changedCount() == 0, engine::corpusImpactText(impact).c_str());
    }

    void debuggerAnswersTheGuidesQuestions()
    {
        const auto outcome = importers::analyzeBundle(m_bundle.string(), m_catalog);
        QVERIFY(outcome.result);
        const engine::TraceReplay replay(outcome.result);
        const auto why = engine::whyStatus(replay, "container_bad_argument@job");
        QVERIFY(why.step);
        QCOMPARE(replay.step(*why.step).rule, std::string("ScrubSuperseded"));
        QVERIFY2(why.sentence.find("was scrubbed at step " + std::to_string(*why.step) +
                                   " (scrub, ScrubSuperseded) "
                                   "because container_image_reference_invalid@job explains it") != std::string::npos,
                 why.sentence.c_str());
        // The symptom breakpoint of section 3.6: first the step that raised it, then the scrub.
        const std::vector<engine::Breakpoint> bps{{engine::Breakpoint::Kind::Symptom, "container_bad_argument", true}};
        const auto raised = replay.nextBreak(engine::TraceReplay::NoStep, bps);
        QVERIFY(raised);
        QCOMPARE(replay.step(*raised).phase, engine::TracePhase::Symptoms);
        QCOMPARE(replay.nextBreak(*raised, bps), why.step);
        // Which rules looked at the rejected line: the new extractor matched it, with the image as capture.
        const auto* line = outcome.result->observation(outcome.result->verdict.rootCause->decisiveObservation);
        QVERIFY(line);
        bool ours = false;
        for (const auto& look : engine::rulesThatLookedAt(replay, *m_catalog, line->id))
            if (look.rule == "spank_container_image_reference") {
                QVERIFY(look.matched);
                QCOMPARE(look.captures.at("image"), std::string("nvcr.io/nvidia/pytorch:24.01-py3"));
                ours = true;
            }
        QVERIFY(ours);
    }
};

QTEST_APPLESS_MAIN(TestRuleAuthoringGuide)
#include "tst_rule_authoring_guide.moc"
