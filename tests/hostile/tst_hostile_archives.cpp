// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile class "bounded work": decompression bombs in rejected and skipped members, member floods through
// links to one archive, deep folder nesting, files growing or turning into FIFOs while read. Each ends within
// the suite's time and memory caps with a verdict or a named coverage error.
#include "../common/test_catalog.h"
#include "hostile_gen.h"
#include "hostile_run.h"
#include "hostile_scratch.h"

#include "importers/archive.h"
#include "importers/bundle.h"
#include "importers/file_open.h"

#include <QtTest>

#include <atomic>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace attrib;
namespace fs = std::filesystem;

namespace {

const char* const XidLine =
    "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, pid=1, GPU has fallen off the bus.\n";

/// A small genuine member first, then a rejected (absolute path) member declaring `bomb` bytes of zeros.
std::string bombTar(std::uint64_t bomb)
{
    const std::string head = tests::tarMember("bundle/nodes/node-07/kern.log", XidLine);
    return tests::zstdFrame(head + tests::tarHeader("/etc/evil.log", bomb), bomb, tests::tarEnd());
}

/// Removes a chain of folders named `name` too deep for path-based removal: the level below the top moves up
/// one level at a time (a few descriptors open at any moment).
void removeDeep(const fs::path& top)
{
    const int fd = ::open(top.c_str(), O_RDONLY | O_DIRECTORY);
    for (;;) {
        const int level = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
        if (level < 0)
            break;
        const bool more = ::renameat(level, "d", fd, "d.next") == 0;
        ::close(level);
        ::unlinkat(fd, "d", AT_REMOVEDIR);
        if (!more || ::renameat(fd, "d.next", fd, "d") != 0)
            break;
    }
    ::close(fd);
}

}  // namespace

