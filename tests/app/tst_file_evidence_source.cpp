// SPDX-License-Identifier: GPL-3.0-or-later
// The bundle-backed EvidenceSource: background line index, lines read by offset, records, rule-matched
// spans from the catalog, background search, UTF-16 text decoded as the importer reads it, and files that cannot be
// re-read.
#include "../common/test_catalog.h"

#include "app/gui/file_evidence_source.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace attrib;
using namespace attrib::app;

namespace {

engine::BundleFile writeLines(const QTemporaryDir& dir, const QString& name, int lines)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream out(path, std::ios::binary);
    for (int i = 1; i <= lines; ++i)
        out << "line " << i << (i % 1000 == 0 ? " marker" : "") << "\n";
    return {name.toStdString(), path, {}, static_cast<std::uint64_t>(out.tellp())};
}

}  // namespace

class TestFileEvidenceSource : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void indexesInTheBackgroundAndReadsByOffset()
    {
        FileEvidenceSource source({writeLines(m_dir, QStringLiteral("a.log"), 300'000)}, nullptr);
        QSignalSpy progress(&source, &views::EvidenceSource::lineCountChanged);
        QElapsedTimer timer;
        timer.start();
        views::LineCount count = source.lineCount(0);
        QVERIFY(count.available);
        QVERIFY(!count.complete || count.lines == 300'000);
        QTRY_VERIFY(source.lineCount(0).lines > 0);
        QVERIFY(source.readLines(0, 0, 3) ==
                (QStringList{QStringLiteral("line 1"), QStringLiteral("line 2"), QStringLiteral("line 3")}));
        QTRY_VERIFY_WITH_TIMEOUT(source.lineCount(0).complete, 20000);
        QCOMPARE(source.lineCount(0).lines, qint64(300'000));
        QVERIFY(!progress.isEmpty());
        const QStringList tail = source.readLines(0, 249'998, 4);
        QCOMPARE(tail,
                 (QStringList{QStringLiteral("line 249999"), QStringLiteral("line 250000 marker"),
                              QStringLiteral("line 250001"), QStringLiteral("line 250002")}));
        QCOMPARE(source.readLines(0, 299'999, 10).size(), 1);
        QVERIFY(source.readLines(0, 300'000, 1).isEmpty());
        QCOMPARE(source.readRecord(0, 7, 7), QStringLiteral("line 2"));
    }

    void searchesInTheBackground()
    {
        FileEvidenceSource source({writeLines(m_dir, QStringLiteral("b.log"), 20'000)}, nullptr);
        QFuture<QVector<qint64>> future = source.findLines(0, {QStringLiteral("MARKER"), false, Qt::CaseInsensitive});
        future.waitForFinished();
        QVector<qint64> hits;
        for (const auto& batch : future.results())
            hits += batch;
        QCOMPARE(hits.size(), 20);
        QCOMPARE(hits.front(), qint64(999));
        future = source.findLines(0, {QStringLiteral("MARKER"), false, Qt::CaseSensitive});
        future.waitForFinished();
        QCOMPARE(future.resultCount(), 0);
    }

    void spansComeFromTheCatalog()
    {
        FileEvidenceSource source({}, tests::sourceCatalog());
        const QString line = QStringLiteral("NVRM: Xid (PCI:0000:61:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 07");
        const QList<views::TextSpan> spans = source.matchSpans(engine::SourceKind::Kernel, line);
        QVERIFY(!spans.isEmpty());
        QCOMPARE(spans.front().start, 0);
        QVERIFY(!spans.front().capture);
        bool xid = false;
        for (const auto& s : spans)
            xid = xid || (s.capture && line.mid(s.start, s.length) == QStringLiteral("149"));
        QVERIFY(xid);
        // Xid rules read kernel-like logs (and relays of them), not Fabric Manager's log.
        QVERIFY(source.matchSpans(engine::SourceKind::FabricManager, line).isEmpty());
        // Offsets are UTF-16 positions even after multi-byte characters.
        const QString accented = QStringLiteral("\u00e9\u00e9 ") + line;
        const auto shifted = source.matchSpans(engine::SourceKind::Kernel, accented);
        QVERIFY(!shifted.isEmpty());
        QCOMPARE(accented.mid(shifted.front().start, 9), QStringLiteral("NVRM: Xid"));
    }

    void compressedFilesAndArchiveMembers()
    {
        const engine::BundleFile plain = writeLines(m_dir, QStringLiteral("c.log"), 5000);
        QCOMPARE(QProcess::execute(QStringLiteral("gzip"),
                                   {QStringLiteral("-k"), QString::fromStdString(plain.absolutePath)}),
                 0);
        QCOMPARE(QProcess::execute(QStringLiteral("tar"),
                                   {QStringLiteral("czf"), m_dir.filePath(QStringLiteral("c.tgz")),
                                    QStringLiteral("-C"), m_dir.path(), QStringLiteral("c.log")}),
                 0);
        const engine::BundleFile gz{"c.log.gz", plain.absolutePath + ".gz", {}, 0};
        const engine::BundleFile member{"c.tgz/c.log", m_dir.filePath(QStringLiteral("c.tgz")).toStdString(), "c.log",
                                        0};
        FileEvidenceSource source({gz, member}, nullptr);
        for (int file : {0, 1}) {
            QVERIFY(source.lineCount(file).available);
            QTRY_VERIFY_WITH_TIMEOUT(source.lineCount(file).complete, 20000);
            QCOMPARE(source.lineCount(file).lines, qint64(5000));
            QCOMPARE(source.readLines(file, 3999, 2),
                     (QStringList{QStringLiteral("line 4000 marker"), QStringLiteral("line 4001")}));
            QCOMPARE(source.readLines(file, 4001, 1),
                     QStringList{QStringLiteral("line 4002")});  // from the block cache
            QCOMPARE(source.readRecord(file, 7, 7), QStringLiteral("line 2"));
        }
        QFuture<QVector<qint64>> found = source.findLines(1, {QStringLiteral("marker"), false, Qt::CaseSensitive});
        found.waitForFinished();
        QCOMPARE(found.results().value(0).size(), 5);
    }

    void utf16TextReadsAsText()
    {
        // PowerShell's Out-File: UTF-16LE with a byte-order mark and CRLF; shown as text, records by UTF-8 offsets.
        const QString path = m_dir.filePath(QStringLiteral("ps.log"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        const QString text = QStringLiteral("line 1\r\nline 2 caf\u00e9\r\n");
        out.write("\xff\xfe", 2);
        for (const QChar c : text) {
            const char16_t u = c.unicode();
            const char pair[2] = {static_cast<char>(u & 0xFF), static_cast<char>(u >> 8)};
            out.write(pair, 2);
        }
        out.close();
        FileEvidenceSource source(
            {{"ps.log", path.toStdString(), {}, static_cast<std::uint64_t>(QFileInfo(path).size())}}, nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(source.lineCount(0).complete, 20000);
        QCOMPARE(source.lineCount(0).lines, qint64(2));
        QCOMPARE(source.readLines(0, 1, 1), QStringList{QStringLiteral("line 2 caf\u00e9")});
        QCOMPARE(source.readRecord(0, 8, 6), QStringLiteral("line 2"));
    }

    void unreadableFilesAreReported()
    {
        engine::BundleFile lost{"inner/dmesg.txt", "", "", 100};
        engine::BundleFile gone{"gone.log", m_dir.filePath(QStringLiteral("gone.log")).toStdString(), {}, 10};
        FileEvidenceSource source({lost, gone}, nullptr);
        const views::LineCount a = source.lineCount(0);
        QVERIFY(!a.available);
        QVERIFY(!a.problem.isEmpty());
        QVERIFY(!source.lineCount(1).available);
        QVERIFY(source.readLines(0, 0, 5).isEmpty());
        QVERIFY(source.readRecord(1, 0, 5).isEmpty());
        QCOMPARE(source.filePath(0), QStringLiteral("inner/dmesg.txt"));
    }
};

QTEST_GUILESS_MAIN(TestFileEvidenceSource)
#include "tst_file_evidence_source.moc"
