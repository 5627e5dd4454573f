// SPDX-License-Identifier: GPL-3.0-or-later
// A finding that reads the same for a fault and for a design (a symptom whose terminal state is `ambiguous`): the
// registry lists its readings and what separates them, the loader checks them, and the verdict stays ambiguous with
// one candidate per reading instead of calling the fault.
#include "../common/test_catalog.h"

#include "engine/pipeline.h"
#include "engine/report.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::engine;

namespace {

bool hasDiagnostic(const Catalog& cat, const std::string& symptom, const std::string& words)
{
    for (const auto& d : cat.diagnostics())
        if (d.rule == symptom && d.message.find(words) != std::string::npos)
            return true;
    return false;
}

/// One untimed symptom of the source catalog on p1 GPU 0, as the outcome sees a pasted report's finding.
Symptom finding(const Catalog& cat, const std::string& name)
{
    Symptom s;
    s.name = name;
    s.node = "p1";
    s.gpu = 0;
    s.id = symptomIdFor(s.name, s.node, s.gpu);
    s.domain = cat.symptom(name)->domain;
    s.priority = cat.symptom(name)->priority;
    s.count = 1;
    return s;
}

}  // namespace

class TestReadings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loaderChecksReadings()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        tests::writeFile(root / "symptoms" / "s.json", R"({"kind": "symptoms", "symptoms": [
  {"name": "link_down_alone", "domain": "nvlink", "priority": 40, "terminal_state": "ambiguous",
   "readings": [{"terminal_state": "hardware_failure", "sub_domain": "nvlink", "summary": "lost link {link}"},
                {"terminal_state": "user_error", "sub_domain": "configuration", "summary": "no link to lose"}],
   "separated_by": "nvidia-smi nvlink -s on {node}"},
  {"name": "no_readings", "domain": "nvlink", "terminal_state": "ambiguous"},
  {"name": "one_reading", "domain": "nvlink", "terminal_state": "ambiguous", "separated_by": "x",
   "readings": [{"terminal_state": "hardware_failure", "sub_domain": "nvlink", "summary": "lost"}]},
  {"name": "undecided_reading", "domain": "nvlink", "terminal_state": "ambiguous", "separated_by": "x",
   "readings": [{"terminal_state": "ambiguous", "sub_domain": "nvlink", "summary": "a"},
                {"terminal_state": "user_error", "sub_domain": "configuration", "summary": "b"}]},
  {"name": "readings_on_a_decided_one", "domain": "nvlink", "terminal_state": "hardware_failure",
   "readings": [{"terminal_state": "user_error", "sub_domain": "configuration", "summary": "b"}]},
  {"name": "misspelt_state", "domain": "nvlink", "terminal_state": "hardware_fault"}
]}
)");
        const auto cat = rules::loadCatalog(root.string());
        const SymptomDef* good = cat->symptom("link_down_alone");
        QVERIFY(good);
        QCOMPARE(good->readings.size(), std::size_t(2));
        QCOMPARE(good->readings[1].subDomain, std::string("configuration"));
        QCOMPARE(good->separatedBy, std::string("nvidia-smi nvlink -s on {node}"));
        QVERIFY(!hasDiagnostic(*cat, "link_down_alone", ""));
        QVERIFY(hasDiagnostic(*cat, "no_readings", "two or more"));
        QVERIFY(hasDiagnostic(*cat, "one_reading", "two or more"));
        QVERIFY(hasDiagnostic(*cat, "undecided_reading", "decided terminal_state"));
        QVERIFY(hasDiagnostic(*cat, "readings_on_a_decided_one", "only a symptom whose terminal_state is ambiguous"));
        QVERIFY(hasDiagnostic(*cat, "misspelt_state", "'hardware_fault' is not a terminal state"));
        for (const char* left :
             {"no_readings", "one_reading", "undecided_reading", "readings_on_a_decided_one", "misspelt_state"})
            QVERIFY2(!cat->symptom(left), left);
    }

    void verdictListsTheReadings()
    {
        // DCGM's link-down finding alone: a PCIe card without NVLink reports every link down exactly like a lost
        // link, so the verdict is ambiguous between the two, never a hardware failure.
        const auto cat = tests::sourceCatalog();
        Symptom s = finding(*cat, "dcgm_nvlink_link_down");
        s.link = "3";
        s.attrs["link"] = "3";
        s.attrs["what"] = "GPU 0's NvLink link 3 is currently down";
        Trace trace;
        ExecutionContext context;
        AnalysisResult r;
        r.verdict = mapOutcome(*cat, context, {s}, {}, trace);
        const Verdict& v = r.verdict;
        QCOMPARE(v.terminalState, std::string("ambiguous"));
        QCOMPARE(v.subDomain, std::string("nvlink"));
        QVERIFY(v.rootCause);
        QCOMPARE(v.candidates.size(), std::size_t(2));
        QVERIFY(candidatesAreReadings(v));
        QCOMPARE(v.candidates[0].terminalState, std::string("hardware_failure"));
        QCOMPARE(v.candidates[1].terminalState, std::string("user_error"));
        QCOMPARE(v.candidates[1].subDomain, std::string("configuration"));
        QVERIFY2(v.candidates[0].summary.find("GPU 0 on p1 lost NVLink 3") != std::string::npos,
                 v.candidates[0].summary.c_str());
        QVERIFY2(v.explanation.find("cannot tell 2 readings apart") != std::string::npos, v.explanation.c_str());
        QVERIFY(v.explanation.find("nvidia-smi nvlink -s for GPU 0 on p1") != std::string::npos);
        r.symptoms = {s};
        const std::string text = reportText(r);
        QVERIFY2(text.find("Reading:") != std::string::npos, text.c_str());
        QVERIFY2(text.find("user_error / configuration: nothing to lose") != std::string::npos, text.c_str());
        QVERIFY2(text.find("on 2 nodes") == std::string::npos, text.c_str());  // readings are not nodes
        QVERIFY(text.find("dcgm_nvlink_link_down on p1 GPU 0") != std::string::npos);
    }

    void aDecidedRootCauseListsNoReadings()
    {
        const auto cat = tests::sourceCatalog();
        Trace trace;
        const Verdict v =
            mapOutcome(*cat, ExecutionContext{}, {finding(*cat, "dcgm_health_nvlink_failure")}, {}, trace);
        QCOMPARE(v.terminalState, std::string("hardware_failure"));
        QVERIFY(v.candidates.empty());
        QVERIFY(!candidatesAreReadings(v));
    }
};

QTEST_GUILESS_MAIN(TestReadings)
#include "tst_readings.moc"