class TestHostileArchives : public QObject {
    Q_OBJECT

private:
    tests::ScratchRoot m_tmp;

private Q_SLOTS:
    void rejectedMemberBombStopsAtTheRatio()
    {
        // 40 GiB of zeros behind an absolute path, 1.3 MB on disk: skipping it must not decompress it all.
        const fs::path dir = m_tmp.scratch("bomb");
        tests::writeFile(dir / "bundle.tar.zst", bombTar(40ULL << 30));
        const auto r = tests::analyzeLimited(dir / "bundle.tar.zst", dir);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("ratio") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("node-07") != std::string::npos, r.out.c_str());
        qInfo("bomb in a rejected member: %s", r.summary().c_str());
    }

    void rejectedMemberBombInATarGzStopsAtTheRatio()
    {
        // The gzip path (zlib, so that the trailer is checked) must charge skipped bytes like libarchive's filters.
        const fs::path dir = m_tmp.scratch("gzbomb");
        const std::string head =
            tests::tarMember("bundle/nodes/node-07/kern.log", XidLine) + tests::tarHeader("/etc/evil.log", 1ULL << 30);
        tests::writeFile(dir / "bundle.tar.gz", tests::gzipZeros(head, 1ULL << 30, tests::tarEnd()));
        const auto r = tests::analyzeLimited(dir / "bundle.tar.gz", dir);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("ratio") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("node-07") != std::string::npos, r.out.c_str());
        qInfo("gzip bomb in a rejected member: %s", r.summary().c_str());
    }

    void bombInAFolderArchiveIsBoundedToo()
    {
        const fs::path dir = m_tmp.scratch("folder-bomb");
        fs::copy(tests::samplePath("nvlink-xid149"), dir / "bundle", fs::copy_options::recursive);
        tests::writeFile(dir / "bundle" / "extra.tar.zst", bombTar(40ULL << 30));
        const auto r = tests::analyzeLimited(dir / "bundle", dir);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
        std::string error;
        bool stopped = false;
        for (const auto& e : importers::listBundle((dir / "bundle").string(), error))
            stopped |= e.file.path == "extra.tar.zst" && e.problem.find("ratio") != std::string::npos;
        QVERIFY(stopped);
    }

    void membersAreCappedPerAnalysis()
    {
        std::string tar;
        for (int i = 0; i < 300; ++i)
            tar += tests::tarMember("m" + std::to_string(i) + ".log", "x\n");
        tar += tests::tarEnd();
        const fs::path dir = m_tmp.scratch("members");
        tests::writeFile(dir / "a.tar", tar);
        tests::writeFile(dir / "b.tar", tar);
        importers::ArchiveLimits limits;
        limits.maxMembersTotal = 500;
        std::string error;
        const auto entries = importers::listBundle(dir.string(), limits, error);
        std::size_t capped = 0;
        for (const auto& e : entries)
            capped += e.problem.find("per analysis") != std::string::npos;
        QCOMPARE(capped, std::size_t(1));
        QVERIFY(entries.size() <= 502);
    }

    void linksToOneArchiveAreReadOnce()
    {
        std::string tar;
        for (int i = 0; i < 20000; ++i)
            tar += tests::tarMember("nodes/node-" + std::to_string(i % 50) + "/m" + std::to_string(i) + ".log", "x\n");
        tar += tests::tarEnd();
        const fs::path dir = m_tmp.scratch("links");
        tests::writeFile(dir / "bundle" / "a.tar.gz", tests::gzipOf(tar));
        for (int i = 0; i < 40; ++i)
            fs::create_hard_link(dir / "bundle" / "a.tar.gz", dir / "bundle" / ("link" + std::to_string(i) + ".tgz"));
        const auto r = tests::analyzeLimited(dir / "bundle", dir);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        qInfo("40 links to a 20k-member archive: %s", r.summary().c_str());
        std::string error;
        std::size_t same = 0;
        for (const auto& e : importers::listBundle((dir / "bundle").string(), error))
            same += e.problem.find("the same archive") != std::string::npos;
        QCOMPARE(same, std::size_t(40));
    }

    void deepNestingIsCut()
    {
        const fs::path dir = m_tmp.scratch("deep");
        fs::copy(tests::samplePath("nvlink-xid149"), dir / "bundle", fs::copy_options::recursive);
        int fd = ::open((dir / "bundle").c_str(), O_RDONLY | O_DIRECTORY);
        for (int i = 0; i < 10000; ++i) {
            QVERIFY(::mkdirat(fd, "d", 0755) == 0);
            const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
            ::close(fd);
            fd = next;
        }
        const int file = ::openat(fd, "deep.log", O_WRONLY | O_CREAT, 0644);
        QVERIFY(::write(file, XidLine, std::strlen(XidLine)) > 0);
        ::close(file);
        ::unlinkat(fd, "deep.log", 0);
        ::close(fd);
        const auto r = tests::analyzeLimited(dir / "bundle", dir);
        removeDeep(dir / "bundle");
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("nested deeper than") != std::string::npos, r.out.c_str());
        qInfo("10,000 nested folders: %s", r.summary().c_str());
    }

    void fifoIsRefusedWhenOpened()
    {
        const fs::path dir = m_tmp.scratch("fifo");
        QVERIFY(::mkfifo((dir / "pipe.log").c_str(), 0644) == 0);
        std::string error;
        const auto read = importers::regularFileReader((dir / "pipe.log").string(), error);
        QVERIFY(!read);
        QVERIFY2(error.find("pipe") != std::string::npos, error.c_str());
        QCOMPARE(importers::probeFile((dir / "pipe.log").string()), importers::Container::Plain);
    }

    void growingFileIsReadToItsSizeAtOpen()
    {
        const fs::path dir = m_tmp.scratch("growing");
        fs::copy(tests::samplePath("nvlink-xid149"), dir / "bundle", fs::copy_options::recursive);
        const fs::path log = dir / "bundle" / "nodes" / "node-01" / "growing.log";
        tests::writeFile(log, std::string(XidLine));
        std::atomic<bool> stop{false};
        std::thread writer([&] {
            const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
            const std::string chunk(std::size_t{64} * 1024, 'x');
            while (!stop) {
                if (::write(fd, chunk.data(), chunk.size()) < 0)
                    break;
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            ::close(fd);
        });
        const auto r = tests::analyzeLimited(dir / "bundle", dir);
        stop = true;
        writer.join();
        fs::remove(log);
        QVERIFY2(!r.timedOut && r.exitCode == 0, r.summary().c_str());
        QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
    }

    void growthAndTruncationWhileReadingAreErrors()
    {
        const fs::path dir = m_tmp.scratch("size-changes");
        const fs::path log = dir / "a.log";
        tests::writeFile(log, std::string(1000, 'a'));
        std::string error;
        auto stream = std::make_shared<std::string>();
        const auto read = importers::regularFileReader(log.string(), error, stream);
        QVERIFY(read);
        std::vector<char> buffer(600);
        QCOMPARE(read(buffer.data(), buffer.size()), 600L);
        std::ofstream(log, std::ios::app) << std::string(5000, 'b');
        QCOMPARE(read(buffer.data(), buffer.size()), 400L);  // up to the size at open, not beyond
        QCOMPARE(read(buffer.data(), buffer.size()), -1L);
        QVERIFY2(stream->find("grew while being read") != std::string::npos, stream->c_str());

        tests::writeFile(log, std::string(1000, 'a'));
        const auto cut = importers::regularFileReader(log.string(), error, stream);
        QCOMPARE(cut(buffer.data(), buffer.size()), 600L);
        fs::resize_file(log, 700);
        QCOMPARE(cut(buffer.data(), buffer.size()), 100L);
        QCOMPARE(cut(buffer.data(), buffer.size()), -1L);
        QVERIFY2(stream->find("truncated while being read") != std::string::npos, stream->c_str());
    }
};

QTEST_APPLESS_MAIN(TestHostileArchives)
#include "tst_hostile_archives.moc"
