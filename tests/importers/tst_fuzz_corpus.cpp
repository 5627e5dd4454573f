// SPDX-License-Identifier: GPL-3.0-or-later
// Replays every committed fuzz corpus file (fuzz/corpus/<target>/) through its harness, in the default test run,
// so that whatever the fuzzers once found stays fixed. The harness is compiled into this test directly.
#include "fuzz/harness.cpp"  // NOLINT(bugprone-suspicious-include): one translation unit, no libFuzzer needed

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

class TestFuzzCorpus : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void replay_data()
    {
        QTest::addColumn<QString>("target");
        for (const char* t :
             {"lines", "journal", "scheduler", "metrics", "bug_report", "archive", "rule_loader", "analysis"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }

    void replay()
    {
        QFETCH(QString, target);
        const auto entry = attrib::fuzz::entryFor(target.toStdString());
        QVERIFY(entry);
        const fs::path dir = fs::path(ATTRIB_SOURCE_DIR) / "fuzz" / "corpus" / target.toStdString();
        QVERIFY2(fs::is_directory(dir), dir.c_str());
        int files = 0;
        for (const auto& file : fs::directory_iterator(dir)) {
            std::ifstream in(file.path(), std::ios::binary);
            const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            QCOMPARE(entry(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()), 0);
            ++files;
        }
        QVERIFY(files > 0);
    }

    void corporaStaySmall()
    {
        std::uintmax_t total = 0;
        for (const auto& file : fs::recursive_directory_iterator(fs::path(ATTRIB_SOURCE_DIR) / "fuzz" / "corpus"))
            if (file.is_regular_file())
                total += file.file_size();
        QVERIFY2(total < std::uintmax_t{2} * 1024 * 1024, std::to_string(total).c_str());
    }
};

QTEST_APPLESS_MAIN(TestFuzzCorpus)
#include "tst_fuzz_corpus.moc"
