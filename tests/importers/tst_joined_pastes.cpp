// SPDX-License-Identifier: GPL-3.0-or-later
// A pasted log whose line breaks a chat client or a web form replaced with blanks: the line is read as the lines it
// holds, cut at record starts (a traceback's header, frames and exception line, a prefix form that starts two of its
// records), and a long line that is one line stays whole.
#include "importer_test_util.h"

#include "importers/pasted_lines.h"

#include <QtTest>

using namespace attrib;
using importers::detail::splitJoinedPaste;

namespace {

QStringList piecesOf(const std::string& line)
{
    std::vector<std::string_view> pieces;
    QStringList out;
    if (!splitJoinedPaste(line, pieces))
        return out;
    for (const std::string_view piece : pieces)
        out << QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size()));
    return out;
}

QStringList textsOf(const tests::ReadResult& read)
{
    QStringList texts;
    for (const auto& r : read.records)
        texts << QString::fromStdString(r.text);
    return texts;
}

}  // namespace

class TestJoinedPastes : public QObject {
    Q_OBJECT
private slots:
    void tracebackCutAtFramesAndException();
    void rankPrefixStaysWithItsLine();
    void stampedRecordsCutAtTheirStamps();
    void oneLineStaysWhole_data();
    void oneLineStaysWhole();
    void pastedTracebackReadsAsItsException();
    void pastedSyslogKeepsHostAndStamp();
};

void TestJoinedPastes::tracebackCutAtFramesAndException()
{
    const std::string line = "Traceback (most recent call last):   File \"/opt/train.py\", line 9, in <module>     "
                             "main()   File \"/opt/train.py\", line 5, in main     loss.backward() RuntimeError: CUDA "
                             "error: an illegal memory access was encountered";
    QCOMPARE(piecesOf(line),
             QStringList({"Traceback (most recent call last):", "File \"/opt/train.py\", line 9, in <module>",
                          "     main()", "File \"/opt/train.py\", line 5, in main", "     loss.backward()",
                          "RuntimeError: CUDA error: an illegal memory access was encountered"}));
}

void TestJoinedPastes::rankPrefixStaysWithItsLine()
{
    // A cut that would leave `[rank3]:` alone is not made: the prefix stays with the text it prefixes.
    const std::string line = "[rank3]: Traceback (most recent call last): [rank3]:   File \"/home/u/finetune.py\", "
                             "line 904, in <module> [rank3]:     main(args) [rank3]: ValueError: torch.cat(): expected "
                             "a non-empty list of Tensors";
    QCOMPARE(piecesOf(line),
             QStringList({"[rank3]: Traceback (most recent call last):",
                          "[rank3]:   File \"/home/u/finetune.py\", line 904, in <module>", "[rank3]:     main(args)",
                          "[rank3]: ValueError: torch.cat(): expected a non-empty list of Tensors"}));
}

void TestJoinedPastes::stampedRecordsCutAtTheirStamps()
{
    const std::string line = "[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 79, pid=2211, GPU has fallen off the bus. "
                             "[ 1234.567900] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus. [ 1234.568000] NVRM: "
                             "A GPU crash dump has been created.";
    QCOMPARE(piecesOf(line),
             QStringList({"[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 79, pid=2211, GPU has fallen off the bus.",
                          "[ 1234.567900] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.",
                          "[ 1234.568000] NVRM: A GPU crash dump has been created."}));
}

