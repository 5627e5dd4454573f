// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests: every sample against its expected.json; determinism of the verdict JSON.
#include "../common/test_catalog.h"

#include "engine/expectation.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

namespace fs = std::filesystem;
using namespace attrib;

namespace {

std::string verdictOf(const std::string& bundle)
{
    auto outcome = importers::analyzeBundle(bundle, tests::sourceCatalog());
    if (!outcome.result)
        return "error: " + outcome.error;
    outcome.result->bundlePath = "<bundle>";
    return engine::dumpJson(engine::verdictToJson(*outcome.result));
}

}  // namespace

class TestSamples : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void samplesMatchExpected_data()
    {
        QTest::addColumn<QString>("bundle");
        for (const auto& entry : fs::directory_iterator(std::string(ATTRIB_SOURCE_DIR) + "/samples")) {
            if (fs::exists(entry.path() / "expected.json"))
                QTest::newRow(entry.path().filename().c_str()) << QString::fromStdString(entry.path().string());
        }
    }

    void samplesMatchExpected()
    {
        QFETCH(QString, bundle);
        const std::string path = bundle.toStdString();
        auto outcome = importers::analyzeBundle(path, tests::sourceCatalog());
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto verdict = engine::verdictToJson(*outcome.result);
        std::ifstream in(path + "/expected.json");
        const auto expected = nlohmann::json::parse(in);
        const auto failures = engine::compareWithExpected(verdict, expected);
        std::string all;
        for (const auto& f : failures)
            all += "\n  " + f;
        QVERIFY2(failures.empty(), all.c_str());
    }

    void nvlinkSampleDetails()
    {
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const auto& r = *outcome.result;
        // coverage lists every file of the bundle; the sample's metadata (expected.json, LESSON.md) in no collector
        QCOMPARE(r.fileCoverage.size(), r.files.size());
        std::size_t listed = 0;
        for (const auto& c : r.coverage)
            listed += c.files.size();
        std::size_t metadata = 0;
        for (const auto& f : r.fileCoverage)
            metadata +=
                f.role == engine::FileRole::Metadata && f.errors.empty() && f.status == engine::CoverageStatus::Ok;
        QCOMPARE(metadata, std::size_t(2));
        const auto workload = std::find_if(r.fileCoverage.begin(), r.fileCoverage.end(),
                                           [](const auto& f) { return f.role == engine::FileRole::Workload; });
        QVERIFY(workload != r.fileCoverage.end());
        QCOMPARE(workload->path, std::string("workload.json"));
        QCOMPARE(listed + metadata, r.files.size());
        // the PCI map was learned from NCCL init lines, not given
        QCOMPARE(r.context.pciToGpu.at("node-02").at("0000:61:00"), 3);
        // the decisive line is the Xid 149
        QVERIFY(r.verdict.rootCause);
        const auto* obs = r.observation(r.verdict.rootCause->decisiveObservation);
        QVERIFY(obs);
        QVERIFY(obs->text.find("Xid (PCI:0000:61:00): 149") != std::string::npos);
        QCOMPARE(r.files[obs->source.file].path, std::string("nodes/node-02/dmesg.txt"));
    }

    void verdictIsByteIdentical()
    {
        const std::string bundle = tests::samplePath("nvlink-xid149");
        QCOMPARE(verdictOf(bundle), verdictOf(bundle));
    }

    void fileOrderDoesNotMatter()
    {
        // Copy the bundle creating files in a shuffled order; directory order then differs.
        const fs::path source = tests::samplePath("nvlink-xid149");
        std::vector<fs::path> files;
        for (const auto& e : fs::recursive_directory_iterator(source))
            if (e.is_regular_file())
                files.push_back(fs::relative(e.path(), source));
        std::mt19937 rng(42);
        std::shuffle(files.begin(), files.end(), rng);
        QTemporaryDir dir;
        const fs::path copy = fs::path(dir.path().toStdString()) / "bundle";
        for (const auto& f : files) {
            fs::create_directories((copy / f).parent_path());
            fs::copy_file(source / f, copy / f);
        }
        QCOMPARE(verdictOf(copy.string()), verdictOf(source.string()));
    }

    void badInputIsReported()
    {
        const auto cat = tests::sourceCatalog();
        auto missing = importers::analyzeBundle("/nonexistent/bundle", cat);
        QVERIFY(!missing.result);
        QVERIFY(missing.error.find("no such file") != std::string::npos);
        QTemporaryDir empty;
        auto none = importers::analyzeBundle(empty.path().toStdString(), cat);
        QVERIFY(!none.result);
        QVERIFY(none.error.find("empty") != std::string::npos);
    }

    void partlyBadBundleStillYieldsVerdict()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        tests::writeFile(
            root / "nodes/n1/kern.log",
            "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, pid=1, name=x, GPU has fallen off the bus.\n");
        tests::writeFile(root / "nodes/n1/binary.bin",
                         std::string("\x7f"
                                     "ELF\0\0\0\x01\x02",
                                     9) +
                             std::string(200, '\0'));
        tests::writeFile(root / "nodes/n2/unreadable.log", "secret\n");
        fs::permissions(root / "nodes/n2/unreadable.log", fs::perms::none);
        auto outcome = importers::analyzeBundle(root.string(), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const auto& r = *outcome.result;
        QCOMPARE(r.verdict.terminalState, std::string("hardware_failure"));
        bool binarySkipped = false, unreadable = false;
        for (const auto& f : r.fileCoverage) {
            if (f.path == "nodes/n1/binary.bin")
                binarySkipped = f.status == engine::CoverageStatus::Skipped && !f.errors.empty();
            if (f.path == "nodes/n2/unreadable.log")
                unreadable = f.status == engine::CoverageStatus::Errored || ::geteuid() == 0;
        }
        QVERIFY(binarySkipped);
        QVERIFY(unreadable);
    }
};

QTEST_APPLESS_MAIN(TestSamples)
#include "tst_samples.moc"
