// SPDX-License-Identifier: GPL-3.0-or-later
// The "nasty" bundle: every hostile or broken input at once (invalid UTF-8, NUL bytes, a 100 MB line, an empty
// file, an unreadable file, a symlink loop, a truncated gzip, a zip bomb, a binary file). The analysis completes,
// each bad file gets one coverage error naming it, the good evidence still gives the verdict, memory stays
// bounded. Everything is generated at run time (nothing large is committed). Run it under `make asan` too.
#include "importer_test_util.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <unistd.h>

using namespace attrib;
using namespace attrib::importers;
namespace fs = std::filesystem;

namespace {

const std::string XidLine =
    "Apr 22 21:34:20 n1 kernel: [ 3258.118251] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', "
    "name=<unknown>, GPU has fallen off the bus.\n";

/// Resets the peak resident memory to the current one (Linux: "5" into clear_refs).
void resetPeakRss()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

/// Peak resident memory of this process in KiB (VmHWM), 0 when unknown.
long peakRssKb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::atol(line.c_str() + 6);
    return 0;
}

void writeHugeLine(const fs::path& path, std::size_t bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << "[Wed Apr 22 21:00:00 2026] ";
    const std::string block(1 << 20, 'A');
    for (std::size_t written = 0; written < bytes; written += block.size())
        out.write(block.data(), static_cast<std::streamsize>(block.size()));
    out << "\n[Wed Apr 22 21:00:01 2026] NVRM: loading NVIDIA UNIX x86_64 Kernel Module\n";
}

/// path -> what its coverage error must mention.
std::map<std::string, std::string> buildNastyBundle(const fs::path& root)
{
    tests::writeFile(root / "nodes/n1/kern.log",
                     "Apr 22 21:30:00 n1 kernel: [ 3018.0] usb 1-1: new device\n" + XidLine);
    tests::writeFile(root / "nodes/n1/utf8.log",
                     "[ 1.000000] caf\xe9 latin-1 byte\n[ 2.000000] bad \xff\xfe\xc3\x28 sequence\n[ 3.000000] fine\n");
    tests::writeFile(root / "nodes/n1/nul.log",
                     "[ 1.000000] before the crash\n[ 2.000000] still fine\n[ 3.000000] x\n" + std::string(8192, '\0') +
                         "[ 4.000000] after the reboot\n");
    writeHugeLine(root / "nodes/n1/huge.log", 100u << 20);
    tests::writeFile(root / "nodes/n1/empty.log", "");
    tests::writeFile(root / "nodes/n2/secret.log", "[ 1.000000] you cannot read me\n");
    if (::geteuid() == 0) {  // root reads everything: a file whose every read fails stands in for it
        fs::remove(root / "nodes/n2/secret.log");
        fs::create_symlink("/proc/self/mem", root / "nodes/n2/secret.log");
    } else {
        fs::permissions(root / "nodes/n2/secret.log", fs::perms::none);
    }
    fs::create_symlink("loop-b", root / "nodes/n2/loop-a");
    fs::create_symlink("loop-a", root / "nodes/n2/loop-b");
    std::string text;
    for (int i = 0; i < 20000; ++i)
        text += "[ " + std::to_string(i) + ".000000] line " + std::to_string(i * 7919 % 10007) + "\n";
    tests::writeArchive((root / "nodes/n2/full.log.gz").string(), {{"x", text}}, "gz");
    const std::string gz = tests::readText((root / "nodes/n2/full.log.gz").string());
    fs::remove(root / "nodes/n2/full.log.gz");
    tests::writeFile(root / "nodes/n2/truncated.log.gz", gz.substr(0, gz.size() / 2));
    std::string bomb;
    for (int i = 0; i < 400000; ++i)
        bomb += "[ 1.000000] the same line again and again\n";
    tests::writeArchive((root / "nodes/n2/bomb.zip").string(), {{"dmesg.txt", bomb}}, "zip");
    tests::writeFile(root / "nodes/n2/core.bin",
                     std::string("\x7f"
                                 "ELF\x02\x01\x01",
                                 7) +
                         std::string(4096, '\x01'));
    return {{"nodes/n1/utf8.log", "invalid UTF-8"},
            {"nodes/n1/nul.log", "NUL bytes"},
            {"nodes/n1/huge.log", "cut at"},
            {"nodes/n1/empty.log", "empty file"},
            {"nodes/n2/secret.log", ""},
            {"nodes/n2/loop-a", "symbolic link"},
            {"nodes/n2/loop-b", "symbolic link"},
            {"nodes/n2/truncated.log.gz", "reading stopped"},
            {"nodes/n2/bomb.zip/dmesg.txt", "zip bomb"},
            {"nodes/n2/core.bin", "binary"}};
}

}  // namespace

