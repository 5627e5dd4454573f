// SPDX-License-Identifier: GPL-3.0-or-later
// Files read on several threads give the same analysis, byte for byte: the verdict JSON and the trace of every
// sample, every real-corpus case, a generated multi-node bundle and a sample whose logs are gzip-compressed (also
// with a decompression cap that stops reading part way through the bundle) with --jobs 1 and --jobs 4.
#include "../common/test_catalog.h"

#include "engine/report.h"
#include "engine/verdict_json.h"
#include "importers/analyze_parallel.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <set>

using namespace attrib;
namespace fs = std::filesystem;

class TestParallelAnalysis : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    static std::string analysed(const std::string& bundle, unsigned jobs, const importers::AnalyzeOptions& options = {},
                                const engine::CatalogPtr& catalog = tests::sourceCatalog())
    {
        const auto outcome = importers::analyzeBundleParallel(bundle, catalog, options, jobs);
        if (!outcome.result)
            return "error: " + outcome.error;
        return engine::dumpJson(engine::verdictToJson(*outcome.result)) + "\n" +
            engine::dumpJson(engine::traceToJson(outcome.result->trace));
    }

    static void compareJobs(const std::string& bundle, const importers::AnalyzeOptions& options = {},
                            const engine::CatalogPtr& catalog = tests::sourceCatalog())
    {
        const std::string one = analysed(bundle, 1, options, catalog);
        QVERIFY2(one.rfind("error: ", 0) != 0, one.c_str());
        const std::string four = analysed(bundle, 4, options, catalog);
        if (one != four) {
            std::size_t at = 0;
            while (at < one.size() && at < four.size() && one[at] == four[at])
                ++at;
            const std::size_t from = at > 200 ? at - 200 : 0;
            QFAIL(("--jobs 1 and 4 differ at byte " + std::to_string(at) + ":\n" + one.substr(from, 400) + "\n----\n" +
                   four.substr(from, 400))
                      .c_str());
        }
    }

    /// A copy of the NVLink sample with every log gzip-compressed (workload.json and the truth left plain).
    QString compressedSample()
    {
        const fs::path to = m_tmp.filePath(QStringLiteral("compressed")).toStdString();
        if (fs::exists(to))
            return QString::fromStdString(to.string());
        fs::copy(fs::path(ATTRIB_SOURCE_DIR) / "samples" / "nvlink-xid149", to, fs::copy_options::recursive);
        QStringList logs;
        for (const auto& entry : fs::recursive_directory_iterator(to))
            if (entry.is_regular_file() && entry.path().extension() != ".json" && entry.path().extension() != ".md")
                logs << QString::fromStdString(entry.path().string());
        QProcess gzip;
        gzip.start(QStringLiteral("gzip"), QStringList{QStringLiteral("-n")} + logs);
        if (!gzip.waitForFinished(60000) || gzip.exitCode() != 0)
            return {};
        return QString::fromStdString(to.string());
    }

    static void addFolders(const fs::path& root)
    {
        std::vector<fs::path> cases;
        for (const auto& entry : fs::directory_iterator(root))
            if (entry.is_directory() && fs::exists(entry.path() / "expected.json"))
                cases.push_back(entry.path());
        std::sort(cases.begin(), cases.end());
        for (const auto& c : cases)
            QTest::newRow((root.filename().string() + "/" + c.filename().string()).c_str())
                << QString::fromStdString(c);
    }

