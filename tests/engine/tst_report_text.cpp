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

    void placeholdersWithoutAValueRead()
    {
        using engine::expandProse;
        bool missing = false;
        QCOMPARE(expandProse("drain {node}, reseat or RMA GPU {gpu} if it falls off again", {{"node", "n1"}}, &missing),
                 std::string("drain n1, reseat or RMA the GPU if it falls off again"));
        QVERIFY(missing);
        QCOMPARE(expandProse("fix the error at the bottom of rank {rank}'s traceback", {}),
                 std::string("fix the error at the bottom of the rank's traceback"));
        QCOMPARE(expandProse("on node {node}: link {link} down", {{"link", "7"}}),
                 std::string("on an unknown node: link 7 down"));
        QCOMPARE(expandProse("drain {node}", {}), std::string("drain an unknown node"));
        QCOMPARE(expandProse("{reason} after {seconds} s", {{"seconds", "30"}}), std::string("unknown after 30 s"));
        missing = false;
        QCOMPARE(expandProse("GPU {gpu} of {node}", {{"gpu", "3"}, {"node", "n2"}}, &missing),
                 std::string("GPU 3 of n2"));
        QVERIFY(!missing);
        QCOMPARE(expandProse("a {broken", {}), std::string("a {broken"));
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
        engine::Symptom s;  // a node-less symptom is not the job's unless its events say so
        s.id = r.verdict.rootCause->symptomId = "app_exception@job";
        r.symptoms.push_back(s);
        QVERIFY(engine::reportText(r).find("app_exception on an unknown node") != std::string::npos);
        r.symptoms.back().attrs["job_wide"] = "true";  // a time limit, a launch that does not match its world
        const std::string job = engine::reportText(r);
        QVERIFY2(job.find("app_exception for the whole job, time unknown") != std::string::npos, job.c_str());
    }

    void oneFailureOnSeveralNodesNamesNoneOfThem()
    {
        // The same NCCL error on every host, untimed: the root cause names no node, the candidates list them.
        engine::AnalysisResult r;
        engine::RootCause rc;
        rc.symptom = "nccl_cuda_error";
        rc.symptomId = "nccl_cuda_error@h1";
        r.verdict.rootCause = rc;
        r.verdict.terminalState = "infrastructure_failure";
        r.verdict.subDomain = "comm_library";
        for (const char* node : {"h1", "h2", "h3"}) {
            engine::Candidate c;
            c.symptom = "nccl_cuda_error";
            c.symptomId = std::string("nccl_cuda_error@") + node;
            c.node = node;
            r.verdict.candidates.push_back(c);
        }
        const std::string text = engine::reportText(r);
        QVERIFY2(text.find("nccl_cuda_error on 3 nodes (the candidates below), time unknown") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("nccl_cuda_error on h2, time unknown") != std::string::npos, text.c_str());
        r.verdict.rootCause->node = "h1";  // a named root among candidates of one node is that node
        QVERIFY(engine::reportText(r).find("nccl_cuda_error on h1, time unknown") != std::string::npos);
    }

    void aBootRelativeRootCauseTimeIsNotA1970Date()
    {
        // A raw dmesg stamp with no known boot time is seconds since boot: the root cause, its candidates and the
        // JSON verdict say so instead of printing the uptime as a date in January 1970.
        engine::AnalysisResult r;
        engine::Symptom s;
        s.id = "gpu_fallen_off_bus@job";
        s.timeSource = engine::TimeSource::BootRelative;
        r.symptoms.push_back(s);
        engine::RootCause rc;
        rc.symptom = "gpu_fallen_off_bus";
        rc.symptomId = s.id;
        rc.time = 12345678000000;  // [12345.678] since boot
        r.verdict.rootCause = rc;
        engine::Candidate c;
        c.symptom = rc.symptom;
        c.symptomId = s.id;
        c.time = rc.time;
        r.verdict.candidates.push_back(c);
        const std::string text = engine::reportText(r);
        QVERIFY2(text.find("at +12345.678000s since boot") != std::string::npos, text.c_str());
        QVERIFY2(text.find("1970") == std::string::npos, text.c_str());
        const auto json = engine::verdictToJson(r);
        QCOMPARE(json["root_cause"]["time"].get<std::string>(), std::string("+12345.678000s since boot"));
        QCOMPARE(json["candidates"][0]["time"].get<std::string>(), std::string("+12345.678000s since boot"));
        // An absolute time still prints as a date.
        r.symptoms.front().timeSource = engine::TimeSource::Absolute;
        QCOMPARE(engine::verdictToJson(r)["root_cause"]["time"].get<std::string>(),
                 std::string("1970-01-01T03:25:45.678000Z"));
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
