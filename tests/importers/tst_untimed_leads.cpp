// SPDX-License-Identifier: GPL-3.0-or-later
// Decisions without time (an excerpt whose lines carry no stamp still gets its causal verdict, and says the order
// could not be checked) and leads (an unknown verdict lists the earliest error-level lines of each file).
#include "importer_test_util.h"

#include "engine/progress.h"
#include "engine/report.h"
#include "importers/analyze_parallel.h"
#include "importers/leads.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <re2/re2.h>

#include <algorithm>
#include <mutex>

using namespace attrib;

namespace {

const engine::TraceStep* stepDemoting(const engine::AnalysisResult& r, const std::string& target)
{
    for (const auto& step : r.trace)
        for (const auto& change : step.changes)
            if (change.symptom == target && change.to == engine::SymptomStatus::Demoted)
                return &step;
    return nullptr;
}

}  // namespace

class TestUntimedLeads : public QObject {
    Q_OBJECT

private slots:
    void untimedExcerptStillDecides();
    void untimedExitsAfterTimedCauseDecideNothing();
    void explanationEndsInOnePeriod();
    void unknownVerdictListsLeads();
    void leadsPassOnlyWhenUnexplained();
    void errorLevelWords();
    void errorLevelAgreesWithItsRegex();
};

void TestUntimedLeads::untimedExcerptStillDecides()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    // Copied out of a ticket: no line has a timestamp, and the files are not in nodes/ folders.
    tests::writeFile(root / "dmesg-excerpt.txt",
                     "gpu-n21 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has "
                     "fallen off the bus.\n"
                     "gpu-n21 kernel: NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n");
    tests::writeFile(root / "job-output.txt",
                     "gpu-n04:811:902 [1] NCCL WARN NET/IB : Got completion from peer 10.0.0.21<55012> with error "
                     "12, opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.0.0.4 remoteGidsfe80::1\n"
                     "gpu-n04:811:902 [1] NCCL INFO transport/net.cc:1140 -> 6\n"
                     "RuntimeError: NCCL communicator was aborted on rank 9. Original reason for failure was: NCCL "
                     "error: remote process exited or there was a network error, NCCL version 2.21.5\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& r = *outcome.result;
    QCOMPARE(QString::fromStdString(r.verdict.terminalState), QStringLiteral("hardware_failure"));
    QCOMPARE(QString::fromStdString(r.verdict.subDomain), QStringLiteral("gpu"));
    QVERIFY(r.verdict.rootCause);
    QCOMPARE(QString::fromStdString(r.verdict.rootCause->node), QStringLiteral("gpu-n21"));
    QVERIFY2(r.verdict.explanation.find("order of events could not be checked") != std::string::npos,
             r.verdict.explanation.c_str());
    bool demotedComm = false;
    for (const auto& s : r.symptoms) {
        if (s.node != "gpu-n04" || s.status != engine::SymptomStatus::Demoted)
            continue;
        demotedComm = true;
        const auto* step = stepDemoting(r, s.id);
        QVERIFY2(step, s.id.c_str());
        const auto window = step->details.find("window");
        QVERIFY(window != step->details.end());
        QVERIFY2(window->second.find("count as co-occurring") != std::string::npos, window->second.c_str());
    }
    QVERIFY(demotedComm);
    QVERIFY(r.verdict.leads.empty());  // a verdict that is not unknown has no leads
}

