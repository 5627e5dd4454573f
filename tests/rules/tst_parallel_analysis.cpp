// SPDX-License-Identifier: GPL-3.0-or-later
// Files read on several threads give the same analysis, byte for byte: the verdict JSON and the trace of every
// sample, every real-corpus case and a generated multi-node bundle with --jobs 1 and --jobs 4.
#include "../common/test_catalog.h"

#include "engine/verdict_json.h"
#include "importers/analyze_parallel.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace attrib;
namespace fs = std::filesystem;

class TestParallelAnalysis : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    static std::string analysed(const std::string& bundle, unsigned jobs)
    {
        const auto outcome = importers::analyzeBundleParallel(bundle, tests::sourceCatalog(), {}, jobs);
        if (!outcome.result)
            return "error: " + outcome.error;
        return engine::dumpJson(engine::verdictToJson(*outcome.result)) + "\n" +
            engine::dumpJson(engine::traceToJson(outcome.result->trace));
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
        const std::string one = analysed(bundle.toStdString(), 1);
        QVERIFY2(one.rfind("error: ", 0) != 0, one.c_str());
        const std::string four = analysed(bundle.toStdString(), 4);
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
};

QTEST_APPLESS_MAIN(TestParallelAnalysis)
#include "tst_parallel_analysis.moc"
