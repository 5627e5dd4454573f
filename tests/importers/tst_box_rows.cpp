// SPDX-License-Identifier: GPL-3.0-or-later
// dcgmi's box tables: a value cut over rows at a fixed width, inside words, is one record again, so a rule reads the
// whole message; values that do not fill the width stay rows of their own.
#include "importer_test_util.h"

#include "importers/box_rows.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using namespace attrib::importers::detail;

class TestBoxRows : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellsAndJoins()
    {
        const BoxCell full = boxCell("| Warning                   | GPU 0 Thermal violations totaling 13.3 second  |");
        QVERIFY(full.row);
        QVERIFY(!full.blankLabel);
        QCOMPARE(full.interior, std::size_t(48));
        QCOMPARE(full.piece, std::string_view("GPU 0 Thermal violations totaling 13.3 second"));
        QVERIFY(fillsBoxWidth(full));
        const BoxCell next = boxCell("|                           | s started at 9.7 seconds into the test for GP  |");
        QVERIFY(next.blankLabel);
        QVERIFY(boxJoin(full, next) == BoxJoin::Direct);
        // A piece one short ended on a space the padding swallowed.
        const BoxCell spaced =
            boxCell("| Warning                   | GPU 0GPU 0's NvLink link 0 is currently down   |");
        QVERIFY(boxJoin(spaced, next) == BoxJoin::Space);
        // A short value ends; a labelled row never continues; nor a row of a table with another width.
        const BoxCell shortValue =
            boxCell("| GPU Memory                | Pass - GPUs: 1, 2, 3, 4, 5, 6, 7               |");
        QVERIFY(!fillsBoxWidth(shortValue));
        QVERIFY(boxJoin(shortValue,
                        boxCell("|                           | Fail - GPU: 0                                  |")) ==
                BoxJoin::None);
        QVERIFY(
            boxJoin(full, boxCell("| Memory                    | Pass                                           |")) ==
            BoxJoin::None);
        QVERIFY(boxJoin(full, boxCell("|          | s started at 9.7 |")) == BoxJoin::None);
        // A paste cut before the last row's border still continues; three columns are another kind of table.
        QVERIFY(boxJoin(full, boxCell("|                           | ts.")) == BoxJoin::Direct);
        QVERIFY(!boxCell("| ensemble       | 1       | READY                                                |").row);
        QVERIFY(!boxCell("GPU 0 | Warning | x").row);
    }

    void wrappedValuesAreOneRecord()
    {
        // dcgmi diag -r 2 with its warning cut every 45 characters (NVIDIA/DCGM#49), and a passing row under it.
        const std::string text = "+-----  Integration  -------+------------------------------------------------+\n"
                                 "| PCIe                      | Fail - All                                     |\n"
                                 "| Warning                   | GPU 0GPU 0's NvLink link 0 is currently down   |\n"
                                 "|                           | Run a field diagnostic on the GPU., GPU 0GPU   |\n"
                                 "|                           | 0's NvLink link 1 is currently down Run a fie  |\n"
                                 "|                           | ld diagnostic on the GPU.                      |\n"
                                 "| GPU Memory                | Pass - GPUs: 1, 2, 3, 4, 5, 6, 7               |\n"
                                 "|                           | Fail - GPU: 0                                  |\n"
                                 "| Warning                   | GPU 0 Thermal violations totaling 13.3 second  |\n"
                                 "|                           | s started at 9.7 seconds into the test for GP  |\n"
                                 "|                           | U 0 Verify that the cooling on this machine i  |\n"
                                 "|                           | s functional.\n";
        const auto r = tests::readAll(text, "dcgmi-diag-r2.txt");
        const Record* links = tests::findText(r.records, "| Warning                   | GPU 0GPU 0's NvLink");
        QVERIFY(links);
        QCOMPARE(links->text,
                 std::string("| Warning                   | GPU 0GPU 0's NvLink link 0 is currently down "
                             "Run a field diagnostic on the GPU., GPU 0GPU 0's NvLink link 1 is currently "
                             "down Run a field diagnostic on the GPU."));
        QCOMPARE(links->line, std::uint64_t(3));
        const Record* thermal = tests::findText(r.records, "| Warning                   | GPU 0 Thermal");
        QVERIFY(thermal);
        QVERIFY2(thermal->text.ends_with("GPU 0 Thermal violations totaling 13.3 seconds started at 9.7 seconds into "
                                         "the test for GPU 0 Verify that the cooling on this machine is functional."),
                 thermal->text.c_str());
        QVERIFY(tests::findText(r.records, "| GPU Memory                | Pass - GPUs: 1, 2"));
        QVERIFY(tests::findText(r.records, "|                           | Fail - GPU: 0"));
        QCOMPARE(r.records.size(), std::size_t(6));
    }
};

QTEST_GUILESS_MAIN(TestBoxRows)
#include "tst_box_rows.moc"
