// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval's scoring on tiny fixture cases: acceptable sub-domains, terminal families, culprit nodes,
// hard failures, the sample format, summaries and floors.
#include "engine/corpus_eval.h"

#include <QtTest>

using namespace attrib::engine;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

ordered_json verdict(const std::string& terminal, const std::string& domain, const std::string& node = {},
                     int symptoms = 1)
{
    ordered_json v;
    v["terminal_state"] = terminal;
    v["sub_domain"] = domain;
    v["root_cause"] = node.empty() ? ordered_json() : ordered_json{{"symptom", "x"}, {"node", node}};
    v["symptoms"] = ordered_json::array();
    for (int i = 0; i < symptoms; ++i)
        v["symptoms"].push_back({{"id", "s" + std::to_string(i)}, {"name", "x"}});
    return v;
}

json corpusTruth(const std::string& terminal, const std::string& domain, std::vector<std::string> acceptable = {},
                 const std::string& culprit = {}, bool heldout = false)
{
    json e = {{"terminal_state", terminal}, {"sub_domain", domain}, {"acceptable_sub_domains", acceptable},
              {"cascade", false},           {"heldout", heldout},   {"description", "fixture"}};
    if (!culprit.empty())
        e["culprit_node"] = culprit;
    return e;
}

CaseScore score(const json& expected, const ordered_json& v, int skipped = 0)
{
    CaseFacts facts;
    facts.skippedTextFiles = skipped;
    return scoreCase("case", expected, &v, {}, facts);
}

}  // namespace

