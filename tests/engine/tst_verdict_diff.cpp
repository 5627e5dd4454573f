// SPDX-License-Identifier: GPL-3.0-or-later
// Verdict comparison (live-reload banner, attrib replay) and the corpus impact table.
#include "engine/corpus_impact.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace attrib::engine;

namespace {

Symptom symptom(const std::string& id, SymptomStatus status, const std::string& rule = {})
{
    Symptom s;
    s.id = id;
    s.status = status;
    s.statusRule = rule;
    return s;
}

AnalysisResult result(const std::string& terminal, const std::string& domain, const std::string& root,
                      std::vector<Symptom> symptoms)
{
    AnalysisResult r;
    r.verdict.terminalState = terminal;
    r.verdict.subDomain = domain;
    if (!root.empty()) {
        RootCause rc;
        rc.symptomId = root;
        r.verdict.rootCause = rc;
    }
    r.symptoms = std::move(symptoms);
    return r;
}

}  // namespace

class TestVerdictDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameVerdictIsEmpty()
    {
        const auto a = result("hardware_failure", "nvlink", "x@n1", {symptom("x@n1", SymptomStatus::Active)});
        const auto d = diffVerdicts(a, a);
        QVERIFY(d.empty());
        QCOMPARE(d.headline(), std::string("unchanged: hardware_failure/nvlink (root x@n1)"));
    }

    void changedVerdictListsEverySymptom()
    {
        const auto a =
            result("user_error", "container", "bad@job",
                   {symptom("bad@job", SymptomStatus::Active), symptom("exit@n1", SymptomStatus::Demoted, "P"),
                    symptom("gone@n2", SymptomStatus::Demoted, "R")});
        const auto b =
            result("user_error", "configuration", "sharp@job",
                   {symptom("bad@job", SymptomStatus::Scrubbed, "ScrubSuperseded"),
                    symptom("exit@n1", SymptomStatus::Demoted, "P"), symptom("sharp@job", SymptomStatus::Active)});
        const auto d = diffVerdicts(a, b);
        QVERIFY(!d.empty());
        QVERIFY(!d.terminalChanged());
        QVERIFY(d.subDomainChanged());
        QVERIFY(d.rootCauseChanged());
        QCOMPARE(d.headline(),
                 std::string("user_error/container (root bad@job) -> user_error/configuration (root sharp@job)"));
        const std::vector<std::string> lines{d.headline(), "bad@job: active -> scrubbed by ScrubSuperseded",
                                             "gone@n2: removed (was demoted by R)", "sharp@job: added (active)"};
        QCOMPARE(d.lines(), lines);
    }

    void ruleChangesCountUnlessAskedNotTo()
    {
        const auto a = result("t", "d", "r@n", {symptom("x@n", SymptomStatus::Demoted, "A")});
        const auto b = result("t", "d", "r@n", {symptom("x@n", SymptomStatus::Demoted, "B")});
        QCOMPARE(diffVerdicts(a, b).symptoms.size(), std::size_t(1));
        QCOMPARE(diffVerdicts(a, b).symptoms.front().describe(), std::string("demoted by A -> demoted by B"));
        QVERIFY(diffVerdicts(a, b, false).empty());
        QCOMPARE(diffVerdicts(a, b).headline(), std::string("same verdict t/d (root r@n), 1 symptom(s) changed"));
    }

    void corpusImpactWithAFakeAnalyzer()
    {
        QTemporaryDir tmp;
        for (const char* name : {"b-bundle", "a-bundle", "notes"}) {
            QDir(tmp.path()).mkpath(QString::fromLatin1(name));
            if (std::string(name) != "notes")
                std::ofstream(tmp.filePath(QString::fromLatin1(name) + QStringLiteral("/expected.json")).toStdString())
                    << "{}";
        }
        const auto bundles = listBundles(tmp.path().toStdString());
        QCOMPARE(bundles.size(), std::size_t(2));  // folders with an expected.json only, sorted
        QVERIFY(bundles[0].find("a-bundle") != std::string::npos);
        const auto empty = std::make_shared<const Catalog>();
        const BundleAnalyzer analyze = [&](const std::string& bundle, const CatalogPtr& catalog, std::string&) {
            const bool flipped = catalog != empty && bundle.find("b-bundle") != std::string::npos;
            return std::make_shared<const AnalysisResult>(
                flipped ? result("user_error", "configuration", "s@job", {symptom("s@job", SymptomStatus::Active)})
                        : result("unknown", "unknown", "", {}));
        };
        const auto other = std::make_shared<const Catalog>();
        const auto impact = runCorpusImpact(bundles, empty, other, analyze);
        QCOMPARE(impact.changedCount(), std::size_t(1));
        QVERIFY(!impact.bundles[0].changed());
        QVERIFY(impact.bundles[1].changed());
        const std::string text = corpusImpactText(impact);
        QVERIFY(
            text.find("CHANGED b-bundle\n    baseline: unknown/unknown\n    new:      user_error/configuration s@job\n"
                      "    s@job: added (active)\n") != std::string::npos);
        QVERIFY(text.find("a-bundle") == std::string::npos);
        QVERIFY(text.find("1 of 2 verdict(s) changed") != std::string::npos);
        QVERIFY(corpusImpactText(impact, true).find("same    a-bundle") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestVerdictDiff)
#include "tst_verdict_diff.moc"