class TestNasty : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyBrokenInputIsReportedAndTheRestAnalysed()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const auto bad = buildNastyBundle(root);
        tests::sourceCatalog();  // loaded before the measure: the bound is on reading the bundle, not on the catalog
        resetPeakRss();
        const long before = peakRssKb();
        auto outcome = tests::analyze(root.string());
        const long after = peakRssKb();
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& r = *outcome.result;
        QCOMPARE(r.verdict.terminalState, std::string("hardware_failure"));
        QCOMPARE(r.verdict.rootCause->node, std::string("n1"));
        for (const auto& [path, reason] : bad) {
            const auto* cov = tests::fileCoverage(r, path);
            QVERIFY2(cov, path.c_str());
            QVERIFY2(cov->status != engine::CoverageStatus::Ok, path.c_str());
            QVERIFY2(cov->errors.size() == 1, (path + ": " + std::to_string(cov->errors.size()) + " errors").c_str());
            QVERIFY2(cov->errors[0].rfind(path + ": ", 0) == 0, cov->errors[0].c_str());
            QVERIFY2(cov->errors[0].find(reason) != std::string::npos, cov->errors[0].c_str());
        }
        const auto* good = tests::fileCoverage(r, "nodes/n1/kern.log");
        QCOMPARE(good->status, engine::CoverageStatus::Ok);
        // The NUL block did not swallow the line after it; the huge line counts as one line.
        const auto nul = tests::readAll(tests::readText((root / "nodes/n1/nul.log").string()), "nul.log");
        QCOMPARE(nul.records.size(), std::size_t(4));
        QCOMPARE(nul.records[3].text, std::string("after the reboot"));
        QCOMPARE(tests::fileCoverage(r, "nodes/n1/nul.log")->lines, std::uint64_t(4));
        QCOMPARE(tests::fileCoverage(r, "nodes/n1/huge.log")->lines, std::uint64_t(2));
        // Memory stays bounded: the 100 MB line and the 17 MB bomb are streamed, never held. (AddressSanitizer
        // keeps freed blocks in quarantine, up to 256 MiB by default, so the bound is looser under it.)
#if defined(__SANITIZE_ADDRESS__)
        constexpr long limitKb = 1024 * 1024;
#else
        constexpr long limitKb = 64L * 1024;
#endif
        qInfo("peak RSS grew by %ld MiB during the analysis", (after - before) / 1024);
        if (before > 0 && after > 0)
            QVERIFY2(after - before < limitKb, (std::to_string((after - before) / 1024) + " MiB").c_str());
    }

    void truncationMarkerOnKeptLines()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        std::string line =
            "Apr 22 21:34:20 n1 kernel: [ 3258.1] NVRM: Xid (PCI:0000:61:00): 79, GPU has fallen off the "
            "bus. ";
        line += std::string(3 << 20, 'x') + "\n";
        tests::writeFile(root / "nodes/n1/kern.log", line);
        auto outcome = tests::analyze(root.string());
        QVERIFY(outcome.result);
        bool marked = false;
        for (const auto& o : outcome.result->observations)
            marked = marked || (o.text.find("[... line of") != std::string::npos && o.text.size() < (2u << 20));
        QVERIFY(marked);
    }
};

QTEST_APPLESS_MAIN(TestNasty)
#include "tst_nasty.moc"
