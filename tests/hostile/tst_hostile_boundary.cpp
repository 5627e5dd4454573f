// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile class "bundle boundary": links out of a folder bundle, tar hard-link entries carrying forged data,
// unreadable folders, a lone nodes/ top folder, gzip CRC and truncation errors, impossible years. Each is a
// coverage error (named) or handled, never a silent `ok` or a verdict built from outside the bundle.
#include "../common/test_catalog.h"
#include "hostile_gen.h"
#include "hostile_run.h"
#include "hostile_scratch.h"

#include "importers/analyzer.h"
#include "importers/bundle_access.h"

#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace attrib;
namespace fs = std::filesystem;

namespace {

const char* const FallenOffBus =
    "[Wed Apr 22 21:30:00 2026] NVRM: Xid (PCI:0000:61:00): 79, pid=1, GPU has fallen off the bus.\n";

/// The sample's files as tar members under `prefix` (no workload.json, no metadata).
std::string sampleNodesTar(const std::string& prefix, std::uint64_t mtime = 1776890000)
{
    std::string tar;
    const fs::path sample = tests::samplePath("nvlink-xid149");
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(sample / "nodes"))
        if (e.is_regular_file())
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        tar +=
            tests::tarMember(prefix + f.lexically_relative(sample).generic_string(), tests::slurp(f), '0', {}, mtime);
    return tar;
}

/// Every coverage error of an analysis (the CLI shows the first 8 per collector).
std::string coverageErrors(const std::filesystem::path& bundle)
{
    const auto outcome = importers::analyzeBundle(bundle.string(), tests::sourceCatalog());
    std::string out;
    if (outcome.result)
        for (const auto& f : outcome.result->fileCoverage)
            for (const auto& e : f.errors)
                out += e + "\n";
    return out;
}

}  // namespace

class TestHostileBoundary : public QObject {
    Q_OBJECT

private:
    tests::ScratchRoot m_tmp;

private Q_SLOTS:
    void linksStayInsideTheBundle()
    {
        const fs::path dir = m_tmp.scratch("links");
        const fs::path bundle = dir / "bundle";
        fs::copy(tests::samplePath("nvlink-xid149"), bundle, fs::copy_options::recursive);
        tests::writeFile(dir / "outside" / "xid.log", FallenOffBus);
        fs::create_symlink(dir / "outside" / "xid.log", bundle / "nodes" / "node-03" / "outside.log");
        fs::create_symlink("/etc/passwd", bundle / "nodes" / "node-03" / "passwd.log");
        fs::create_symlink("/proc/kmsg", bundle / "nodes" / "node-03" / "kmsg.log");
        fs::create_symlink("loop.log", bundle / "loop.log");
        tests::writeFile(bundle / "extra" / "inside.txt", "hello\n");
        fs::create_symlink("../../extra/inside.txt", bundle / "nodes" / "node-04" / "inside.log");
        const auto r = tests::analyzeLimited(bundle, dir);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
        const std::string errors = coverageErrors(bundle);
        for (const char* name : {"outside.log", "passwd.log", "kmsg.log"}) {
            const auto at = errors.find(std::string(name) + ": symbolic link to ");
            QVERIFY2(at != std::string::npos, errors.c_str());
            QVERIFY2(errors.find("outside the bundle", at) != std::string::npos, errors.c_str());
        }
        QVERIFY2(errors.find("loop.log: broken or looping") != std::string::npos, errors.c_str());
        QVERIFY2(errors.find("inside.log: symbolic") == std::string::npos, errors.c_str());
    }

