// SPDX-License-Identifier: GPL-3.0-or-later
// Line numbers a viewer or editor put before every line of a copy are taken off before the file is sniffed and
// read: the dmesg under `cat -n` is read as dmesg, an excerpt copied from a web viewer's gutter reads its exception
// line; numbers that do not count up line by line (a table's first column, a compiler's count) stay.
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
        QVERIFY(r.sniffed.lineNumbers);
        QCOMPARE(r.sniffed.format, Format::DmesgRaw);
        QCOMPARE(r.stats.unguttered, std::uint64_t(6));
        const Record* xid = tests::findText(r.records, "NVRM: Xid (PCI:0000:3b:00): 79");
        QVERIFY(xid);
        QCOMPARE(xid->line, std::uint64_t(3));
    }

    void excerptFromAViewersGutter()
    {
        const auto r = tests::readAll("    1 | RuntimeError: CUDA error: an illegal memory access was encountered\n"
                                      "    2 | Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n",
                                      "train.log");
        QVERIFY(r.sniffed.lineNumbers);
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
        QVERIFY(!r.sniffed.lineNumbers);
        QVERIFY(tests::findText(r.records, "   5 | Feb-01-2023"));
    }
};

QTEST_APPLESS_MAIN(TestLineGutters)
#include "tst_line_gutters.moc"