class TestCorpusEval : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void acceptableSubDomainInTheSameFamilyPasses()
    {
        const auto truth = corpusTruth("hardware_failure", "nvlink", {"nvswitch"});
        QVERIFY(score(truth, verdict("hardware_failure", "nvlink")).subDomainOk);
        const auto alt = score(truth, verdict("infrastructure_failure", "nvswitch"));
        QVERIFY(alt.subDomainOk);
        QVERIFY(alt.passed());
        QVERIFY(!alt.terminalOk);  // exact terminal state is scored on its own
        QVERIFY(!score(truth, verdict("hardware_failure", "gpu")).subDomainOk);
        QVERIFY(!score(truth, verdict("application_failure", "nvlink")).subDomainOk);
        QVERIFY(!score(truth, verdict("ambiguous", "nvlink")).subDomainOk);
        const auto unknown = score(truth, verdict("unknown", "unknown", {}, 0));
        QVERIFY(!unknown.passed());
        QVERIFY(unknown.noSymptom);
    }

    void culpritNodeScoredOnlyWhenGiven()
    {
        const auto named = corpusTruth("hardware_failure", "gpu", {}, "node23");
        const auto right = score(named, verdict("hardware_failure", "gpu", "node23"));
        QVERIFY(right.nodeScored && right.nodeOk && right.passed());
        const auto wrong = score(named, verdict("hardware_failure", "gpu", "node24"));
        QVERIFY(wrong.nodeScored && !wrong.nodeOk);
        QVERIFY(wrong.subDomainOk);
        QVERIFY(!wrong.passed());
        // The engine names nodes by their short host name: a fully qualified truth is compared the same way.
        const auto qualified = corpusTruth("hardware_failure", "gpu", {}, "arax.ncats.io");
        QVERIFY(score(qualified, verdict("hardware_failure", "gpu", "arax")).nodeOk);
        QVERIFY(!score(qualified, verdict("hardware_failure", "gpu", "ncats")).nodeOk);
        const auto unnamed = score(corpusTruth("hardware_failure", "gpu"), verdict("hardware_failure", "gpu", "n1"));
        QVERIFY(!unnamed.nodeScored);
        QVERIFY(unnamed.passed());
    }

    void applicationCalledHardwareIsAHardFailure()
    {
        const auto truth = corpusTruth("application_failure", "application", {"gpu"});
        const auto s = score(truth, verdict("hardware_failure", "gpu"));
        QVERIFY(s.hardFailure);
        QVERIFY(!s.subDomainOk);  // gpu is acceptable, but not as a hardware failure
        QVERIFY(!score(truth, verdict("application_failure", "application")).hardFailure);
        QVERIFY(!score(corpusTruth("hardware_failure", "gpu"), verdict("hardware_failure", "gpu")).hardFailure);
    }

    void sampleFormatIsComparedAsBefore()
    {
        const json sample = {{"terminal_state", "hardware_failure"},
                             {"sub_domain", "gpu"},
                             {"root_cause", {{"symptom", "x"}, {"node", "gpu-a03"}}}};
        const auto ok = score(sample, verdict("hardware_failure", "gpu", "gpu-a03"));
        QVERIFY(!ok.truth.corpusFormat);
        QVERIFY(ok.passed() && ok.nodeScored && ok.nodeOk);
        const auto otherState = score(sample, verdict("infrastructure_failure", "gpu", "gpu-a03"));
        QVERIFY(!otherState.passed());  // the sample format wants the exact terminal state
        QVERIFY(otherState.subDomainOk);
    }

    void invalidTruthIsAnErrorNamingTheKey()
    {
        const auto v = verdict("hardware_failure", "gpu");
        const auto badDomain = score(corpusTruth("hardware_failure", "pcie"), v);
        QVERIFY(badDomain.error);
        QVERIFY(badDomain.failures.at(0).find("sub_domain") != std::string::npos);
        json badFlag = corpusTruth("hardware_failure", "gpu");
        badFlag["heldout"] = "yes";
        QVERIFY(score(badFlag, v).error);
        json badList = corpusTruth("hardware_failure", "gpu");
        badList["acceptable_sub_domains"] = "host";
        QVERIFY(score(badList, v).error);
        const auto noVerdict = scoreCase("c", corpusTruth("hardware_failure", "gpu"), nullptr, "bundle is empty", {});
        QVERIFY(noVerdict.error);
        QCOMPARE(noVerdict.failures.at(0), std::string("bundle is empty"));
    }

    void summaryCountsDomainsConfusionAndHeldout()
    {
        std::vector<CaseScore> scores;
        scores.push_back(
            score(corpusTruth("hardware_failure", "gpu", {}, "n1", true), verdict("hardware_failure", "gpu", "n1")));
        scores.push_back(score(corpusTruth("hardware_failure", "gpu"), verdict("unknown", "unknown", {}, 0), 2));
        scores.push_back(
            score(corpusTruth("user_error", "configuration", {}, {}, true), verdict("hardware_failure", "nvlink")));
        scores.push_back(errorCase("broken", "invalid expected.json: x"));
        const auto all = summarize(scores);
        QCOMPARE(all.cases, 4);
        QCOMPARE(all.errors, 1);
        QCOMPARE(all.subDomainOk, 1);
        QCOMPARE(all.nodeScored, 1);
        QCOMPARE(all.nodeOk, 1);
        QCOMPARE(all.noSymptom, 1);
        QCOMPARE(all.skippedTextFiles, 2);
        QCOMPARE(all.hardFailures, 1);
        QCOMPARE(all.perDomain.at("gpu").cases, 2);
        QCOMPARE(all.perDomain.at("gpu").subDomainOk, 1);
        QCOMPARE(all.confusion.at("gpu").at("unknown"), 1);
        QCOMPARE(all.confusion.at("configuration").at("nvlink"), 1);
        QCOMPARE(all.confusion.at("-").at("(error)"), 1);
        const auto heldout = summarize(scores, HeldoutFilter::Only);
        QCOMPARE(heldout.cases, 2);
        QCOMPARE(heldout.subDomainOk, 1);
        QCOMPARE(summarize(scores, HeldoutFilter::Exclude).cases, 2);
        // A held-out case that passes through a change made with its logs in view stays held out; the unseen figure
        // counts it as a miss.
        json seen = corpusTruth("hardware_failure", "gpu", {}, "n1", true);
        seen["seen_by_rules"] = true;
        scores.push_back(score(seen, verdict("hardware_failure", "gpu", "n1")));
        QCOMPARE(summarize(scores, HeldoutFilter::Only).cases, 3);
        QCOMPARE(summarize(scores, HeldoutFilter::Only).subDomainOk, 2);
        const auto unseen = summarize(scores, HeldoutFilter::Unseen);
        QCOMPARE(unseen.cases, 3);
        QCOMPARE(unseen.subDomainOk, 1);
        QCOMPARE(unseen.nodeScored, 2);
        QCOMPARE(unseen.nodeOk, 1);
        QCOMPARE(caseJson(scores.back())["seen_by_rules"].get<bool>(), true);
        QVERIFY(parseHeldoutFilter("unseen") == HeldoutFilter::Unseen);
        scores.pop_back();
        QCOMPARE(summaryJson(all)["sub_domain_pct"].get<double>(), 25.0);
        QVERIFY(!percent(0, 0));
        QVERIFY(summaryJson(heldout)["culprit_node_pct"].is_number());
        QVERIFY(summaryJson(summarize(scores, HeldoutFilter::Exclude))["culprit_node_pct"].is_null());
    }

    void floorFailsOnAMissedFigureAndRejectsUnknownOnes()
    {
        std::vector<CaseScore> scores;
        scores.push_back(score(corpusTruth("hardware_failure", "gpu"), verdict("hardware_failure", "gpu")));
        scores.push_back(score(corpusTruth("hardware_failure", "gpu"), verdict("unknown", "unknown", {}, 0)));
        ordered_json figures;
        figures["all"] = summaryJson(summarize(scores));
        figures["heldout"] = summaryJson(summarize(scores, HeldoutFilter::Only));
        QVERIFY(checkFloor(figures, json{{"all", {{"sub_domain_pct_min", 50}, {"no_symptom_max", 1}}}}).empty());
        const auto misses = checkFloor(
            figures,
            json{{"all", {{"sub_domain_pct_min", 51}, {"no_symptom_max", 0}}}, {"heldout", {{"cases_min", 0}}}});
        QCOMPARE(misses.size(), std::size_t(2));
        QVERIFY(std::any_of(misses.begin(), misses.end(),
                            [](const std::string& m) { return m.find("all.sub_domain_pct is 50") == 0; }));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkFloor(figures, json{{"all", {{"sub_domain_pct", 1}}}}));
        // Nothing scored: the percentage is n/a, which no bound accepts.
        const auto unscored = checkFloor(figures, json{{"all", {{"culprit_node_pct_min", 0}}}});
        QCOMPARE(unscored.size(), std::size_t(1));
        QVERIFY(unscored.front().find("n/a") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkFloor(figures, json{{"all", {{"speed_min", 1}}}}));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkFloor(figures, json{{"some", {{"cases_min", 1}}}}));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, checkFloor(figures, json{{"all", {{"cases_min", "80"}}}}));
    }

    void terminalFamilies()
    {
        QCOMPARE(terminalFamily("hardware_failure"), terminalFamily("infrastructure_failure"));
        QCOMPARE(terminalFamily("user_error"), terminalFamily("application_failure"));
        QCOMPARE(terminalFamily("preempted"), terminalFamily("cancelled"));
        QVERIFY(terminalFamily("timeout") != terminalFamily("hardware_failure"));
        QVERIFY(terminalFamily("ambiguous") != terminalFamily("unknown"));
        QVERIFY(parseHeldoutFilter("only") == HeldoutFilter::Only);
        QVERIFY(!parseHeldoutFilter("some"));
    }
};

QTEST_APPLESS_MAIN(TestCorpusEval)
#include "tst_corpus_eval.moc"
