// SPDX-License-Identifier: GPL-3.0-or-later
// What carried a log to the reader is not the log: a CI runner's stamp before every line is taken off, the rest is
// sniffed and read as the program wrote it (its own stamp and host win, the runner's time stands in for a line
// without one); a Markdown list marker before a pasted line goes; a journal record's continuation does not repeat
// the tag; a kernel tag right before its uptime (`kernel:[...]`) is still a kernel tag; a name a chat client made a
// link of is the name again; `kubectl logs --timestamps` and Jenkins' stamps are transports too; a code fence ends a
// message.
#include "importer_test_util.h"

#include "importers/format_prefix.h"
#include "importers/pasted_text.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::importers;
using attrib::engine::NoTime;
using attrib::engine::SourceKind;

class TestTransportWrappers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void transportStamps()
    {
        const auto runner = detail::transportStamp("2024-05-01T10:00:00.1234567Z ##[error]Process completed");
        QVERIFY(runner);
        QCOMPARE(runner->length, std::size_t(29));
        QCOMPARE(runner->time, engine::makeTime(2024, 5, 1, 10, 0, 0) + 123456700);
        // CRI's stamp stays with the line prefixes (tst_log_envelopes: a syslog line behind it keeps its kind).
        QVERIFY(!detail::transportStamp("2026-12-01T10:11:12.345678901Z stderr F   indented"));
        // A program's own ISO stamps are its line's, not a transport's: six digits, an offset, no stream tag.
        QVERIFY(!detail::transportStamp("2024-05-01T10:00:00.123456Z gpu-node-3 kernel: NVRM: Xid 79"));
        QVERIFY(!detail::transportStamp("2024-05-01T10:00:00.1234567+00:00 message"));
        QVERIFY(!detail::transportStamp("2024-05-01T10:00:00.1234567Zmessage"));
        // `kubectl logs --timestamps`: RFC 3339 with nanoseconds (trailing zeros dropped), no stream tag.
        const auto kubectl = detail::transportStamp("2024-05-01T10:00:00.123456789Z RuntimeError: CUDA error");
        QVERIFY(kubectl);
        QCOMPARE(kubectl->length, std::size_t(31));
        QVERIFY(detail::transportStamp("2024-05-01T10:00:00.12345678Z frame #0: c10::Error::Error"));
        // Jenkins' timestamper; a bracketed stamp with an offset is a program's own.
        const auto jenkins = detail::transportStamp("[2024-05-01T10:00:00.123Z] + srun python train.py");
        QVERIFY(jenkins);
        QCOMPARE(jenkins->length, std::size_t(27));
        QCOMPARE(jenkins->time, engine::makeTime(2024, 5, 1, 10, 0, 0) + 123000000);
        QVERIFY(!detail::transportStamp("[2024-05-01T10:00:00.123+02:00] INFO start"));
        // `aws logs tail`: isoformat() in UTC and the log stream's name (it holds a `/`), both the transport's.
        const auto tail =
            detail::transportStamp("2024-05-01T10:00:00.007000+00:00 llama-ft-2024-05-01/algo-1-1714557491 "
                                   "RuntimeError: Address already in use");
        QVERIFY(tail);
        QCOMPARE(tail->length, std::size_t(71));
        QVERIFY(detail::transportStamp("2024-05-01T10:00:00+00:00 batch-def/default/0a1b2c Killed"));
        QVERIFY(!detail::transportStamp("2024-05-01T10:00:00.007000+00:00 gpu-node-3 kernel: NVRM: Xid 79"));
        QVERIFY(!detail::transportStamp("2024-05-01T10:00:00.007000+02:00 job/algo-1 Killed"));
    }

    void cloudWatchStreamIsNoHost()
    {
        const auto read = tests::readAll(
            "2024-05-01T10:00:00.007000+00:00 llama-ft/algo-1-1714557491 Traceback (most recent call last):\n"
            "2024-05-01T10:00:00.014000+00:00 llama-ft/algo-1-1714557491   File \"train.py\", line 3, in <module>\n"
            "2024-05-01T10:00:00.021000+00:00 llama-ft/algo-1-1714557491 RuntimeError: Address already in use\n",
            "cloudwatch.txt");
        QCOMPARE(read.records.size(), std::size_t(1));
        QCOMPARE(read.records[0].text, std::string("RuntimeError: Address already in use"));
        QVERIFY2(read.records[0].host.empty(), read.records[0].host.c_str());
    }

    void powerShellNativeCommandError()
    {
        // Windows PowerShell 5.1 wraps a native program's first stderr line as an error record.
        const auto read = tests::readAll("python : Traceback (most recent call last):\n"
                                         "At line:1 char:1\n"
                                         "+ python train.py 2>&1 | Tee-Object train.log\n"
                                         "+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                                         "    + CategoryInfo          : NotSpecified: (Traceback (most recent call "
                                         "last)::String) [], RemoteException\n"
                                         "    + FullyQualifiedErrorId : NativeCommandError\n"
                                         "  File \"train.py\", line 3, in <module>\n"
                                         "    main()\n"
                                         "AttributeError: 'NoneType' object has no attribute 'is_failed'\n",
                                         "torchrun.log");
        QVERIFY(tests::findText(read.records, "AttributeError: 'NoneType' object has no attribute 'is_failed'"));
        QCOMPARE(detail::stripNativeCommandPrefix("python.exe : [rank0]: RuntimeError: x"),
                 std::string_view("[rank0]: RuntimeError: x"));
        QCOMPARE(detail::stripNativeCommandPrefix("Note : the run ended"), std::string_view("Note : the run ended"));
        QCOMPARE(detail::stripNativeCommandPrefix("loss : 0.25"), std::string_view("loss : 0.25"));
    }

    void chatHeadersComeOff()
    {
        // A message copied out of Microsoft Teams starts with its header; Discord puts the time before later messages.
        const auto read = tests::readAll("[5/1/2024 10:42 AM] Jane Doe: TypeError: unsupported format string passed to "
                                         "NoneType.__format__\n"
                                         "[10:43 AM] RuntimeError: NCCL error: unhandled system error\n",
                                         "train.log");
        QVERIFY(tests::findText(read.records, "TypeError: unsupported format string passed to NoneType.__format__"));
        QVERIFY(read.records.size() == 2 && read.records[0].text.rfind("TypeError: ", 0) == 0);
        QCOMPARE(read.records[1].text, std::string("RuntimeError: NCCL error: unhandled system error"));
        QCOMPARE(detail::stripChatHeader("[5/1/2024, 9:05 PM] O'Neil Smith-Jones: hang at step 3"),
                 std::string_view("hang at step 3"));
        // A log's own bracketed time has no AM or PM, and an exception's name is nobody's.
        QCOMPARE(detail::stripChatHeader("[10:42:13] ERROR loss is nan"),
                 std::string_view("[10:42:13] ERROR loss is nan"));
        QCOMPARE(detail::stripChatHeader("[5/1/2024 10:42 AM] RuntimeError: x"), std::string_view("RuntimeError: x"));
        QCOMPARE(detail::stripChatHeader("[5/1/2024 10:42 AM] torch.OutOfMemoryError: x"),
                 std::string_view("torch.OutOfMemoryError: x"));
    }

    void quoteMarkerBehindALauncherPrefix()
    {
        // A quoted paste inside a rank's or a container's output reads as the line it quotes.
        const auto read = tests::readAll("[rank3]: > TypeError: output tensor must have the same type as input tensor\n"
                                         "trainer-1  | > RuntimeError: CUDA error: an illegal memory access\n",
                                         "trl_sft.log");
        QCOMPARE(read.records.size(), std::size_t(2));
        QCOMPARE(read.records[0].text, std::string("TypeError: output tensor must have the same type as input tensor"));
        QCOMPARE(read.records[0].rank, 3);
        QCOMPARE(read.records[1].text, std::string("RuntimeError: CUDA error: an illegal memory access"));
    }

    void podStampLeavesNoHost()
    {
        // `kubectl logs --timestamps`: no host made up from the word after the stamp.
        const auto read = tests::readAll("2024-05-01T10:00:00.123456789Z frame #0: c10::Error::Error()\n"
                                         "2024-05-01T10:00:00.223456789Z (base) ubuntu@ip-172-31-36-110:~$ ls\n",
                                         "trainer.log");
        QCOMPARE(read.records.size(), std::size_t(2));
        for (const auto& r : read.records)
            QVERIFY2(r.host.empty(), r.host.c_str());
    }

    void codeFenceEndsTheMessage()
    {
        const auto read = tests::readAll("```text\nAssertionError: 96 is not divisible by 64\n```\n", "issue.txt");
        const Record* error = tests::findText(read.records, "AssertionError: 96 is not divisible by 64");
        QVERIFY(error);
        QCOMPARE(error->text, std::string("AssertionError: 96 is not divisible by 64"));
    }

    void runnerLogIsReadAsWhatTheJobPrinted()
    {
        // A raw GitHub Actions log holding nvidia-smi's NVLink listing: read as that listing (plain text, every rule),
        // with no host made of the listing's first word.
        const std::string text = "2024-05-01T10:00:00.1234567Z GPU 3: Tesla V100-SXM2-32GB (UUID: GPU-1)\n"
                                 "2024-05-01T10:00:00.1234567Z          Link 0: 25.781 GB/s\n"
                                 "2024-05-01T10:00:00.1234567Z          Link 3: <inactive>\n";
        const auto r = tests::readAll(text, "ci/nvidia-smi-nvlink-s.txt");
        QCOMPARE(r.sniffed.kind, SourceKind::Text);
        QCOMPARE(r.records.size(), std::size_t(3));
        QCOMPARE(r.records[2].text, std::string("         Link 3: <inactive>"));
        for (const Record& rec : r.records)
            QVERIFY2(rec.host.empty(), rec.host.c_str());
        QCOMPARE(r.records[2].time, engine::makeTime(2024, 5, 1, 10, 0, 0) + 123456700);  // the runner's time
    }

    void runnerWrappedKernelLinesKeepTheirOwnHeader()
    {
        // A CI job that printed the node's syslog: the inner line's host and tag are read, not the runner's words.
        const std::string text = "2024-05-01T10:00:00.1234567Z 2022-11-04T14:09:31 server kernel: [75215.928881] "
                                 "NETDEV WATCHDOG: eth1 (r8152): transmit queue 0 timed out\n"
                                 "2024-05-01T10:00:00.2234567Z 2022-11-04T14:09:32 server kernel: [75216.1] "
                                 "r8152 2-1:1.0 eth1: Tx status -71\n";
        const auto r = tests::readAll(text, "ci/messages");
        QCOMPARE(r.records.size(), std::size_t(2));
        QCOMPARE(r.records[0].host, std::string("server"));
        QVERIFY2(r.records[0].text.find("NETDEV WATCHDOG: eth1") != std::string::npos, r.records[0].text.c_str());
        QVERIFY(r.records[0].text.find("1234567Z") == std::string::npos);
    }

    void listMarkersBeforePastedLines()
    {
        const std::string text = "- RuntimeError: CUDA error: an illegal memory access was encountered\n"
                                 "* [rank3]: Killed\n"
                                 "- name: trainer\n"
                                 "+ python train.py\n";
        const auto r = tests::readAll(text, "ticket.txt");
        QCOMPARE(r.records.size(), std::size_t(4));
        QCOMPARE(r.records[0].text, std::string("RuntimeError: CUDA error: an illegal memory access was encountered"));
        QCOMPARE(r.records[1].rank, 3);
        QCOMPARE(r.records[2].text, std::string("- name: trainer"));    // a YAML item stays
        QCOMPARE(r.records[3].text, std::string("+ python train.py"));  // a shell trace stays
    }

    void journalLinesOfAProgramAreItsOutput()
    {
        // A program's stdout in the journal is one entry per line: an indented line is its own line, as in the
        // program's own file, not a continuation with the tag repeated inside.
        const std::string text =
            "May 01 10:00:05 host-a python3[1234]: Collecting gradients: 100%\n"
            "May 01 10:00:05 host-a python3[1234]:     Watchdog caught collective operation timeout\n";
        const auto r = tests::readAll(text, "journal.txt");
        QCOMPARE(r.records.size(), std::size_t(2));
        QCOMPARE(r.records[1].text, std::string("python3[1234]:     Watchdog caught collective operation timeout"));
        QCOMPARE(r.records[1].host, std::string("host-a"));
    }

    void journalTracebackIsJoinedPerProcess()
    {
        // A traceback under the program's tag becomes the record of its exception line, as in an application file;
        // another process' line between its frames stays its own record.
        const std::string text =
            "May 01 10:00:00 host-a python3[1234]: Traceback (most recent call last):\n"
            "May 01 10:00:00 host-a python3[1234]:   File \"train.py\", line 39, in <module>\n"
            "May 01 10:00:00 host-a sshd[99]: Accepted publickey for ops\n"
            "May 01 10:00:00 host-a python3[1234]:     booster = Booster(params=params)\n"
            "May 01 10:00:00 host-a python3[1234]: lightgbm.basic.LightGBMError: [CUDA] invalid argument\n"
            "May 01 10:00:01 host-a kernel: NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception\n";
        const auto r = tests::readAll(text, "journal.txt");
        QCOMPARE(r.records.size(), std::size_t(3));
        const auto* exception =
            tests::findText(r.records, "python3[1234]: lightgbm.basic.LightGBMError: [CUDA] invalid argument");
        QVERIFY(exception);
        QCOMPARE(exception->line, std::uint64_t(1));
        QVERIFY2(exception->text.find("Traceback") == std::string::npos, exception->text.c_str());
        QVERIFY(tests::findText(r.records, "sshd[99]: Accepted publickey"));
        QVERIFY(tests::findText(r.records, "NVRM: Xid"));
    }

    void journalLauncherPrefixesComeOffBehindTheTag()
    {
        // srun's task label and PyTorch's rank prefix behind the program's tag come off as on the program's own
        // lines; the tag stays before the message.
        const std::string text = "May 01 10:00:04 gpu-node-07 srun[4321]: 3: Killed\n"
                                 "May 01 10:00:05 gpu-node-07 python[2841]: [rank5]: ValueError: expected a non-empty "
                                 "list of Tensors\n";
        const auto r = tests::readAll(text, "journal.txt");
        QCOMPARE(r.records.size(), std::size_t(2));
        QCOMPARE(r.records[0].text, std::string("srun[4321]: Killed"));
        QCOMPARE(r.records[0].rank, 3);
        QCOMPARE(r.records[1].text, std::string("python[2841]: ValueError: expected a non-empty list of Tensors"));
        QCOMPARE(r.records[1].rank, 5);
        QCOMPARE(r.records[1].host, std::string("gpu-node-07"));
        // A daemon's own words that look like another prefix stay (a multipath map is no pdsh host).
        const auto daemon =
            tests::readAll("Mar 03 17:12:44 e11drzwk02 multipathd[1042]: 360060160e1714c005e723e6089be39bd: remaining "
                           "active paths: 0\n",
                           "messages");
        QCOMPARE(daemon.records.size(), std::size_t(1));
        QCOMPARE(daemon.records[0].text,
                 std::string("multipathd[1042]: 360060160e1714c005e723e6089be39bd: remaining active paths: 0"));
        QCOMPARE(daemon.records[0].host, std::string("e11drzwk02"));
    }

    void kernelTagRightBeforeItsUptime()
    {
        // A syslog template without the blank after the tag (`kernel:[75215.928881] msg`, Raspberry Pi OS), stored
        // by a pod's runtime: still a kernel line of the host it names, read by kernel rules.
        const auto read = tests::readAll("2024-05-01T10:00:00.123456789Z stderr F 2022-11-04T14:09:31 server "
                                         "kernel:[75215.928881] NETDEV WATCHDOG: eth1 (r8152): transmit queue 0 timed "
                                         "out\n"
                                         "2024-05-01T10:00:00.123456789Z stderr F 2022-11-04T14:09:31 server "
                                         "kernel:[75215.929148] CPU: 0 PID: 0 Comm: swapper/0 Not tainted\n",
                                         "messages");
        const auto* watchdog = tests::findText(read.records, "NETDEV WATCHDOG: eth1 (r8152)");
        QVERIFY(watchdog);
        QCOMPARE(int(watchdog->kind), int(SourceKind::Kernel));
        QCOMPARE(watchdog->host, std::string("server"));
    }

    void chatLinksBackToNames()
    {
        std::string text = "curl: (6) Could not resolve host: [github.com](http://github.com/)";
        detail::stripMarkdownAutolinks(text);
        QCOMPARE(text, std::string("curl: (6) Could not resolve host: github.com"));
        text = "  File \"/usr/lib/python3/dist-packages/torch/lib/[libc10.so](http://libc10.so/)\", and "
               "[pytorch.org](https://pytorch.org)";
        detail::stripMarkdownAutolinks(text);
        QCOMPARE(text, std::string("  File \"/usr/lib/python3/dist-packages/torch/lib/libc10.so\", and pytorch.org"));
        // The poster's own link to somewhere else stays.
        text = "see [the docs](https://docs.nvidia.com/deploy/xid-errors/) for Xid 79";
        detail::stripMarkdownAutolinks(text);
        QCOMPARE(text, std::string("see [the docs](https://docs.nvidia.com/deploy/xid-errors/) for Xid 79"));
        const auto read = tests::readAll("curl: (6) Could not resolve host: [github.com](http://github.com/)\n",
                                         "lifecycle-script.log");
        QVERIFY(tests::findText(read.records, "curl: (6) Could not resolve host: github.com"));
    }
};

QTEST_GUILESS_MAIN(TestTransportWrappers)
#include "tst_transport_wrappers.moc"
