// SPDX-License-Identifier: GPL-3.0-or-later
// Messages broken over lines by hand (a ticket, a documentation page, a chat paste): two neighbouring unstamped lines,
// the second matching nothing, are matched as one, with a space or, inside a word, without one, for the rules the
// first did not match alone; a new message (capital letter), a stamped line or a blank line between them is never
// joined, except lines a container runtime stamped as one write.
#include "importer_test_util.h"

#include <QtTest>

#include <algorithm>

using namespace attrib;

namespace {

/// The rules that raised events in a one-file bundle of `text`.
std::vector<std::string> rulesOf(const importers::AnalyzeOutcome& outcome)
{
    std::vector<std::string> rules;
    for (const auto& e : outcome.result->events)
        rules.push_back(e.rule);
    return rules;
}

/// The symptoms the events raised.
std::vector<std::string> symptomsOf(const importers::AnalyzeOutcome& outcome)
{
    std::vector<std::string> symptoms;
    for (const auto& e : outcome.result->events)
        symptoms.push_back(e.symptom);
    return symptoms;
}

/// The line each observation cites, in order.
std::vector<std::uint64_t> linesOf(const importers::AnalyzeOutcome& outcome)
{
    std::vector<std::uint64_t> lines;
    for (const auto& obs : outcome.result->observations)
        lines.push_back(obs.source.line);
    return lines;
}

bool has(const std::vector<std::string>& rules, const char* rule)
{
    return std::find(rules.begin(), rules.end(), std::string(rule)) != rules.end();
}

constexpr const char* Rejected = "srun_request_rejected";

}  // namespace

class TestHandWrapped : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void brokenBetweenWords();
    void brokenInsideAWord();
    void messageBrokenTwice();
    void headReadByAGeneralRule();
    void brokenAfterAParenthesis();
    void newMessageIsNotJoined();
    void separatedLinesAreNotJoined();
    void oneWriteStoredLineByLine();
};

