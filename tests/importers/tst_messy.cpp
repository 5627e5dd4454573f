// SPDX-License-Identifier: GPL-3.0-or-later
// Messy real-world lines: launcher and collector prefixes, terminal wraps, multi-line kernel records, Python
// tracebacks of interleaved ranks, NCCL local device indexes, hosts inside daemon names, files without any
// timestamp, anonymized PCI addresses.
#include "importer_test_util.h"

#include "importers/bundle_access.h"
#include "importers/multiline.h"
#include "importers/timestamps.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using namespace attrib;
using namespace attrib::importers;
using attrib::engine::NoTime;
using attrib::engine::TimeSource;
namespace fs = std::filesystem;

using tests::findText;

class TestMessy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void launcherAndCollectorPrefixes()
    {
        const auto r = tests::readAll(tests::fixture("messy-rank.log"), "logs/rank-03.log");
        QCOMPARE(r.sniffed.kind == engine::SourceKind::App || r.sniffed.kind == engine::SourceKind::Slurm, true);
        QCOMPARE(r.records[0].rank, 3);
        QCOMPARE(r.records[0].time, isoTime("2026-04-22T21:34:00Z"));  // the collector stamp comes first
        QCOMPARE(r.records[0].text, std::string("INFO train.py:120 step 1200 loss 2.31"));
        QCOMPARE(r.records[1].rank, 2);
        QCOMPARE(r.records[1].text, std::string("epoch 3 step 1200"));
        QCOMPARE(r.records[2].time, isoTime("2026-04-22T21:34:01.500Z"));
        QCOMPARE(r.records[2].text, std::string("INFO train.py:121 step 1201 loss 2.30"));
        const Record* stepd = findText(r.records, "error: *** STEP 52222788.0 ON gpu20-15");
        QVERIFY(stepd);
        QCOMPARE(stepd->host, std::string("gpu20-15"));  // slurmstepd-<host>:
    }

    void terminalWrapsAreJoined()
    {
        const std::string text = tests::fixture("messy-rank.log");
        const auto r = tests::readAll(text, "logs/rank-03.log");
        QCOMPARE(detectWrapWidth(text.substr(0, 65536), r.sniffed), std::size_t(80));
        const Record* ib = findText(r.records, "node-09:51231:51290 [6] NCCL INFO NET/IB : Got completion");
        QVERIFY(ib);
        QVERIFY(ib->text.find("peer 10.16.2.13<40531> with status=12 opcode=129 len=0 vendor err 129 (Recv) localGid "
                              "::ffff:10.16.2.9 remoteGids::ffff:10.16.2.13") != std::string::npos);
        QCOMPARE(ib->gpu, 6);  // NCCL [n] is the local CUDA device, not the rank
        QCOMPARE(ib->host, std::string("node-09"));
        QCOMPARE(ib->length, std::uint64_t(80 + 1 + 80 + 1 + 33));  // the record spans its three physical lines
        const Record* watchdog =
            findText(r.records, "ProcessGroupNCCL.cpp:607] [Rank 14] Watchdog caught collective operation timeout");
        QVERIFY(watchdog);
        QVERIFY(watchdog->text.find("ran for 600068 milliseconds before timing out.") != std::string::npos);
        QCOMPARE(watchdog->rank, 14);
        QCOMPARE(watchdog->timeSource, TimeSource::YearInferred);
    }

    void paddedTerminalWrapsAreJoined()
    {
        // A terminal copy (Windows console, tmux) pads the last row of each wrapped message with spaces to the
        // width: every line is full width, and the wraps are still joined, without the padding.
        const std::size_t width = 100;
        std::string text;
        for (int i = 0; i < 4; ++i) {
            const std::string message = "[rank1]:[I816 21:41:23.0345" + std::to_string(40 + i) +
                " reducer.cpp:1989] [Rank 1] Parameter: static_encoder.grns." + std::to_string(i) +
                ".glu.lin.bias did not get gradient in backwards pass.";
            const std::string head = message.substr(0, width);
            const std::string tail = message.substr(width);
            text += head + "\n" + tail + std::string(width - tail.size(), ' ') + "\n";
        }
        const auto r = tests::readAll(text, "logs/train.log");
        QCOMPARE(detectWrapWidth(text, r.sniffed), width);
        QCOMPARE(r.records.size(), std::size_t(4));
        for (const auto& rec : r.records) {
            QVERIFY2(rec.text.ends_with("did not get gradient in backwards pass."), rec.text.c_str());
            QCOMPARE(rec.rank, 1);
        }
    }

    void richHandlerRecordsAreJoined()
    {
        // Python Rich's log handler: time (blank when the second repeats), level, a message column wrapped onto
        // indented rows, and the caller's `file:line` on the first row only, every row padded to the console width.
        const auto row = [](std::string left, const std::string& location) {
            left.resize(100 - location.size(), ' ');
            return left + location + "\n";
        };
        const std::string pad(29, ' ');
        std::string text = row("[12/03/24 14:22:01] INFO     Loading the model on 4 GPUs", "pipeline.py:312");
        text += row("[12/03/24 14:22:05] ERROR    Step 'generate' failed with an unhandled exception: CUDA",
                    "base.py:1206");
        text += row(pad + "error: an illegal memory access was encountered", "");
        text += row("                    WARNING  Retrying in 5 seconds", "llms.py:44");
        text += "    an indented line of another kind\n";
        text += "ERROR    checkpoint written to /data/ckpt/step_12.pt:3\n";  // a plain levelname-8 line, no padding
        const auto r = tests::readAll(text, "logs/pipeline.log");
        QCOMPARE(r.records.size(), std::size_t(5));
        QCOMPARE(r.records[0].text, std::string("[12/03/24 14:22:01] INFO     Loading the model on 4 GPUs"));
        const Record& error = r.records[1];
        QCOMPARE(error.text,
                 std::string("[12/03/24 14:22:05] ERROR    Step 'generate' failed with an unhandled "
                             "exception: CUDA error: an illegal memory access was encountered"));
        QCOMPARE(error.line, std::uint64_t(2));
        QCOMPARE(error.length, std::uint64_t(100 + 1 + 100));            // both rows
        QCOMPARE(error.time, engine::makeTime(2024, 12, 3, 14, 22, 5));  // the `%x %X` column, month first
        QCOMPARE(r.records[2].text, std::string("                    WARNING  Retrying in 5 seconds"));
        QCOMPARE(r.records[3].text.find("an indented line of another kind") != std::string::npos, true);
        QVERIFY(r.records[4].text.ends_with("step_12.pt:3"));
    }

    void fixedWidthTablesAreNotJoined()
    {
        // ipmi-sel style rows, every one exactly the same width and without a log prefix: not a terminal wrap.
        std::string text;
        for (int i = 1; i <= 8; ++i) {
            char row[128];
            std::snprintf(row, sizeof row,
                          "%-4d | Feb-%02d-2023 | 10:%02d:11 | PS2 Status       | Power Supply        | %-18s", i, i, i,
                          i % 2 ? "Failure detected" : "Presence detected");
            text += std::string(row) + "\n";  // 93 characters each
        }
        const auto r = tests::readAll(text, "nodes/n1/ipmi-sel.txt");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(0));
        QCOMPARE(r.records.size(), std::size_t(8));
        QVERIFY(r.records[0].text.find("Feb-02-2023") == std::string::npos);
    }

    void drawnTablesAreNotJoined()
    {
        // Triton's model table: rows and borders all full width, followed by shorter log lines. Not a terminal wrap:
        // each row stays its own line, so a rule anchored on a row's first bar still reads it.
        const std::string border =
            "+----------------+---------+------------------------------------------------------+";
        std::string text = "I0412 10:00:00.123456 1 server.cc:626]\n" + border + "\n";
        for (const char* row : {"| ensemble       | 1       | READY                                                |",
                                "| postprocessing | 1       | READY                                                |",
                                "| tensorrt_llm   | 1       | UNAVAILABLE: Internal: unexpected error when creatin |"})
            text += std::string(row) + "\n";
        text += border + "\nI0412 10:00:00.200000 1 server.cc:676] Waiting for in-flight requests to complete.\n" +
            "error: creating server: Internal - failed to load all models\n";
        const auto r = tests::readAll(text, "triton.log");
        QCOMPARE(detectWrapWidth(text, r.sniffed), std::size_t(0));
        const Record* row = findText(r.records, "| tensorrt_llm   | 1       | UNAVAILABLE");
        QVERIFY(row);
        QCOMPARE(row->line, std::uint64_t(5));
    }

    void tracebacksOfInterleavedRanks()
    {
        const std::string text = tests::fixture("messy-rank.log");
        const auto r = tests::readAll(text, "logs/rank-03.log");
        const Record* cuda = findText(r.records, "RuntimeError: CUDA error: an illegal memory access");
        QVERIFY(cuda);
        QCOMPARE(cuda->rank, 3);
        // Its record starts at the rank's Traceback line; evidence cites the exception line (25), not that one.
        QCOMPARE(cuda->line, std::uint64_t(16));
        QCOMPARE(citedLine(*cuda), std::uint64_t(25));
        // The rank's next line goes on with the exception's message (torch prints it over several lines), the
        // other rank's lines in between do not.
        QCOMPARE(cuda->text,
                 std::string("RuntimeError: CUDA error: an illegal memory access was encountered CUDA "
                             "kernel errors might be asynchronously reported at some other API call, so "
                             "the stacktrace below might be incorrect."));
        QCOMPARE(cuda->labels.at("traceback"),
                 std::string("File \"/workspace/train.py\", line 188, in main <- "
                             "File \"/workspace/train.py\", line 212, in <module>"));
        // Its source starts at the rank's Traceback line and ends with the last line of the exception's message.
        const std::string span = text.substr(cuda->offset, cuda->length);
        QVERIFY(span.rfind("[rank3]:Traceback (most recent call last):", 0) == 0);
        QVERIFY(span.size() > 10 && span.substr(span.size() - 10) == "incorrect.");
        const Record* nccl = findText(r.records, "torch.distributed.DistBackendError: NCCL error in:");
        QVERIFY(nccl);
        QCOMPARE(nccl->rank, 5);
        QCOMPARE(citedLine(*nccl), std::uint64_t(26));  // wrapped over line 27; its Traceback line is 17
        QVERIFY(nccl->text.find("remote process exited or there was a network error, NCCL version 2.21.5") !=
                std::string::npos);
        QVERIFY(nccl->labels.at("traceback").find("in all_reduce") != std::string::npos);
        // Frame lines are inside the tracebacks, not records of their own.
        QVERIFY(!findText(r.records, "File \""));
        QVERIFY(!findText(r.records, "  File \""));
        QVERIFY(!findText(r.records, "CUDA kernel errors might be asynchronously reported"));
        QCOMPARE(nccl->text.find("CUDA kernel errors"), std::string::npos);
    }

    void kernelRecordsSpanningLines()
    {
        const auto raw = tests::readAll(tests::fixture("dmesg-raw-rtc.txt"), "dmesg.txt");
        QCOMPARE(std::string(toString(raw.sniffed.format)), std::string("dmesg-raw"));
        QCOMPARE(raw.records.size(), std::size_t(5));
        QCOMPARE(raw.records[3].text,
                 std::string("NVRM: Xid (PCI:0000:61:00): 149, NETIR_LINK_EVT  Fatal   XC0 i0 "
                             "Link 07 (0x02b425c6 0x00000000 0x00000000 0x00000000 0x00000000 "
                             "0x00000000)"));
        QCOMPARE(raw.records[4].text,
                 std::string("NVRM: The NVIDIA GPU 0000:b3:00.0 (PCI ID: 10de:26b5) installed in "
                             "this system has fallen off the bus and is not responding to "
                             "commands."));
        // Wrapped mid-token by a terminal: the pieces are glued back without a space.
        const std::string wrapped =
            "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 149, NETIR_LINK_EVT  Fatal "
            "  XC0 i0 Lin\nk 07 (0x02b425c6 0x00000000 0x00000000)\n[Wed Apr 22 21:34:21 2026] x\n";
        const auto t = tests::readAll(wrapped, "dmesg.txt");
        QCOMPARE(t.records.size(), std::size_t(2));
        QVERIFY(t.records[0].text.find("XC0 i0 Link 07 (0x02b425c6") != std::string::npos);
        // Syslog writes the multi-line message as lines with the same stamp.
        const std::string syslog =
            "Apr 22 21:34:20 node-02 kernel: [ 3258.118251] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
            "Apr 22 21:34:20 node-02 kernel: [ 3258.118251] NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
            "Apr 22 21:34:20 node-02 kernel: [ 3258.118251] NVRM: fallen off the bus and is not responding to "
            "commands.\n"
            "Apr 22 21:34:20 node-02 kernel: [ 3258.200000] NVRM: loading the module again\n";
        const auto s = tests::readAll(syslog, "kern.log");
        QCOMPARE(s.records.size(), std::size_t(2));
        QCOMPARE(s.records[0].text, raw.records[4].text);
        QCOMPARE(s.records[0].line, std::uint64_t(1));
        QCOMPARE(s.records[1].text, std::string("NVRM: loading the module again"));  // another printk stamp
    }

    void otherProgramsLinesEndAnExceptionMessage()
    {
        // Kernel, driver and NCCL lines pasted right after an exception are records of their own, read by every rule;
        // c10d's own continuation lines still join the message.
        const std::string text = "Traceback (most recent call last):\n"
                                 "  File \"train.py\", line 10, in <module>\n"
                                 "    loss.backward()\n"
                                 "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled system error\n"
                                 "ncclSystemError: System call (e.g. socket, malloc) failed.\n"
                                 "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n"
                                 "pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received: 0000:3b:00.0\n"
                                 "NCCL WARN Cuda failure 'unspecified launch failure'\n";
        const auto r = tests::readAll(text, "logs/rank-0.log");
        QCOMPARE(r.records.size(), std::size_t(4));
        QVERIFY2(
            r.records[0].text.ends_with("unhandled system error ncclSystemError: System call (e.g. socket, malloc) "
                                        "failed."),
            r.records[0].text.c_str());
        QCOMPARE(r.records[1].text,
                 std::string("NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus."));
        QCOMPARE(r.records[1].kind, engine::SourceKind::Text);
        QVERIFY(r.records[2].text.starts_with("pcieport 0000:00:01.0: AER:"));
        QCOMPARE(r.records[2].kind, engine::SourceKind::Text);
        QVERIFY(r.records[3].text.starts_with("NCCL WARN Cuda failure"));
        QVERIFY(!importers::detail::isOtherProgramsLine("Last error:"));
        QVERIFY(!importers::detail::isOtherProgramsLine("CUDA kernel errors might be asynchronously reported"));
        QVERIFY(!importers::detail::isOtherProgramsLine("dev 0000:3b:00 is the device"));
    }

    void unraisableHookHeaderEndsAnExceptionMessage()
    {
        // CPython's unraisable hook (a destructor failing after the real error) and thread excepthook print a header
        // of their own before their traceback: it is no part of the exception's message before it.
        const std::string text = "Traceback (most recent call last):\n"
                                 "  File \"engine.py\", line 453, in _configure\n"
                                 "AssertionError: autotp and zero_stage = 3 have not been validated\n"
                                 "Exception ignored in: <function DeepSpeedEngine.__del__ at 0x1516c0610820>\n"
                                 "Traceback (most recent call last):\n"
                                 "  File \"engine.py\", line 509, in __del__\n"
                                 "AttributeError: 'DeepSpeedEngine' object has no attribute 'optimizer'\n"
                                 "RuntimeError: NCCL error\n"
                                 "Exception in thread Thread-1:\n";
        const auto r = tests::readAll(text, "logs/rank-0.log");
        QCOMPARE(r.records.size(), std::size_t(5));
        QCOMPARE(r.records[0].text, std::string("AssertionError: autotp and zero_stage = 3 have not been validated"));
        QVERIFY(r.records[1].text.starts_with("Exception ignored in: <function DeepSpeedEngine.__del__"));
        QCOMPARE(r.records[2].text,
                 std::string("AttributeError: 'DeepSpeedEngine' object has no attribute 'optimizer'"));
        QCOMPARE(r.records[3].text, std::string("RuntimeError: NCCL error"));
        QCOMPARE(r.records[4].text, std::string("Exception in thread Thread-1:"));
    }

    void classOnlyExceptionLineTakesTheNextLine()
    {
        // Python prints a bare `AssertionError` without a colon: `AssertionError:` alone says its message was wrapped
        // onto the next line, which a paste cut at the terminal's width left without the Ray worker's prefix
        // (verl PR #4799, an IPv6 node address in brackets). Any other next line stays its own record.
        const std::string text = "(WorkerDict pid=42417, ip=[fdbd:dccd:cdd2:2207::30f]) Traceback (most recent call "
                                 "last):\n"
                                 "(WorkerDict pid=42417, ip=[fdbd:dccd:cdd2:2207::30f])   File \"x.py\", line 1, in f\n"
                                 "(WorkerDict pid=42417, ip=[fdbd:dccd:cdd2:2207::30f]) AssertionError:\n"
                                 "Expects tensor to be on the compute device cuda:0, was on cpu\n"
                                 "(WorkerDict pid=7) RuntimeError: boom\n"
                                 "RuntimeError: not a continuation\n";
        const auto r = tests::readAll(text, "main_ppo.log");
        QCOMPARE(r.records.size(), std::size_t(3));
        const auto assertion = std::find_if(r.records.begin(), r.records.end(), [](const auto& rec) {
            return rec.text.find("AssertionError:") != std::string::npos;
        });
        QVERIFY(assertion != r.records.end());
        QVERIFY2(
            assertion->text.ends_with("AssertionError: Expects tensor to be on the compute device cuda:0, was on cpu"),
            assertion->text.c_str());
        QCOMPARE(r.records.back().text, std::string("RuntimeError: not a continuation"));
    }

    void wrappedExceptionSentenceIsJoined()
    {
        // An exception line outside a traceback that a paste wrapped mid-sentence goes on in lower case on the next
        // line; a line in upper case after a finished piece is the poster's own.
        const std::string text = "ValueError: Free memory on device (70.1/79.1 GiB) on startup is less than\n"
                                 "desired GPU memory utilization (0.98, 77.5 GiB). Decrease it.\n"
                                 "Next line of the ticket\n"
                                 "RuntimeError: CUDA error: out of memory\n"
                                 "I tried a smaller batch\n";
        const auto r = tests::readAll(text, "issue.txt");
        QCOMPARE(r.records.size(), std::size_t(4));
        QCOMPARE(r.records[0].text,
                 std::string("ValueError: Free memory on device (70.1/79.1 GiB) on startup is less "
                             "than desired GPU memory utilization (0.98, 77.5 GiB). Decrease it."));
        QCOMPARE(r.records[1].text, std::string("Next line of the ticket"));
        QCOMPARE(r.records[2].text, std::string("RuntimeError: CUDA error: out of memory"));
        QCOMPARE(r.records[3].text, std::string("I tried a smaller batch"));
        // The same two lines indented as a whole (a paste quoted as a code block) join the same way.
        const auto indented =
            tests::readAll("    RuntimeError: Expected all tensors on one device, but got index is on\n"
                           "    cuda:0, different from other tensors on cpu\n",
                           "run.log");
        QCOMPARE(indented.records.size(), std::size_t(1));
        QVERIFY2(indented.records[0].text.ends_with("but got index is on cuda:0, different from other tensors on cpu"),
                 indented.records[0].text.c_str());
        // A repr cut after `<class` goes on with its quoted name.
        const auto repr = tests::readAll("ValueError: Expecting a ProcessGroup, but got a <class\n"
                                         "'text_generation_server.utils.dist.FakeGroup'>. rank=0\n",
                                         "launcher.log");
        QCOMPARE(repr.records.size(), std::size_t(1));
        QCOMPARE(repr.records[0].text,
                 std::string("ValueError: Expecting a ProcessGroup, but got a <class "
                             "'text_generation_server.utils.dist.FakeGroup'>. rank=0"));
        // A line of another stream ends the held exception line first: the records keep the file's order.
        const auto ranks = tests::readAll("[rank1]:ValueError: the free memory is less than\n"
                                          "[rank0]:step 3 done\n"
                                          "[rank1]:what the run asked for\n",
                                          "logs/train.log");
        QCOMPARE(ranks.records.size(), std::size_t(3));
        QCOMPARE(ranks.records[0].text, std::string("ValueError: the free memory is less than"));
        QCOMPARE(ranks.records[1].text, std::string("step 3 done"));
        // After a comma a number goes on with the sentence; after a full stop, or in upper case, it does not.
        const auto comma = tests::readAll("ValueError: To serve one request at max seq len (4096),\n"
                                          "2.5 GiB KV cache is needed, more than the 1.2 GiB free.\n"
                                          "ValueError: the batch is empty.\n"
                                          "3 retries left\n"
                                          "RuntimeError: shapes differ,\n"
                                          "Please check the inputs\n",
                                          "issue.txt");
        QCOMPARE(comma.records.size(), std::size_t(5));
        QCOMPARE(comma.records[0].text,
                 std::string("ValueError: To serve one request at max seq len (4096), 2.5 GiB "
                             "KV cache is needed, more than the 1.2 GiB free."));
        QCOMPARE(comma.records[2].text, std::string("3 retries left"));
        QCOMPARE(comma.records[4].text, std::string("Please check the inputs"));
    }

    void nativeCrashFramesStayLines()
    {
        // tvm-ffi writes a native crash's frames in Python's wording: each stays its own line, so rules can read
        // the innermost frame after the banner; frames of Python files still open a traceback excerpt.
        const auto native = tests::readAll("!!!!!!! Segfault encountered !!!!!!!\n"
                                           "  File \"misc/cudawrap.cc\", line 92, in ncclCuMemHostEnable()\n"
                                           "  File \"<unknown>\", line 0, in cuMemCreate\n"
                                           "  File \"/src/runtime/sys_linux_arm64.s\", line 440, in runtime.sigfwd\n"
                                           "  File \"<unknown>\", line 0, in c10::cuda::CUDACachingAllocator::malloc\n",
                                           "serve.log");
        QCOMPARE(native.records.size(), std::size_t(5));
        QCOMPARE(native.records[2].text, std::string("  File \"<unknown>\", line 0, in cuMemCreate"));
        const auto python = tests::readAll("  File \"train.py\", line 3, in <module>\n"
                                           "    main()\n"
                                           "  File \"<frozen runpy>\", line 88, in _run_code\n"
                                           "RuntimeError: x\n",
                                           "train.log");
        QCOMPARE(python.records.size(), std::size_t(1));
    }

    void stampedRecordEndsAnUnstampedMessage()
    {
        // A worker prints its traceback without a stamp; the logger's next records carry one (Dask's default
        // `%(asctime)s - %(name)s - %(levelname)s - %(message)s`): they are records of their own, with their time.
        const auto read = tests::readAll(
            "Traceback (most recent call last):\n"
            "  File \"x.py\", line 1, in <module>\n"
            "OSError: [Errno 28] No space left on device\n"
            "2024-05-01 10:00:00,100 - distributed.nanny.memory - WARNING - Worker tcp://10.0.0.5:40123 (pid=2211) "
            "exceeded 95% memory budget. Restarting...\n"
            "2024-05-01 10:00:01,100 - distributed.nanny - INFO - Worker closed\n",
            "worker.log");
        QCOMPARE(read.records.size(), std::size_t(3));
        QCOMPARE(read.records[0].text, std::string("OSError: [Errno 28] No space left on device"));
        QCOMPARE(read.records[0].time, engine::NoTime);
        QCOMPARE(read.records[1].time, isoTime("2024-05-01T10:00:00.100Z"));
        QVERIFY(read.records[1].text.find("exceeded 95% memory budget") != std::string::npos);
    }

    void markdownStrongMarksAreDropped()
    {
        // Markdown's strong marks around pasted words go; Python's `**kwargs`, powers and banners stay.
        const std::string text = "milvus: error while loading shared libraries: **libcudart.so.12**: cannot open\n"
                                 "**Error:** torch.OutOfMemoryError: CUDA out of memory. (**see** above)\n"
                                 "    return lambda **kw: fn(**kw)[0]\n"
                                 "size = 2**31 ** 2\n"
                                 "*** Process received signal ***\n"
                                 "**unclosed strong\n";
        const auto r = tests::readAll(text, "issue.txt");
        QCOMPARE(r.records.size(), std::size_t(6));
        QCOMPARE(r.records[0].text,
                 std::string("milvus: error while loading shared libraries: libcudart.so.12: cannot open"));
        QCOMPARE(r.records[1].text, std::string("Error: torch.OutOfMemoryError: CUDA out of memory. (see above)"));
        QVERIFY(r.records[2].text.ends_with("return lambda **kw: fn(**kw)[0]"));
        QCOMPARE(r.records[3].text, std::string("size = 2**31 ** 2"));
        QCOMPARE(r.records[4].text, std::string("*** Process received signal ***"));
        QCOMPARE(r.records[5].text, std::string("**unclosed strong"));
    }

    void redactedHostsNameNoNode()
    {
        // A poster's redactions (`ip-xx-xx-x-xx`) are no node: the lines still count, on no made-up node; a host that
        // keeps its digits is still one.
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        std::string text;
        for (int rank = 0; rank < 4; ++rank)
            text += "ip-xx-xx-x-xx:" + std::to_string(4100 + rank) + ":" + std::to_string(4200 + rank) + " [" +
                std::to_string(rank) +
                "] NCCL WARN NET/IB : Got completion from peer 10.0.1.5<52341> with error 12, opcode 0, len 0, "
                "vendor err 129 (Recv)\n";
        text += "ip-10-0-1-12:4300:4301 [1] NCCL WARN NET/IB : Got completion from peer 10.0.1.5<52341> with error "
                "12, opcode 0, len 0, vendor err 129 (Recv)\n";
        tests::writeFile(root / "train.log", text);
        auto outcome = tests::analyze(root.string());
        QVERIFY2(outcome.result, outcome.error.c_str());
        bool named = false;
        for (const auto& s : outcome.result->symptoms) {
            QVERIFY2(s.node.find("xx") == std::string::npos, s.id.c_str());
            named = named || s.node == "ip-10-0-1-12";
        }
        QVERIFY(named);
    }

    void endToEnd()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        tests::writeFile(root / "nodes/node-09/rank-03.log", tests::fixture("messy-rank.log"));
        tests::writeFile(root / "nodes/node-09/untimed.log", tests::fixture("untimed-rank.log"));
        tests::writeFile(root / "nodes/node-07/kern.log", tests::fixture("kern-anonymized.log"));
        auto outcome = tests::analyze(root.string());
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& r = *outcome.result;
        QVERIFY(tests::findSymptom(r, "nccl_ib_completion_error@node-09/gpu6"));
        QVERIFY(tests::findSymptom(r, "nccl_ib_completion_error@node-09/gpu2"));
        QVERIFY(tests::findSymptom(r, "collective_timeout@node-09"));
        // An anonymized PCI address still yields the node's GPU fault, without a GPU index.
        bool anonymized = false;
        for (const auto& s : r.symptoms)
            anonymized = anonymized || (s.node == "node-07" && s.gpu == -1 && s.domain == "gpu");
        QVERIFY(anonymized);
        // No timestamps at all: line order kept, times unknown, coverage says so.
        const auto* untimed = tests::fileCoverage(r, "nodes/node-09/untimed.log");
        QVERIFY(untimed && !untimed->errors.empty());
        QVERIFY(untimed->errors[0].find("no timestamps") != std::string::npos);
        std::vector<std::uint64_t> lines;
        for (const auto& o : r.observations) {
            if (r.files[o.source.file].path != "nodes/node-09/untimed.log")
                continue;
            QCOMPARE(o.time, NoTime);
            QCOMPARE(o.timeSource, TimeSource::None);
            lines.push_back(o.source.line);
        }
        QVERIFY(lines.size() >= 2);
        QVERIFY(std::is_sorted(lines.begin(), lines.end()));
        // Evidence of a joined record reads back as all its lines.
        bool found = false;
        for (const auto& o : r.observations) {
            if (o.text.rfind("RuntimeError: CUDA error: an illegal memory access", 0) != 0)
                continue;
            found = true;
            std::string error;
            const auto back = readBundleLines(r.files[o.source.file], o.source.offset, o.source.length, error);
            QVERIFY2(error.empty(), error.c_str());
            QCOMPARE(back.front(), std::string("[rank3]:Traceback (most recent call last):"));
            QCOMPARE(o.source.line, std::uint64_t(25));  // the cited line is the exception's, inside the span
            QVERIFY(back.size() >= 8);
        }
        QVERIFY(found);
    }
};

QTEST_APPLESS_MAIN(TestMessy)
#include "tst_messy.moc"
