// SPDX-License-Identifier: GPL-3.0-or-later
// Line numbers a viewer or editor put before every line of a copy, and Docker Compose's service column, are taken
// off before the file is sniffed and read: the dmesg under `cat -n` is read as dmesg, an excerpt copied from a web
// viewer's gutter reads its exception line; numbers that do not count up line by line (a table's first column, a
// compiler's count) stay.
#include "importer_test_util.h"

#include "importers/line_gutter.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;

class TestLineGutters : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gutterForms()
    {
        const auto tab = detail::gutterOf("    12\t[  101.5] NVRM: Xid 79");
        QCOMPARE(tab.length, std::size_t(7));
        QCOMPARE(tab.number, std::uint64_t(12));
        QVERIFY(tab.marked);
        const auto bar = detail::gutterOf("   10 | |   0  NVIDIA H100 80GB HBM3  On |");
        QCOMPARE(bar.length, std::size_t(8));
        QVERIFY(bar.marked);
        const auto blanks = detail::gutterOf("3 warnings generated.");
        QCOMPARE(blanks.length, std::size_t(2));
        QVERIFY(!blanks.marked);
        QCOMPARE(detail::gutterOf("2024-05-01 10:00:00 gpu-1 kernel: x").length, std::size_t(0));
        QCOMPARE(detail::gutterOf("10:00:00 x").length, std::size_t(0));
        QCOMPARE(detail::gutterOf("12345678 | eight digits").length, std::size_t(0));
    }

    void catDashNDmesgIsReadAsDmesg()
    {
        std::string text;
        const char* lines[] = {"[  100.000001] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.129.03",
                               "[  205.118214] NVRM: GPU at PCI:0000:3b:00: GPU-1a2b3c4d",
                               "[  205.118220] NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.",
                               "[  205.118300] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.",
                               "[  205.200000] pcieport 0000:3a:00.0: AER: Uncorrected (Fatal) error received",
                               "[  206.000000] nvidia 0000:3b:00.0: AER: can't recover (no error_detected callback)"};
        int n = 40;
        for (const char* line : lines) {
            const std::string number = std::to_string(n++);
            text += std::string(6 - number.size(), ' ') + number + "\t" + line + "\n";
        }
        const auto r = tests::readAll(text, "dmesg-excerpt.txt");
        QCOMPARE(r.sniffed.column, LineColumn::Numbers);
        QCOMPARE(r.sniffed.format, Format::DmesgRaw);
        QCOMPARE(r.stats.uncolumned, std::uint64_t(6));
        const Record* xid = tests::findText(r.records, "NVRM: Xid (PCI:0000:3b:00): 79");
        QVERIFY(xid);
        QCOMPARE(xid->line, std::uint64_t(3));
    }

    void excerptFromAViewersGutter()
    {
        const auto r = tests::readAll("    1 | RuntimeError: CUDA error: an illegal memory access was encountered\n"
                                      "    2 | Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
                                      "train.log");
        QCOMPARE(r.sniffed.column, LineColumn::Numbers);
        QVERIFY(tests::findText(r.records, "RuntimeError: CUDA error: an illegal memory access"));
    }

    void numbersThatDoNotCountUpStay()
    {
        // A table's first column (ids that skip), and a short file numbered with blanks only: no gutter.
        std::string table;
        for (int id : {1, 2, 5, 6, 9, 10, 14})
            table += "   " + std::to_string(id) + " | Feb-01-2023 | 10:01:11 | PS2 Status | Failure detected\n";
        QVERIFY(!detail::hasLineNumberGutter(table));
        QVERIFY(!detail::hasLineNumberGutter("1 warning generated.\n2 errors generated.\n"));
        QVERIFY(!detail::hasLineNumberGutter("RuntimeError: x\n    1 | y\n"));
        const auto r = tests::readAll(table, "ipmi-sel.txt");
        QCOMPARE(r.sniffed.column, LineColumn::None);
        QVERIFY(tests::findText(r.records, "   5 | Feb-01-2023"));
    }

    void composeColumnIsTakenOff()
    {
        std::size_t bar = 0;
        QCOMPARE(detail::composeColumnOf("trainer    | RuntimeError: x", bar), std::size_t(13));
        QCOMPARE(bar, std::size_t(11));
        QCOMPARE(detail::composeColumnOf("| GPU | Name |", bar), std::size_t(0));
        // Two services' containers, the kernel's ring buffer printed by one of them: read as dmesg.
        std::string text;
        for (int i = 0; i < 10; ++i)
            text += std::string(i % 2 ? "trainer-1  | " : "monitor-1  | ") + "[  2" + std::to_string(10 + i) +
                ".118220] NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, GPU has fallen off the bus.\n";
        const auto r = tests::readAll(text, "compose.log");
        QCOMPARE(r.sniffed.column, LineColumn::Compose);
        QCOMPARE(r.sniffed.format, Format::DmesgRaw);
        QVERIFY(tests::findText(r.records, "NVRM: Xid (PCI:0000:3b:00): 79"));
        // A short excerpt of a replica's output.
        const auto excerpt = tests::readAll("trainer-1  | fabric manager NVIDIA GPU driver interface version 460.91.03 "
                                            "don't match with driver version 460.73.01.\n",
                                            "fabricmanager.log");
        QCOMPARE(excerpt.sniffed.column, LineColumn::Compose);
    }

    void sternColumnIsTakenOff()
    {
        QCOMPARE(detail::sternColumnOf("llama-ft-worker-0 pytorch TypeError: x"), std::size_t(26));
        QCOMPARE(detail::sternColumnOf("worker pytorch TypeError: x"), std::size_t(0));  // no `-` in the pod
        QCOMPARE(detail::sternColumnOf("llama-ft-worker-0 PyTorch TypeError: x"), std::size_t(0));
        // A PyTorchJob's worker (no generated suffix) with two containers: its traceback read as the pod printed it.
        std::string text = "llama-ft-worker-0 init-data Downloading shards\n"
                           "llama-ft-worker-0 pytorch Traceback (most recent call last):\n"
                           "llama-ft-worker-0 pytorch   File \"train.py\", line 12, in <module>\n"
                           "llama-ft-worker-0 pytorch     main()\n"
                           "llama-ft-worker-0 pytorch RuntimeError: Address already in use\n";
        const auto r = tests::readAll(text, "stern.log");
        QCOMPARE(r.sniffed.column, LineColumn::Stern);
        QVERIFY(tests::findText(r.records, "RuntimeError: Address already in use"));
        // A one-line excerpt of a replica's pod; a sentence that happens to open with a hyphenated word stays.
        QCOMPARE(detail::lineColumnOf("llama-ft-worker-0 pytorch TypeError: unsupported format string\n"),
                 LineColumn::Stern);
        QCOMPARE(detail::lineColumnOf("pre-training failed because the node rebooted\n"), LineColumn::None);
        std::string prose;
        for (int i = 0; i < 6; ++i)
            prose += "step-" + std::to_string(i) + " done loss " + std::to_string(i) + "\n";
        QCOMPARE(detail::lineColumnOf(prose), LineColumn::None);  // a different pair on every line
    }

    void postersLinesAndAByteOrderMarkKeepTheColumn()
    {
        // A poster's `...` where lines were cut out, a byte-order mark before the first line, and the ticket's own
        // lines around the paste (a heading, the command, a fence).
        const std::string text = "\xEF\xBB\xBF### vllm logs\n"
                                 "$ docker compose logs vllm\n"
                                 "```\n"
                                 "vllm-1  | INFO Loading model weights\n"
                                 "vllm-1  | INFO Using FlashAttention backend\n"
                                 "...\n"
                                 "vllm-1  | Traceback (most recent call last):\n"
                                 "vllm-1  |   File \"server.py\", line 3, in <module>\n"
                                 "vllm-1  | AssertionError: Attention bias is not supported\n"
                                 "```\n";
        const auto r = tests::readAll(text, "compose.log");
        QCOMPARE(r.sniffed.column, LineColumn::Compose);
        QVERIFY(tests::findText(r.records, "AssertionError: Attention bias is not supported"));
        QVERIFY(tests::findText(r.records, "INFO Loading model weights"));
    }

    void tableFirstColumnIsNoCompose()
    {
        // An HCA listing names a different device on every row: its first column stays.
        std::string table;
        for (int i = 0; i < 6; ++i)
            table += "mlx5_" + std::to_string(i) + "  | ib" + std::to_string(i) + " | 1 | Active | LinkUp\n";
        QCOMPARE(detail::lineColumnOf(table), LineColumn::None);
    }
};

QTEST_APPLESS_MAIN(TestLineGutters)
#include "tst_line_gutters.moc"
