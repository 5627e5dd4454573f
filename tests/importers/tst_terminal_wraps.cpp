// SPDX-License-Identifier: GPL-3.0-or-later
// A terminal wraps a long line at its width in columns, not bytes: an East Asian character takes two columns; a
// Rich panel's rows are full width by design and never wraps; a list marker taken off a row does not end the wrap;
// a screen capture's padded rows tell the width from one wrapped message; an exception line cut inside a word is
// matched with its pieces glued back too.
#include "importer_test_util.h"

#include "importers/multiline.h"

#include <QtTest>

#include <algorithm>

using namespace attrib;
using namespace attrib::importers;

namespace {

/// `message` cut into rows of `width` single-column characters (ASCII only).
std::string wrapped(const std::string& message, std::size_t width)
{
    std::string out;
    for (std::size_t at = 0; at < message.size(); at += width)
        out += message.substr(at, width) + "\n";
    return out;
}

}  // namespace

class TestTerminalWraps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void displayWidthCountsColumns()
    {
        QCOMPARE(detail::displayWidth("NCCL WARN"), std::size_t(9));
        QCOMPARE(detail::displayWidth("\xe5\x90\xaf\xe5\x8a\xa8"), std::size_t(4));     // two CJK ideographs
        QCOMPARE(detail::displayWidth("\xe2\x94\x82 x \xe2\x94\x82"), std::size_t(5));  // box drawing: one each
        QCOMPARE(detail::displayWidth("caf\xc3\xa9"), std::size_t(4));
    }

    void wideCharactersFillTheTerminal()
    {
        // A line of Chinese text is 70 columns and 105 bytes; the wrapped English messages fill 80 columns. The
        // width is the widest line in columns, so the wraps are still found and joined.
        std::string cjk;
        for (int i = 0; i < 35; ++i)
            cjk += "\xe5\x90\xaf";
        std::string text = cjk + "\n";
        for (int i = 0; i < 4; ++i)
            text += wrapped("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4713" +
                                std::to_string(i) + " closing signal SIGTERM",
                            80);
        const auto r = tests::readAll(text, "train.log");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(80));
        QCOMPARE(r.records.size(), std::size_t(5));
        QVERIFY2(r.records[1].text.ends_with("closing signal SIGTERM"), r.records[1].text.c_str());
    }

    void richPanelRowsAreNoWrap()
    {
        // Rich's traceback panel: every row and its border are 80 columns (each box character three bytes). The
        // exception line under the border is a line of its own, not the rest of the border.
        const std::string bar = "\xe2\x94\x82";
        std::string border = "\xe2\x95\xb0";
        for (int i = 0; i < 78; ++i)
            border += "\xe2\x94\x80";
        border += "\xe2\x95\xaf";
        std::string text;
        for (int i = 0; i < 4; ++i) {
            const std::string row = " " + std::to_string(2675 + i) + " probs = softmax(next_token_scores, dim=-1)";
            text += bar + row + std::string(78 - row.size(), ' ') + bar + "\n";
        }
        text += border + "\nRuntimeError: probability tensor contains either `inf`, `nan` or element < 0\n";
        const auto r = tests::readAll(text, "console.txt");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(0));
        QVERIFY(tests::findText(r.records, "RuntimeError: probability tensor contains"));
    }

    void promptAfterAFullRowIsNoWrap()
    {
        // A pasted session running the same check on three nodes: the same Xid line, as long each time, then the
        // next prompt. Each prompt is a line of its own, not the rest of the Xid line.
        const std::string xid =
            "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n";
        std::string text;
        for (int node = 7; node <= 9; ++node)
            text += "[root@gpu-n0" + std::to_string(node) + " ~]# dmesg | grep -i xid\n" + xid;
        text += "that is all three\n";
        const auto r = tests::readAll(text, "ticket.txt");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(0));
        QCOMPARE(r.records.size(), std::size_t(7));
    }

    void listMarkerOnARowKeepsTheWrap()
    {
        // The second row of a wrapped logger line opens with `- ` (the logger's separator), which reads like a
        // Markdown list marker and is taken off; the row was still full width on the terminal.
        const std::string message =
            "2022-05-20 13:06:24,796 - [slurm_plugin.common:add_instances_for_nodes] - ERROR - Encountered exception "
            "when launching instances for nodes (x1) ['spot-dy-t2micro-2']: An error occurred "
            "(AuthFailure.ServiceLinkedRoleCreationNotPermitted) when calling the RunInstances operation: The "
            "provided credentials do not have permission to create the service-linked role for EC2 Spot Instances.";
        std::string text;
        for (int i = 0; i < 3; ++i)
            text += wrapped(message, 80);
        const auto r = tests::readAll(text, "slurm_resume.log");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(80));
        QCOMPARE(r.records.size(), std::size_t(3));
        for (const auto& rec : r.records) {
            QVERIFY2(rec.text.find("(AuthFailure.ServiceLinkedRoleCreationNotPermitted)") != std::string::npos,
                     rec.text.c_str());
            QVERIFY(rec.text.ends_with("for EC2 Spot Instances."));
        }
    }

    void screenCaptureOfOneWrappedMessage()
    {
        // tmux's capture pads every row to the terminal's width: one message wrapped once is enough to tell it.
        const std::string message = "Timed out initializing process group in store based barrier on rank: 0, for "
                                    "key: store_based_barrier_key:1 (world_size=2, worker_count=4, timeout=0:02:00)";
        const std::string tail = message.substr(120);
        const std::string text = message.substr(0, 120) + "\n" + tail + std::string(120 - tail.size(), ' ') + "\n";
        const auto r = tests::readAll(text, "error.txt");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(120));
        QCOMPARE(r.records.size(), std::size_t(1));
        QCOMPARE(r.records[0].text, message);
    }

    void exceptionCutInsideAWord()
    {
        // A lone exception line cut at 80 columns inside a word: the text joins the pieces with a space (as any
        // message line), and the pair without one is a further message line, so a rule reads the word whole.
        const std::string text =
            "ValueError: Hostfile contains a bad entry: {line}, unable to proceed with launch\ning\n";
        const auto r = tests::readAll(text, "launcher.log");
        const Record* error = tests::findText(r.records, "ValueError: Hostfile contains a bad entry");
        QVERIFY(error);
        const auto& lines = error->messageLines;
        QVERIFY(std::find(lines.begin(), lines.end(),
                          "ValueError: Hostfile contains a bad entry: {line}, unable to proceed with launching") !=
                lines.end());
        // A short line or a break after a space is no terminal's cut: nothing is glued.
        const auto shortLine = tests::readAll("ValueError: bad entry in\nthe hostfile\n", "launcher.log");
        const Record* bad = tests::findText(shortLine.records, "ValueError: bad entry");
        QVERIFY(bad);
        QCOMPARE(bad->messageLines.size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestTerminalWraps)
#include "tst_terminal_wraps.moc"