void TestUntimedLeads::explanationEndsInOnePeriod()
{
    // The exception's message ends in a full stop (torch's asynchronous-report sentence is part of it), so the
    // explanation must not add a second one.
    const auto outcome = tests::analyzeOneFile("train.log",
                                               "Traceback (most recent call last):\n"
                                               "  File \"train.py\", line 10, in <module>\n"
                                               "    loss.backward()\n"
                                               "ValueError: the batch holds no samples.\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    const std::string& explanation = outcome.result->verdict.explanation;
    QVERIFY2(explanation.find("no samples.") != std::string::npos, explanation.c_str());
    QVERIFY2(explanation.find("..") == std::string::npos, explanation.c_str());
}

void TestUntimedLeads::untimedExitsAfterTimedCauseDecideNothing()
{
    // The flagship sample: a stamped Xid 149 explains, among others, `srun: error: node-0N: task ...` lines of a
    // slurm output that carry no stamp. Those exits could never have been the root cause, so the order of events
    // was not in question and the explanation must not say it was.
    const auto outcome = tests::analyze(tests::samplePath("nvlink-xid149"));
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& r = *outcome.result;
    bool untimedExplained = false;
    for (const auto& s : r.symptoms)
        untimedExplained |= s.origin == engine::NoTime && s.status == engine::SymptomStatus::Demoted;
    QVERIFY(untimedExplained);  // the premise: untimed symptoms are explained by the root cause
    QCOMPARE(QString::fromStdString(r.verdict.subDomain), QStringLiteral("nvlink"));
    QVERIFY2(r.verdict.explanation.find("could not be checked") == std::string::npos, r.verdict.explanation.c_str());
}

void TestUntimedLeads::unknownVerdictListsLeads()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "a.log",
                     "starting frobnicator\nstep 1 ok\nERROR frobnicator quorum lost (code 7)\nFatal: giving up\n"
                     "ERROR again\nERROR and a fourth one\n");
    tests::writeFile(root / "b.log", "all quiet\nnothing to see\n");
    tests::writeFile(root / "c.log", "[rank2]: widget exception in handler\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& v = outcome.result->verdict;
    QCOMPARE(QString::fromStdString(v.terminalState), QStringLiteral("unknown"));
    QCOMPARE(v.leads.size(), std::size_t(4));  // three from a.log (the earliest), one from c.log
    QCOMPARE(QString::fromStdString(v.leads[0].file), QStringLiteral("a.log"));
    QCOMPARE(v.leads[0].line, std::uint64_t(3));
    QCOMPARE(QString::fromStdString(v.leads[0].text), QStringLiteral("ERROR frobnicator quorum lost (code 7)"));
    QCOMPARE(v.leads[2].line, std::uint64_t(5));
    QCOMPARE(QString::fromStdString(v.leads[3].file), QStringLiteral("c.log"));
    QCOMPARE(QString::fromStdString(v.leads[3].text), QStringLiteral("widget exception in handler"));
    const auto json = engine::verdictToJson(*outcome.result);
    QVERIFY(json.contains("leads"));
    QCOMPARE(json["leads"].size(), std::size_t(4));
    QCOMPARE(QString::fromStdString(json["leads"][0]["file"].get<std::string>()), QStringLiteral("a.log"));
    QCOMPARE(json["leads"][0]["line"].get<int>(), 3);
    const std::string text = engine::reportText(*outcome.result);
    QVERIFY2(text.find("Lead:") != std::string::npos && text.find("a.log:3  ERROR frobnicator") != std::string::npos,
             text.c_str());
    // Markdown: the location as text (escaped), the log line quoted as code.
    const std::string md = engine::reportMarkdown(*outcome.result);
    QVERIFY2(md.find("| Lead | a.log\\:3 ` ERROR frobnicator") != std::string::npos, md.c_str());
    QVERIFY(v.explanation.find("leads") != std::string::npos);
}

/// The leads are found by a second pass, only for a failure no rule explains: it reports its own stage, gives the
/// same leads for any number of threads (a file stops once it has its three), and never runs for a known verdict.
void TestUntimedLeads::leadsPassOnlyWhenUnexplained()
{
    struct Stages : engine::ProgressSink {
        std::mutex mutex;
        std::vector<engine::ProgressStage> seen;
        void progress(engine::ProgressStage stage, std::uint64_t, std::uint64_t) override
        {
            const std::lock_guard lock(mutex);
            if (seen.empty() || seen.back() != stage)
                seen.push_back(stage);
        }
        bool saw(engine::ProgressStage stage) { return std::find(seen.begin(), seen.end(), stage) != seen.end(); }
    };
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    std::string many;
    for (int i = 1; i <= 5000; ++i)
        many += (i % 1000 == 0 ? "ERROR widget " : "step ") + std::to_string(i) + " done\n";
    tests::writeFile(root / "a.log", many);
    tests::writeFile(root / "b.log", "quiet\nFatal: b gave up\n");
    tests::writeFile(root / "c.log", "nothing\n");
    std::vector<std::vector<engine::Lead>> runs;
    for (const unsigned jobs : {1u, 3u}) {
        Stages stages;
        importers::AnalyzeOptions options;
        options.progress = &stages;
        const auto outcome = importers::analyzeBundleParallel(root.string(), tests::sourceCatalog(), options, jobs);
        QVERIFY2(outcome.result, outcome.error.c_str());
        QCOMPARE(QString::fromStdString(outcome.result->verdict.terminalState), QStringLiteral("unknown"));
        QVERIFY(stages.saw(engine::ProgressStage::Leads));
        QVERIFY(stages.seen.back() == engine::ProgressStage::Verdict);  // the verdict is announced after its leads
        runs.push_back(outcome.result->verdict.leads);
    }
    QCOMPARE(runs[0].size(), std::size_t(4));
    QCOMPARE(runs[0][2].line, std::uint64_t(3000));
    QCOMPARE(QString::fromStdString(runs[0][3].text), QStringLiteral("Fatal: b gave up"));
    QCOMPARE(runs[1].size(), runs[0].size());
    for (std::size_t i = 0; i < runs[0].size(); ++i)
        QVERIFY(runs[1][i].file == runs[0][i].file && runs[1][i].line == runs[0][i].line &&
                runs[1][i].text == runs[0][i].text);

    Stages stages;
    importers::AnalyzeOptions options;
    options.progress = &stages;
    const auto known = importers::analyzeBundleParallel(std::string(ATTRIB_SOURCE_DIR) + "/samples/nvlink-xid149",
                                                        tests::sourceCatalog(), options, 2);
    QVERIFY2(known.result, known.error.c_str());
    QVERIFY(known.result->verdict.terminalState != "unknown");
    QVERIFY(known.result->verdict.leads.empty());
    QVERIFY(!stages.saw(engine::ProgressStage::Leads));
}