void TestHandWrapped::brokenBetweenWords()
{
    // Slurm's reason went on an indented second line (a LUMI support ticket's paste,
    // tests/real/configuration-lumi-srun-overlap-attach-invalid-gres-gpus-inherited): matched as one line, which the
    // evidence cites at its first line.
    const auto outcome = tests::analyzeOneFile("srun.err",
                                               "srun: error: Unable to create step for job 4203072: Invalid generic \n"
                                               "              resource (gres) specification\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(has(rulesOf(outcome), Rejected));
    const auto& observations = outcome.result->observations;
    QCOMPARE(observations.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(observations[0].text),
             QStringLiteral("srun: error: Unable to create step for job 4203072: Invalid generic resource (gres) "
                            "specification"));
    QCOMPARE(observations[0].source.line, std::uint64_t(1));
}

void TestHandWrapped::brokenInsideAWord()
{
    const auto outcome = tests::analyzeOneFile("ticket.txt",
                                               "sbatch: error: Batch job submission failed: Requested node configur\n"
                                               "ation is not available\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(has(rulesOf(outcome), Rejected));
    QVERIFY(outcome.result->observations.front().text.find("node configuration is") != std::string::npos);
}

void TestHandWrapped::messageBrokenTwice()
{
    // The middle line is the end of one match's pair and the head of the next.
    const auto outcome = tests::analyzeOneFile(
        "paste.txt",
        "sbatch: error: Batch job submission failed: Invalid generic\n"
        "resource (gres) specification; srun: error: Unable to allocate resources: Requested node\n"
        "configuration is not available\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QCOMPARE(linesOf(outcome), (std::vector<std::uint64_t>{1, 2}));
}

void TestHandWrapped::headReadByAGeneralRule()
{
    // A general rule reads the head alone (a Python exception line); the joined line adds the specific one, NVML's
    // allocator assertion, whose source path the paste put on the next line
    // (tests/real/oom-orin-nano-pytorch-nvml-assert-beside-llama-cpp-unified-memory).
    const auto outcome = tests::analyzeOneFile("asr.log",
                                               "RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at\n"
                                               "\"/opt/pytorch/pytorch/c10/cuda/CUDACachingAllocator.cpp\":838\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto symptoms = symptomsOf(outcome);
    QVERIFY(std::count(symptoms.begin(), symptoms.end(), std::string("app_exception")) == 1);
    QVERIFY(std::count(symptoms.begin(), symptoms.end(), std::string("oom_cuda")) == 1);
    QCOMPARE(linesOf(outcome), (std::vector<std::uint64_t>{1, 1}));
}

void TestHandWrapped::brokenAfterAParenthesis()
{
    // NCCL's IB completion WARN broken after its status `(12)`, the GIDs indented on the next line: the joined line
    // reads the link-local GID the head alone cannot show.
    const auto outcome = tests::analyzeOneFile(
        "worker.log",
        "NCCL WARN NET/IB: Got completion from peer 192.168.101.2 with status=IBV_WC_RETRY_EXC_ERR(12)\n"
        "  localGid fe80::4ebb:47ff:fe2e:5fa6  remoteGids fe80::32c5:99ff:febe:6b46  hca roceP2p1s0f0\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(has(rulesOf(outcome), "nccl_ib_retry_exceeded_roce_link_local_gid"));
    QCOMPARE(linesOf(outcome).front(), std::uint64_t(1));
}

void TestHandWrapped::newMessageIsNotJoined()
{
    // A capital letter opens a message of its own: `Invalid generic` and `Resource ...` stay two lines.
    const auto outcome = tests::analyzeOneFile("srun.err",
                                               "srun: error: Unable to create step for job 4203072: Invalid generic\n"
                                               "Resource (gres) specification\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(!has(rulesOf(outcome), Rejected));
}

void TestHandWrapped::separatedLinesAreNotJoined()
{
    // A blank line, or a line with its own stamp, ends a message.
    for (const char* text :
         {"srun: error: Unable to create step for job 4203072: Invalid generic\n\nresource (gres) specification\n",
          "2024-03-01T10:00:00 srun: error: Unable to create step for job 4203072: Invalid generic\n"
          "2024-03-01T10:00:01 resource (gres) specification\n"}) {
        const auto outcome = tests::analyzeOneFile("srun.err", text);
        QVERIFY2(outcome.result, outcome.error.c_str());
        QVERIFY2(!has(rulesOf(outcome), Rejected), text);
    }
}

void TestHandWrapped::oneWriteStoredLineByLine()
{
    // A pod's runtime stores each line of one message as its own record, all with the stamp of the one write: the
    // lines are still one message; a record a second later is not.
    const auto outcome = tests::analyzeOneFile(
        "trainer-0.log",
        "2026-12-01T10:11:12.345678901Z stderr F srun: error: Unable to create step for job 4203072: Invalid generic\n"
        "2026-12-01T10:11:12.345678901Z stderr F resource (gres) specification\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    QVERIFY(has(rulesOf(outcome), Rejected));
    const auto later = tests::analyzeOneFile(
        "trainer-0.log",
        "2026-12-01T10:11:12.345678901Z stderr F srun: error: Unable to create step for job 4203072: Invalid generic\n"
        "2026-12-01T10:11:13.345678901Z stderr F resource (gres) specification\n");
    QVERIFY2(later.result, later.error.c_str());
    QVERIFY(!has(rulesOf(later), Rejected));
    // Stamps in whole seconds (a journal) say nothing of one write: many lines share a second.
    const auto journal = tests::analyzeOneFile(
        "journal.txt",
        "May 01 10:00:00 host-a python3[1234]: srun: error: Unable to create step for job 4203072: Invalid generic\n"
        "May 01 10:00:00 host-a python3[1234]: resource (gres) specification\n");
    QVERIFY2(journal.result, journal.error.c_str());
    QVERIFY(!has(rulesOf(journal), Rejected));
}

QTEST_APPLESS_MAIN(TestHandWrapped)
#include "tst_hand_wrapped.moc"
