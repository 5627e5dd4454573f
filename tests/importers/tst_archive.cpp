// SPDX-License-Identifier: GPL-3.0-or-later
// Archive bundles (.tar, .tar.gz, .zip) and compressed members (.gz) read in place: same verdict as the folder,
// path traversal rejected, decompression limits, evidence re-read by offset. Archives are made at run time.
#include "importer_test_util.h"

#include "importers/bundle_access.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace attrib;
using namespace attrib::importers;
namespace fs = std::filesystem;

namespace {

const std::string XidLine =
    "Apr 22 21:34:20 n1 kernel: [ 3258.118251] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', "
    "name=<unknown>, GPU has fallen off the bus.\n";

std::set<std::string> listFiles(const fs::path& root)
{
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root))
        out.insert(fs::relative(e.path(), root).generic_string());
    return out;
}

}  // namespace

class TestArchive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sampleArchivesGiveTheFolderVerdict_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("name");
        QTest::newRow("tar.gz") << "tgz"
                                << "nvlink-xid149.tar.gz";
        QTest::newRow("tgz") << "tgz"
                             << "bundle.tgz";
        QTest::newRow("tar") << "tar"
                             << "nvlink-xid149.tar";
        QTest::newRow("zip") << "zip"
                             << "nvlink-xid149.zip";
    }

    void sampleArchivesGiveTheFolderVerdict()
    {
        QFETCH(QString, format);
        QFETCH(QString, name);
        const std::string sample = tests::samplePath("nvlink-xid149");
        QTemporaryDir dir;
        const std::string archive = dir.path().toStdString() + "/" + name.toStdString();
        QVERIFY(tests::writeArchive(archive, tests::folderMembers(sample, "nvlink-xid149/"), format.toStdString()));
        const std::string folderVerdict = tests::verdictJson(sample);
        const std::string archiveVerdict = tests::verdictJson(archive);
        QVERIFY(folderVerdict.find("\"terminal_state\": \"hardware_failure\"") != std::string::npos);
        QCOMPARE(archiveVerdict, folderVerdict);
        auto outcome = tests::analyze(archive);
        QVERIFY(outcome.result);
        const auto& r = *outcome.result;
        QCOMPARE(r.verdict.rootCause->node, std::string("node-02"));
        QCOMPARE(r.verdict.rootCause->gpu, 3);
        // Evidence of an archive member reads back by offset (decompressing again from the start).
        const auto* obs = r.observation(r.verdict.rootCause->decisiveObservation);
        QVERIFY(obs);
        const auto& file = r.files[obs->source.file];
        QCOMPARE(file.path, std::string("nodes/node-02/dmesg.txt"));
        QCOMPARE(file.archiveMember, std::string("nvlink-xid149/nodes/node-02/dmesg.txt"));
        std::string error;
        const auto lines = readBundleLines(file, obs->source.offset, obs->source.length, error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(lines.size(), std::size_t(1));
        QVERIFY(lines[0].find("NVRM: Xid (PCI:0000:61:00): 149") != std::string::npos);
    }

    void compressedMembersAreReadInPlace()
    {
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "bundle";
        std::string kern = "Apr 22 21:30:00 n1 kernel: [ 3018.0] usb 1-1: new device\n" + XidLine;
        QVERIFY(tests::writeArchive((root / "nodes/n1/kern.log.gz").string(), {{"kern.log", kern}}, "gz"));
        QVERIFY(tests::writeArchive((root / "nodes/n2/logs.tar.gz").string(),
                                    {{"var/log/kern.log.gz", ""},
                                     {"var/log/dmesg.txt",
                                      "[ 5.0] NVRM: Xid "
                                      "(PCI:0000:1b:00): 79, GPU has "
                                      "fallen off the bus.\n"}},
                                    "tgz"));
        const auto before = listFiles(root);
        auto outcome = tests::analyze(root.string());
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& r = *outcome.result;
        QCOMPARE(listFiles(root), before);  // nothing was extracted into the bundle
        const auto* gz = tests::fileCoverage(r, "nodes/n1/kern.log.gz");
        QVERIFY(gz);
        QVERIFY(gz->format.find("(compressed)") != std::string::npos);
        QCOMPARE(gz->lines, std::uint64_t(2));
        const auto* nested = tests::fileCoverage(r, "nodes/n2/logs.tar.gz/var/log/dmesg.txt");
        QVERIFY(nested);
        QCOMPARE(nested->node, std::string("n2"));
        QCOMPARE(nested->lines, std::uint64_t(1));
        bool xidN1 = false;
        for (const auto& o : r.observations) {
            if (o.node != "n1" || o.text.find("Xid") == std::string::npos)
                continue;
            xidN1 = true;
            std::string error;
            const auto bytes = readBundleBytes(r.files[o.source.file], o.source.offset, o.source.length, error);
            QCOMPARE(bytes + "\n", XidLine);  // offsets are positions in the decompressed text
        }
        QVERIFY(xidN1);
    }

    void traversalAndLinksAreRejected()
    {
        QTemporaryDir dir;
        const std::string archive = dir.path().toStdString() + "/evil.tar";
        QVERIFY(tests::writeArchive(
            archive,
            {{"b/nodes/n1/kern.log", XidLine}, {"b/../../etc/cron.d/x", "* * * *\n"}, {"/etc/passwd", "root:x:0:0\n"}},
            "tar"));
        auto outcome = tests::analyze(archive);
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& r = *outcome.result;
        int rejected = 0;
        for (const auto& f : r.fileCoverage) {
            if (f.path.find("passwd") != std::string::npos || f.path.find("cron") != std::string::npos) {
                QCOMPARE(f.status, engine::CoverageStatus::Errored);
                QCOMPARE(f.errors.size(), std::size_t(1));
                QVERIFY(f.errors[0].find("rejected") != std::string::npos);
                ++rejected;
            }
        }
        QCOMPARE(rejected, 2);
        QVERIFY(!fs::exists(dir.path().toStdString() + "/etc"));
        QCOMPARE(r.verdict.terminalState, std::string("hardware_failure"));
        QCOMPARE(unsafeMemberPath("a/../b"), std::string("path escapes the bundle (..): rejected"));
        QVERIFY(!unsafeMemberPath("C:\\x").empty());
        QVERIFY(unsafeMemberPath("a/..b/c").empty());
    }

    void decompressionLimits()
    {
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "bundle";
        std::string lines;
        for (int i = 0; i < 400000; ++i)
            lines += "[ 1.000000] the same line again and again\n";  // 17 MB, compresses ~1000:1
        QVERIFY(tests::writeArchive((root / "nodes/n1/bomb.zip").string(), {{"dmesg.txt", lines}}, "zip"));
        tests::writeFile(root / "nodes/n1/kern.log", XidLine);
        auto outcome = tests::analyze(root.string());
        QVERIFY(outcome.result);
        const auto* bomb = tests::fileCoverage(*outcome.result, "nodes/n1/bomb.zip/dmesg.txt");
        QVERIFY(bomb);
        QCOMPARE(bomb->status, engine::CoverageStatus::Partial);
        QCOMPARE(bomb->errors.size(), std::size_t(1));
        QVERIFY2(bomb->errors[0].find("decompression ratio over 200:1") != std::string::npos, bomb->errors[0].c_str());
        QCOMPARE(outcome.result->verdict.terminalState, std::string("hardware_failure"));
        // A total cap, set through AnalyzeOptions.
        AnalyzeOptions options;
        options.maxDecompressedBytes = 1 << 20;
        options.maxCompressionRatio = 1e9;
        auto capped = tests::analyze(root.string(), options);
        QVERIFY(capped.result);
        const auto* cut = tests::fileCoverage(*capped.result, "nodes/n1/bomb.zip/dmesg.txt");
        QVERIFY(cut && !cut->errors.empty());
        QVERIFY2(cut->errors[0].find("decompressed size cap") != std::string::npos, cut->errors[0].c_str());
    }

    void damagedAndForeignInputs()
    {
        QTemporaryDir dir;
        const std::string good = dir.path().toStdString() + "/good.tgz";
        std::vector<std::pair<std::string, std::string>> members{{"b/nodes/n1/kern.log", XidLine}};
        std::string filler;
        for (int i = 0; i < 20000; ++i)
            filler += std::to_string(i * 7919 % 10007) + " filler line that does not compress too well\n";
        members.emplace_back("b/nodes/n1/zz-late.log", filler);
        QVERIFY(tests::writeArchive(good, members, "tgz"));
        const std::string bytes = tests::readText(good);
        const std::string cut = dir.path().toStdString() + "/cut.tgz";
        tests::writeFile(cut, bytes.substr(0, bytes.size() / 2));
        auto outcome = tests::analyze(cut);
        QVERIFY2(outcome.result, outcome.error.c_str());
        bool reported = false;
        for (const auto& f : outcome.result->fileCoverage)
            reported = reported || (f.status != engine::CoverageStatus::Ok && !f.errors.empty());
        QVERIFY(reported);
        QCOMPARE(outcome.result->verdict.terminalState, std::string("hardware_failure"));
        const std::string text = dir.path().toStdString() + "/notes.txt";
        tests::writeFile(text, "just text\n");
        auto foreign = tests::analyze(text);
        QVERIFY(!foreign.result);
        QVERIFY(foreign.error.find("not a bundle folder or archive") != std::string::npos);
        const std::string garbage = dir.path().toStdString() + "/garbage.zip";
        tests::writeFile(garbage, std::string("PK\x03\x04", 4) + std::string(100, '\x7f'));
        auto broken = tests::analyze(garbage);
        QVERIFY(!broken.result);
        QVERIFY2(broken.error.rfind(garbage + ": ", 0) == 0, broken.error.c_str());
    }

    void archivesInsideArchivesAreNotExpanded()
    {
        QTemporaryDir dir;
        const std::string base = dir.path().toStdString();
        QVERIFY(tests::writeArchive(base + "/inner.tgz", {{"kern.log", XidLine}}, "tgz"));
        QVERIFY(tests::writeArchive(
            base + "/outer.zip",
            {{"b/nodes/n1/kern.log", XidLine}, {"b/nodes/n1/inner.tgz", tests::readText(base + "/inner.tgz")}}, "zip"));
        auto outcome = tests::analyze(base + "/outer.zip");
        QVERIFY(outcome.result);
        const auto* inner = tests::fileCoverage(*outcome.result, "nodes/n1/inner.tgz");
        QVERIFY(inner);
        QCOMPARE(inner->status, engine::CoverageStatus::Skipped);
        QVERIFY(inner->errors[0].find("archive inside an archive") != std::string::npos);
    }

    void openBundleFileReadsEveryKind()
    {
        QTemporaryDir dir;
        const std::string base = dir.path().toStdString();
        const std::string text = "line one\nline two\nline three\n";
        tests::writeFile(base + "/plain.log", text);
        QVERIFY(tests::writeArchive(base + "/packed.log.gz", {{"x", text}}, "gz"));
        QVERIFY(tests::writeArchive(base + "/inner.gz", {{"x", text}}, "gz"));
        QVERIFY(tests::writeArchive(base + "/b.tar",
                                    {{"b/a.log", text}, {"b/c.log.gz", tests::readText(base + "/inner.gz")}}, "tar"));
        const std::vector<engine::BundleFile> files{{"plain.log", base + "/plain.log", "", text.size()},
                                                    {"packed.log.gz", base + "/packed.log.gz", "", 0},
                                                    {"a.log", base + "/b.tar", "b/a.log", text.size()},
                                                    {"c.log.gz", base + "/b.tar", "b/c.log.gz", 0}};
        for (const auto& f : files) {
            std::string error;
            QCOMPARE(readBundleBytes(f, 9, 8, error), std::string("line two"));
            QVERIFY2(error.empty(), error.c_str());
            const auto lines = readBundleLines(f, 0, text.size(), error);
            QCOMPARE(lines.size(), std::size_t(3));
            QCOMPARE(lines[2], std::string("line three"));
            QVERIFY(openBundleFile(f, error));
        }
        std::string error;
        QVERIFY(!openBundleFile({"gone", base + "/b.tar", "b/gone.log", 0}, error));
        QVERIFY(error.find("not found") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestArchive)
#include "tst_archive.moc"