void TestUntimedLeads::errorLevelWords()
{
    for (const char* line :
         {"ERROR x", "error: x", "Traceback (most recent call last):", "Segmentation fault", "RuntimeError: x",
          "Killed", "task failed", "kernel panic", "CRITICAL disk", "[node1:405884] *** Process received signal ***",
          "[1700000000.1] [node1:1:0] Caught signal 11 (Segmentation fault)", "Timed out initializing process group",
          "connect timeout after 30s", "unable to allocate shared memory", "cannot open shared object file",
          "terminated by SIGKILL", "Fatal Python error: SIGSEGV"})
        QVERIFY2(importers::isErrorLevel(line), line);
    for (const char* line : {"GPU available: True", "terror", "step 10 loss 2.1", "failover configured", "timed run 3",
                             "received 4 bytes", "signal handler installed", "timeouts=3"})
        QVERIFY2(!importers::isErrorLevel(line), line);
}

/// The word scanner says what this regex (its former implementation) says, on every line of the samples and
/// the importer fixtures and on crafted word-boundary cases (ASCII text; RE2's Unicode case folding of `k` and
/// `s` to the Kelvin sign and long s is not followed).
void TestUntimedLeads::errorLevelAgreesWithItsRegex()
{
    const re2::RE2 reference("(?i:\\b(?:errors?|fatal|failed|failure|fail|critical|crit|panic|traceback|"
                             "exception|segmentation fault|segfault|core dumped|killed|abort(?:ed|ing)?|"
                             "oops|unrecoverable|uncorrectable|timeout|unable|cannot|sig(?:segv|abrt|bus|kill|term)|"
                             "timed out|received signal|caught signal)\\b)|(?:Error|Exception)\\b");
    QVERIFY(reference.ok());
    std::vector<std::string> lines = {
        "x-error-y", "errors_", "_error", "ERRORS!", "RuntimeErrorX", "RuntimeError.", "my.Exception", "exceptions",
        "Segmentation  fault", "segmentation fault_", "segmentation faults", "core dumped.", "core dumpedx", "ABORTING",
        "abortion", "crit:", "critic", "OOPS", "Oops!", "uncorrectable ECC", "failover", "FAILURE", "fail", "9error9",
        "error\xc3\xa9",
        // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one word, é then error
        "\xc3\xa9"
        "error",
        "Errors", "xErrors", "", "Exception", "TypeError", "fault", "dumped", "segfault\n", "timed  out", "timedout",
        "Timed Out.", "received signals", "caught  signal", "SIGKILLED", "sigterm:", "cannot_", "Unable!"};
    for (const char* root : {"/samples", "/tests/fixtures/importers"}) {
        QDirIterator it(QString::fromUtf8(ATTRIB_SOURCE_DIR) + QLatin1String(root), QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.size() > 4'000'000 || !f.open(QIODevice::ReadOnly))
                continue;
            for (const auto& line : f.readAll().split('\n'))
                lines.push_back(line.toStdString());
        }
    }
    QVERIFY(lines.size() > 10000);
    std::size_t errors = 0;
    for (const auto& line : lines) {
        const bool want = re2::RE2::PartialMatch(line, reference);
        QVERIFY2(importers::isErrorLevel(line) == want, line.c_str());
        errors += want ? 1 : 0;
    }
    QVERIFY(errors > 100);
}

QTEST_APPLESS_MAIN(TestUntimedLeads)
#include "tst_untimed_leads.moc"
