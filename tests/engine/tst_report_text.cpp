// SPDX-License-Identifier: GPL-3.0-or-later
// The terminal report keeps a flood of coverage errors short (issue 11): eight per collector, then how many more
// and where to read them all; the JSON verdict carries every one. Unknown node and time are written as words.
#include "engine/extractor.h"
#include "engine/report.h"
#include "engine/verdict_json.h"

#include <QtTest>

using namespace attrib;

class TestReportText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFloodOfCoverageErrorsStaysShortAndSaysWhereTheRestAre()
    {
        engine::AnalysisResult r;
        engine::CollectorCoverage c;
        c.kind = engine::SourceKind::Kernel;
        c.status = engine::CoverageStatus::Partial;
        for (int i = 1; i <= 12; ++i)
            c.errors.push_back("kern.log:" + std::to_string(i) + ": unreadable");
        r.coverage.push_back(c);
        const std::string text = engine::reportText(r);
        QVERIFY(text.find("kern.log:8: unreadable") != std::string::npos);
        QVERIFY(text.find("kern.log:9: unreadable") == std::string::npos);
        QVERIFY2(text.find("! ... 4 more (--json lists every one)") != std::string::npos, text.c_str());
        const auto json = engine::verdictToJson(r);
        QCOMPARE(json["coverage"][0]["errors"].size(), std::size_t(12));
    }

    void unknownsAreWords()
    {
        engine::AnalysisResult r;
        engine::RootCause rc;
        rc.symptom = "app_exception";
        r.verdict.rootCause = rc;
        r.verdict.terminalState = "application_failure";
        r.verdict.subDomain = "application";
        const std::string text = engine::reportText(r);
        QVERIFY2(text.find("app_exception on an unknown node, time unknown") != std::string::npos, text.c_str());
        QVERIFY(text.find(" on  at ") == std::string::npos);
    }

    void optionalSegmentsDropWhenTheirValueIsUnknown()
    {
        const std::string tpl = "fix the error at the bottom of the traceback[[ of rank {rank}]] on {node}";
        bool missing = false;
        QCOMPARE(engine::expandProse(tpl, {{"rank", "3"}, {"node", "n1"}}, &missing),
                 std::string("fix the error at the bottom of the traceback of rank 3 on n1"));
        QVERIFY(!missing);
        QCOMPARE(engine::expandProse(tpl, {{"rank", ""}, {"node", "n1"}}, &missing),
                 std::string("fix the error at the bottom of the traceback on n1"));
        QVERIFY(!missing);  // a dropped segment is not a missing value
        QCOMPARE(engine::expandProse("[[a {x}]][[ b {y}]] c[[ unclosed", {{"y", "2"}}),
                 std::string(" b 2 c[[ unclosed"));
    }
};

QTEST_APPLESS_MAIN(TestReportText)
#include "tst_report_text.moc"