void TestJoinedPastes::oneLineStaysWhole_data()
{
    QTest::addColumn<QString>("line");
    // Ray's relay of one line: a traceback header and a suffix are one record start, not a paste.
    QTest::newRow("ray relay") << "(EngineCore pid=114613) (RayWorkerWrapper pid=29113, ip=10.45.7.181) ERROR 03-24 "
                                  "15:39:40 [ray_utils.py:74] Traceback (most recent call last): [repeated 49x across "
                                  "cluster]";
    // A table's time column (sinfo -R, log-util) is not where records start.
    QTest::newRow("sinfo rows") << "cyclecloud_node_fail slurm     2022-11-22T13:25:08 viz3d-1        "
                                   "cyclecloud_node_fail slurm     2022-11-22T13:27:38 viz3d-2        "
                                   "cyclecloud_node_fail slurm     2022-11-22T13:30:04 viz3d-3";
    // A transport's stamp before a table row that holds two more stamps of other shapes (a GitHub Actions log of
    // OpenBMC's log-util): one line.
    QTest::newRow("stamps of three shapes")
        << "2024-05-01T10:00:00.1234567Z 1    slot1    2025-08-08 07:16:54    ipmid            SEL Entry: FRU: 1, "
           "Record: Standard (0x02), Time: 2025-08-08 07:16:54, Sensor: SYSTEM_STATUS (0x10), Event Data: (AA7841) VR "
           "PVCCD0 Power fault ! reg:0x78 , data:0x41 Assertion";
    QTest::newRow("json record") << "{\"ts\": \"2024-05-01T10:00:00Z\", \"msg\": \"Traceback (most recent call last): "
                                    "  File \\\"x.py\\\", line 3, in f     g()   File \\\"y.py\\\", line 4, in g "
                                    "RuntimeError: boom\"}";
    QTest::newRow("short") << "Traceback (most recent call last): File \"x.py\", line 3, in f RuntimeError: boom";
    QTest::newRow("one stamp in the message")
        << "2024-05-01 10:00:00,123 INFO resuming from the checkpoint written at 2024-04-30 22:10:00 by the previous "
           "job; the data loader restarts at step 12000 of 50000 with the same seed and world size";
}

void TestJoinedPastes::oneLineStaysWhole()
{
    QFETCH(QString, line);
    QCOMPARE(piecesOf(line.toStdString()), QStringList());
}

void TestJoinedPastes::pastedTracebackReadsAsItsException()
{
    const std::string text = "$ torchrun --nproc_per_node 8 train.py Traceback (most recent call last):   File "
                             "\"/opt/train.py\", line 9, in <module>     main()   File \"/opt/train.py\", line 5, in "
                             "main     loss.backward() RuntimeError: CUDA error: an illegal memory access was "
                             "encountered\n";
    const auto read = tests::readAll(text, "paste.txt");
    QCOMPARE(read.stats.resplit, std::uint64_t(1));
    QVERIFY(std::any_of(read.stats.notes.begin(), read.stats.notes.end(), [](const std::string& n) {
        return n.find("joined without their breaks") != std::string::npos;
    }));
    // The traceback joiner sees the lines it was made for: one record, the exception, spanning the traceback.
    const QStringList texts = textsOf(read);
    QVERIFY2(texts.contains("RuntimeError: CUDA error: an illegal memory access was encountered"),
             qPrintable(texts.join(" | ")));
    QVERIFY(std::all_of(read.records.begin(), read.records.end(), [](const auto& r) { return r.line == 1; }));
}

void TestJoinedPastes::pastedSyslogKeepsHostAndStamp()
{
    const std::string text = "May  1 10:00:01 gpu7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=2211, GPU has fallen "
                             "off the bus. May  1 10:00:01 gpu7 kernel: NVRM: GPU 0000:3b:00.0: GPU has fallen off the "
                             "bus. May  1 10:00:02 gpu7 kernel: nvidia-nvlink: Unregistered Nvlink Core\n";
    const auto read = tests::readAll(text, "syslog.txt");
    QCOMPARE(read.records.size(), std::size_t(3));
    for (const auto& r : read.records) {
        QCOMPARE(QString::fromStdString(r.host), QStringLiteral("gpu7"));
        QVERIFY(r.time != engine::NoTime);
    }
    QVERIFY(QString::fromStdString(read.records[0].text).endsWith("GPU has fallen off the bus."));
    QVERIFY(read.records[2].time > read.records[0].time);
}

QTEST_APPLESS_MAIN(TestJoinedPastes)
#include "tst_joined_pastes.moc"