    void unreadableFolderIsACoverageError()
    {
        // Root reads any folder, so as root the analysis runs as `nobody`: the scratch space must let it in.
        const fs::path dir = m_tmp.scratch("unreadable");
        const auto open = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
            fs::perms::others_read | fs::perms::others_exec;
        fs::permissions(m_tmp.root(), open);
        fs::copy(tests::samplePath("nvlink-xid149"), dir / "bundle", fs::copy_options::recursive);
        for (const auto& e : fs::recursive_directory_iterator(dir))
            fs::permissions(e.path(),
                            e.is_directory() ? open
                                             : fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                    fs::perms::others_read);
        fs::permissions(dir, fs::perms::all);  // the child writes its output here
        fs::permissions(dir / "bundle" / "nodes" / "node-04", fs::perms::none);
        const auto r = tests::analyzeLimited(dir / "bundle", dir, {}, tests::RunAs::Unprivileged);
        fs::permissions(dir / "bundle" / "nodes" / "node-04", fs::perms::owner_all);
        if (r.exitCode == tests::UnreachableExit)
            QSKIP("the build folder cannot be reached by the unprivileged user this test runs the analysis as");
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("folder cannot be read") != std::string::npos, r.out.c_str());
    }

    void hardLinkEntryWithDataIsNotTheEvidence()
    {
        const fs::path dir = m_tmp.scratch("hardlink");
        const std::string forged = std::string(4096, '#') + "\nFORGED root cause line\n";
        // A pax archive: libarchive takes a pax hard-link entry's size (and data) at its word.
        const std::string pax = tests::tarMember("bundle/PaxHeader", "17 comment=hello\n", 'x');
        const std::string tar = pax + tests::tarMember("bundle/nodes/node-02/dmesg.txt", forged, '1', "bundle/x") +
            sampleNodesTar("bundle/") + tests::tarEnd();
        tests::writeFile(dir / "b.tar", tar);
        const auto outcome = importers::analyzeBundle((dir / "b.tar").string(), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const auto& result = *outcome.result;
        QVERIFY(result.verdict.rootCause);
        const auto* o = result.observation(result.verdict.rootCause->decisiveObservation);
        QVERIFY(o);
        std::string error;
        const std::string shown =
            importers::readBundleBytes(result.files[o->source.file], o->source.offset, o->source.length, error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY2(shown.find("FORGED") == std::string::npos && shown.find('#') == std::string::npos, shown.c_str());
        QVERIFY2(shown.find(o->text.substr(0, 30)) != std::string::npos, (shown + " | " + o->text).c_str());
    }

    void loneNodesFolderKeepsNodeNames()
    {
        const fs::path dir = m_tmp.scratch("nodes-top");
        tests::writeFile(dir / "b.tar", sampleNodesTar("") + tests::tarEnd());
        const auto r = tests::analyzeLimited(dir / "b.tar", dir);
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("on node-02 GPU 3") != std::string::npos, r.out.c_str());
    }

    void impossibleYearsAreReported()
    {
        const fs::path dir = m_tmp.scratch("epoch");
        const std::string tar = tests::tarMember("b/nodes/node-09/kern.log",
                                                 "Apr 22 21:30:00 node-09 kernel: NVRM: Xid (PCI:0000:61:00): 79, "
                                                 "pid=1, GPU has fallen off the bus.\n",
                                                 '0', {}, 0) +
            tests::tarEnd();
        tests::writeFile(dir / "b.tar", tar);
        const auto r = tests::analyzeLimited(dir / "b.tar", dir);
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("implausible file time (year 1970)") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("1970-") == std::string::npos, r.out.c_str());
    }

    void gzipDamageIsReported()
    {
        const fs::path dir = m_tmp.scratch("gzip");
        const std::string dmesg =
            tests::slurp(fs::path(tests::samplePath("nvlink-xid149")) / "nodes" / "node-02" / "dmesg.txt");
        fs::copy(tests::samplePath("nvlink-xid149"), dir / "bundle", fs::copy_options::recursive);
        fs::remove(dir / "bundle" / "nodes" / "node-02" / "dmesg.txt");
        std::string gz = tests::gzipOf(dmesg);
        gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x55);  // CRC-32 of the trailer
        tests::writeFile(dir / "bundle" / "nodes" / "node-02" / "dmesg.txt.gz", gz);
        std::string kern;
        for (int i = 0; i < 50; ++i)
            kern += tests::slurp(fs::path(tests::samplePath("nvlink-xid149")) / "nodes" / "node-01" / "kern.log");
        QVERIFY(kern.size() > 100000);
        const std::string whole = tests::gzipOf(kern);
        tests::writeFile(dir / "bundle" / "nodes" / "node-03" / "cut.log.gz", whole.substr(0, whole.size() / 2));
        const auto r = tests::analyzeLimited(dir / "bundle", dir);
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
        const std::string errors = coverageErrors(dir / "bundle");
        QVERIFY2(errors.find("dmesg.txt.gz: reading stopped") != std::string::npos &&
                     errors.find("CRC-32/length check failed") != std::string::npos,
                 errors.c_str());
        QVERIFY2(errors.find("cut.log.gz: reading stopped") != std::string::npos &&
                     errors.find("gzip data is truncated") != std::string::npos,
                 errors.c_str());
    }

    void tarGzTrailerDamageIsReported()
    {
        const fs::path dir = m_tmp.scratch("targz");
        const std::string tar = sampleNodesTar("job/") + tests::tarEnd();
        std::string gz = tests::gzipOf(tar);
        gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x55);  // CRC-32 of the trailer
        tests::writeFile(dir / "crc.tar.gz", gz);
        const auto r = tests::analyzeLimited(dir / "crc.tar.gz", dir);
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());  // members intact
        const std::string errors = coverageErrors(dir / "crc.tar.gz");
        QVERIFY2(errors.find("crc.tar.gz: damaged archive: gzip CRC-32/length check failed") != std::string::npos,
                 errors.c_str());

        const std::string whole = tests::gzipOf(tar);
        tests::writeFile(dir / "cut.tar.gz", whole.substr(0, whole.size() - 4));  // length field cut off
        const std::string cut = coverageErrors(dir / "cut.tar.gz");
        QVERIFY2(cut.find("cut.tar.gz: damaged archive: the gzip data is truncated") != std::string::npos, cut.c_str());

        tests::writeFile(dir / "fine.tar.gz", whole);
        QVERIFY2(coverageErrors(dir / "fine.tar.gz").empty(), coverageErrors(dir / "fine.tar.gz").c_str());
    }
};

QTEST_APPLESS_MAIN(TestHostileBoundary)
#include "tst_hostile_boundary.moc"