private Q_SLOTS:
    void sameResultForAnyJobs_data()
    {
        QTest::addColumn<QString>("bundle");
        addFolders(fs::path(ATTRIB_SOURCE_DIR) / "samples");
        addFolders(fs::path(ATTRIB_SOURCE_DIR) / "tests" / "real");
        QVERIFY(m_tmp.isValid());
        const QString generated = m_tmp.filePath(QStringLiteral("generated"));
        QProcess gen;
        gen.start(QStringLiteral(ATTRIB_CLI),
                  {QStringLiteral("gen"), QStringLiteral("--nodes"), QStringLiteral("12"), QStringLiteral("--minutes"),
                   QStringLiteral("2"), QStringLiteral("--fault"), QStringLiteral("ib-link-flap"),
                   QStringLiteral("--out"), generated});
        QVERIFY(gen.waitForFinished(120000));
        QCOMPARE(gen.exitCode(), 0);
        QTest::newRow("generated/ib-link-flap") << generated;
    }

    void sameResultForAnyJobs()
    {
        QFETCH(QString, bundle);
        compareJobs(bundle.toStdString());
    }

    /// `attrib analyze` without --trace or --store drops the trace as it is made (AnalyzeOptions::keepTrace): the
    /// verdict is byte for byte the one of an analysis that keeps it, and nothing of the trace is held.
    void droppingTheTraceKeepsTheVerdict()
    {
        for (const char* sample : {"nvlink-xid149", "nccl-hang", "ib-link-flap"}) {
            const std::string bundle = std::string(ATTRIB_SOURCE_DIR "/samples/") + sample;
            importers::AnalyzeOptions dropping;
            dropping.keepTrace = false;
            const auto kept = importers::analyzeBundleParallel(bundle, tests::sourceCatalog(), {}, 2);
            const auto dropped = importers::analyzeBundleParallel(bundle, tests::sourceCatalog(), dropping, 2);
            QVERIFY2(kept.result && dropped.result, sample);
            QVERIFY2(!kept.result->trace.empty(), sample);
            QVERIFY2(dropped.result->trace.empty(), sample);
            QCOMPARE(engine::dumpJson(engine::verdictToJson(*dropped.result)),
                     engine::dumpJson(engine::verdictToJson(*kept.result)));
            QCOMPARE(engine::reportText(*dropped.result), engine::reportText(*kept.result));
        }
    }

    /// Rules that a later line decides (`after`) hold their matches per file until the file decides them: a bundle
    /// of several nodes' logs, with held matches kept, cancelled, dropped over the bound and left at the end of
    /// files, beside rules that match at once, gives the same verdict and trace with 1 and 4 threads.
    void laterLineRulesGiveTheSameResultForAnyJobs()
    {
        const fs::path root = m_tmp.filePath(QStringLiteral("after")).toStdString();
        fs::create_directories(root);
        fs::copy(ATTRIB_SOURCE_RULES_DIR, root / "rules", fs::copy_options::recursive);
        tests::writeFile(root / "rules" / "extractors" / "after_test.json", R"json({"kind": "extractors", "rules": [
  {"id": "after_test_lost", "sources": ["app"], "event": "tf_remote_task_lost", "symptom": "tf_remote_task_lost",
   "pattern": "worker heartbeat missed by (?P<target>task \\d+)",
   "after": {"pattern": "task (?P<what>declared dead)", "within": 3},
   "cases": [{"line": "worker heartbeat missed by task 3", "after": "task declared dead"},
             {"line": "worker heartbeat missed by task 3", "match": false}]}]}
)json");
        const auto catalog = rules::loadCatalog((root / "rules").string());
        for (const auto& d : catalog->diagnostics())
            qWarning("%s", d.str().c_str());
        QVERIFY(catalog->diagnostics().empty());
        // Lines of one length in a row read as a terminal-wrapped line: the causes differ in length.
        const std::string reg = "E tensorflow/core/common_runtime/eager/context.cc:856] Failed to register function "
                                "remotely due to ";
        const char* causes[] = {"failed to connect to all addresses", "Socket closed", "Connection reset by peer"};
        const std::string wait = "I tensorflow/core/distributed_runtime/master.cc:221] CreateSession still waiting "
                                 "for response from worker: /job:ps/replica:0/task:0\n";
        for (int n = 1; n <= 6; ++n) {
            std::string text;
            for (int i = 0; i < 40 * n; ++i) {
                const std::string stamp = "2024-05-0" + std::to_string(n) + " 10:" + std::to_string(10 + i / 60) + ":" +
                    std::to_string(10 + i % 50) + ".000000: ";
                switch ((i + n) % 7) {
                case 0: text += stamp + reg + causes[static_cast<std::size_t>(i) % 3] + "\n"; break;
                case 1:
                    text += "Additional GRPC error information from remote target /job:ps/replica:0/task:0:\n";
                    break;
                case 2: text += stamp + "worker heartbeat missed by task " + std::to_string(i % 5) + "\n"; break;
                case 3: text += stamp + wait; break;
                case 4:
                    text += i % 3 ? stamp + "task declared dead\n" : stamp + "step " + std::to_string(i) + "\n";
                    break;
                case 5:
                    text += i % 2
                        ? stamp + "I master_session.cc:1192] Start master session c7c32c7347c2385f with config:\n"
                        : "[rank" + std::to_string(n) +
                            "]: RuntimeError: CUDA error: an illegal memory access was encountered\n";
                    break;
                default: text += stamp + wait; break;
                }
            }
            tests::writeFile(root / "bundle" / "nodes" / ("node-0" + std::to_string(n)) / "worker.log", text);
        }
        compareJobs((root / "bundle").string(), {}, catalog);
        const auto outcome = importers::analyzeBundleParallel((root / "bundle").string(), catalog, {}, 4);
        QVERIFY(outcome.result);
        std::set<std::string> ruleIds;
        for (const auto& e : outcome.result->events)
            ruleIds.insert(e.rule);
        for (const char* id :
             {"after_test_lost", "tf_pss_register_function_ps_unreachable", "tf_createsession_still_waiting"})
            QVERIFY2(ruleIds.count(id), id);
    }

    /// Compressed files are inflated on the worker threads; the verdict is the one of the plain sample.
    void compressedFilesGiveTheSameVerdict()
    {
        const QString bundle = compressedSample();
        QVERIFY(!bundle.isEmpty());
        QVERIFY(fs::exists(bundle.toStdString() + "/nodes/node-01/kern.log.gz"));
        compareJobs(bundle.toStdString());
        const auto plain =
            importers::analyzeBundleParallel(ATTRIB_SOURCE_DIR "/samples/nvlink-xid149", tests::sourceCatalog(), {}, 4);
        const auto packed = importers::analyzeBundleParallel(bundle.toStdString(), tests::sourceCatalog(), {}, 4);
        QVERIFY(plain.result && packed.result);
        QCOMPARE(packed.result->verdict.terminalState, plain.result->verdict.terminalState);
        QVERIFY(packed.result->verdict.rootCause && plain.result->verdict.rootCause);
        QCOMPARE(packed.result->verdict.rootCause->node, plain.result->verdict.rootCause->node);
        QCOMPARE(packed.result->verdict.subDomain, plain.result->verdict.subDomain);
        QCOMPARE(packed.result->symptoms.size(), plain.result->symptoms.size());
    }

    /// The bundle's decompression cap is charged in bundle order whatever thread inflated a file: a cap reached
    /// part way through the bundle stops the same file at the same byte with 1 and 4 threads.
    void decompressionCapIsChargedInBundleOrder()
    {
        const QString bundle = compressedSample();
        QVERIFY(!bundle.isEmpty());
        importers::AnalyzeOptions options;
        options.maxDecompressedBytes = std::uint64_t{400} * 1024;  // the sample's logs inflate to about 1 MB
        compareJobs(bundle.toStdString(), options);
        const auto outcome = importers::analyzeBundleParallel(bundle.toStdString(), tests::sourceCatalog(), options, 4);
        QVERIFY(outcome.result);
        int capped = 0;
        for (const auto& cov : outcome.result->fileCoverage)
            for (const auto& e : cov.errors)
                capped += e.find("decompressed size cap") != std::string::npos ? 1 : 0;
        QVERIFY2(capped > 0, "the cap was never reached");
    }
};

QTEST_APPLESS_MAIN(TestParallelAnalysis)
#include "tst_parallel_analysis.moc"
