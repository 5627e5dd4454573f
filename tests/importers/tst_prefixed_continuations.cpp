// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-line messages under launcher prefixes: a traceback and its exception's message are joined per launcher
// stream (Open MPI `[1,2]<stderr>:`, torchrun `[rank3]:` / `[default0]:`, srun `-l` `3: `, Ray and vLLM worker
// `(Name pid=N)`) exactly as unprefixed lines are, interleaved ranks apart; a joined text stays within its cap; a
// traceback pasted without its exception line still gives an unknown verdict a lead at its `Traceback` line.
// Every input is copied from a public log; the thread is named above each one.
#include "importer_test_util.h"

#include "importers/records.h"

#include <QtTest>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

using namespace attrib;
using importers::Record;

using tests::findText;

namespace {

const Record* findRank(const std::vector<Record>& records, int rank, const std::string& start)
{
    for (const auto& r : records)
        if (r.rank == rank && r.text.rfind(start, 0) == 0)
            return &r;
    return nullptr;
}

/// Whether the exception line at the end of a short traceback takes `next` into its message.
bool messageGoesOn(const std::string& exception, const std::string& next)
{
    const auto read = tests::readAll("Traceback (most recent call last):\n"
                                     "  File \"train.py\", line 3, in <module>\n" +
                                         exception + "\n" + next + "\n",
                                     "session.txt");
    const Record* r = findText(read.records, exception);
    return r && r->text.find(next.substr(next.find(' ') + 1)) != std::string::npos;
}

bool hasInner(const Record& r, const std::string& line)
{
    return std::find(r.innerLines.begin(), r.innerLines.end(), line) != r.innerLines.end();
}

bool hasMessageLine(const Record& r, const std::string& line)
{
    return std::find(r.messageLines.begin(), r.messageLines.end(), line) != r.messageLines.end();
}

/// Each line of `lines` with `prefix` before it.
std::string prefixed(const std::string& prefix, const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& line : lines)
        out += prefix + line + "\n";
    return out;
}

// https://github.com/mosaicml/streaming/issues/405 (SageMaker's mpirun: the path on the next prefixed line)
const std::vector<std::string> Streaming405 = {
    "FileNotFoundError: [Errno 2] No such file or directory:",
    "'opt/ml/mds-cache/index.json.tmp.tmp' ",
};

// https://github.com/EvolvingLMMs-Lab/open-r1-multimodal/issues/7 (the excerpt starts at a frame)
const std::vector<std::string> OpenR1Issue7 = {
    "  File \"/data/anaconda/envs/ENV_NAME/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", "
    "line 2726, in broadcast",
    "    work = group.broadcast([tensor], opts)",
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    "torch.distributed.DistBackendError: NCCL error in: "
    "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2588, "
    "internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
    "ncclInternalError: Internal check failed.",
    "Last error:",
    "Bootstrap : no socket interface found",
};
const std::string OpenR1Message =
    "torch.distributed.DistBackendError: NCCL error in: "
    "/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2588, "
    "internal error - please report this issue to the NCCL developers, NCCL version 2.21.5 ncclInternalError: Internal "
    "check failed. Last error: Bootstrap : no socket interface found";

}  // namespace

class TestPrefixedContinuations : public QObject {
    Q_OBJECT

private slots:
    void mpiMessageJoinedAsUnprefixed();
    void rankPrefixedExceptionMessage();
    void launcherPrefixesKeepTheirStreams();
    void srunLabelsInterleaved();
    void workerPrefixedTraceback();
    void giantContinuationCapped();
    void tracebackWithoutExceptionLineGivesLead();
    void streamTagWithAndWithoutSpaceIsOneStream();
    void shellPromptEndsTheExceptionMessage();
    void indentedTracebackTakesItsException();
    void bannerEndsTheExceptionMessage();
    void relayHeaderOnEveryLine();
};

// A traceback printed indented as a whole: torchelastic's Root Cause table (error_file's py_callstack with
// "\n" replaced by "\n  ", after `traceback : `) and pip's boxed subprocess output. The exception line is
// indented less than the frames and closes the traceback; a frame's source line (indented more) does not.
void TestPrefixedContinuations::indentedTracebackTakesItsException()
{
    const std::string elastic = "[0]:\n"
                                "  time      : 2024-05-02_10:11:12\n"
                                "  host      : node01\n"
                                "  rank      : 3 (local_rank: 3)\n"
                                "  exitcode  : 1 (pid: 4242)\n"
                                "  traceback : Traceback (most recent call last):\n"
                                "    File \"/app/train.py\", line 3, in <module>\n"
                                "      import flash_attn\n"
                                "  ModuleNotFoundError: No module named 'flash_attn'\n"
                                "============================================================\n";
    const auto e = tests::readAll(elastic, "torchrun.log");
    const Record* tb = findText(e.records, "ModuleNotFoundError: No module named 'flash_attn'");
    QVERIFY(tb);
    QCOMPARE(tb->text, std::string("ModuleNotFoundError: No module named 'flash_attn'"));
    QCOMPARE(tb->line, std::uint64_t(7));
    QVERIFY(tb->labels.at("traceback").find("train.py") != std::string::npos);
    // pip: the subprocess's output indented by 6, its frames by 8, a source line by 10
    const std::string pip = "  error: subprocess-exited-with-error\n"
                            "      Traceback (most recent call last):\n"
                            "        File \"<string>\", line 2, in <module>\n"
                            "          exec(compile(setup_code))\n"
                            "        File \"/tmp/pip-install/flash-attn/setup.py\", line 9, in <module>\n"
                            "          from packaging.version import parse\n"
                            "      ModuleNotFoundError: No module named 'packaging'\n"
                            "      [end of output]\n";
    const auto p = tests::readAll(pip, "pip.log");
    const Record* ex = findText(p.records, "ModuleNotFoundError: No module named 'packaging'");
    QVERIFY(ex);  // pip's indented `[end of output]` goes on as the message
    QVERIFY(hasInner(*ex, "from packaging.version import parse"));
    // A frame's source line that looks like a bare name (`return`) is not taken for the exception.
    const std::string bare = "    Traceback (most recent call last):\n"
                             "      File \"/app/a.py\", line 3, in f\n"
                             "        return\n"
                             "    KeyboardInterrupt\n";
    const auto b = tests::readAll(bare, "a.log");
    const Record* k = findText(b.records, "KeyboardInterrupt");
    QVERIFY(k);
    QCOMPARE(k->text, std::string("KeyboardInterrupt"));
}

void TestPrefixedContinuations::mpiMessageJoinedAsUnprefixed()
{
    const std::string joined = "FileNotFoundError: [Errno 2] No such file or directory: "
                               "'opt/ml/mds-cache/index.json.tmp.tmp'";
    // As posted: SageMaker's form of Open MPI's tag, `[jobid,mpirank:rank,host]<stream>:`.
    const auto sagemaker = tests::readAll(prefixed("[1,mpirank:7,algo-1]<stderr>:", Streaming405), "mpirun.log");
    QCOMPARE(sagemaker.records.size(), std::size_t(1));
    QCOMPARE(sagemaker.records[0].text, joined);
    QCOMPARE(sagemaker.records[0].rank, 7);
    QCOMPARE(sagemaker.records[0].line, std::uint64_t(1));
    // Open MPI's own `--tag-output` form and the same lines without any prefix give the same record.
    const auto mpi = tests::readAll(prefixed("[1,7]<stderr>:", Streaming405), "mpirun.log");
    QCOMPARE(mpi.records.size(), std::size_t(1));
    QCOMPARE(mpi.records[0].text, joined);
    QCOMPARE(mpi.records[0].rank, 7);
    const auto bare = tests::readAll(prefixed("", Streaming405), "train.log");
    QCOMPARE(bare.records.size(), std::size_t(1));
    QCOMPARE(bare.records[0].text, joined);
    // The record spans both lines.
    const std::string text = prefixed("[1,7]<stderr>:", Streaming405);
    QCOMPARE(mpi.records[0].length, std::uint64_t(text.size() - 1));
    // Another rank's line between the two pieces neither joins nor splits them (the posted lines, given to a second
    // rank: the thread shows one rank's).
    const std::string interleaved = "[1,7]<stderr>:" + Streaming405[0] + "\n[1,3]<stderr>:" + Streaming405[0] +
        "\n[1,7]<stderr>:" + Streaming405[1] + "\n[1,3]<stderr>:" + Streaming405[1] + "\n";
    const auto both = tests::readAll(interleaved, "mpirun.log");
    QCOMPARE(both.records.size(), std::size_t(2));
    QVERIFY(findRank(both.records, 7, joined));
    QVERIFY(findRank(both.records, 3, joined));
    QCOMPARE(findRank(both.records, 3, joined)->line, std::uint64_t(2));
}

void TestPrefixedContinuations::rankPrefixedExceptionMessage()
{
    // c10d's DistBackendError goes on over three more lines: NCCL's error name, `Last error:` and its cause.
    const auto ranked = tests::readAll(prefixed("[rank0]: ", OpenR1Issue7), "train.log");
    QCOMPARE(ranked.records.size(), std::size_t(1));
    const Record& r = ranked.records[0];
    QCOMPARE(r.text, OpenR1Message);
    QCOMPARE(r.rank, 0);
    QCOMPARE(r.line, std::uint64_t(1));  // the excerpt's first frame
    QVERIFY(r.labels.at("traceback").find("in broadcast") != std::string::npos);
    // Each line of the message stays readable on its own (rules anchored on a line's start still match).
    QVERIFY(hasMessageLine(r, "Bootstrap : no socket interface found"));
    QVERIFY(hasInner(r, "work = group.broadcast([tensor], opts)"));
    // Unprefixed, the same lines make the same record.
    const auto bare = tests::readAll(prefixed("", OpenR1Issue7), "train.log");
    QCOMPARE(bare.records.size(), std::size_t(1));
    QCOMPARE(bare.records[0].text, OpenR1Message);
}

void TestPrefixedContinuations::launcherPrefixesKeepTheirStreams()
{
    // torchrun's `[default0]:` (local rank, no global rank) and `[default1]:` interleaved (the posted lines, under two
    // local ranks): before streams were told apart both were rank -1 and one traceback took the other's lines.
    std::string text;
    for (std::size_t i = 0; i < OpenR1Issue7.size(); ++i) {
        text += "[default0]:" + OpenR1Issue7[i] + "\n";
        text += "[default1]:" + OpenR1Issue7[i] + "\n";
    }
    const auto r = tests::readAll(text, "torchrun.log");
    QCOMPARE(r.records.size(), std::size_t(2));
    QCOMPARE(r.records[0].text, OpenR1Message);
    QCOMPARE(r.records[1].text, OpenR1Message);
    QCOMPARE(r.records[0].line, std::uint64_t(1));
    QCOMPARE(r.records[1].line, std::uint64_t(2));
    // kubectl logs --prefix pods likewise.
    std::string pods;
    for (const auto& line : OpenR1Issue7)
        pods += "[pod/trainer-0/pytorch] " + line + "\n[pod/trainer-1/pytorch] " + line + "\n";
    const auto p = tests::readAll(pods, "pods.log");
    QCOMPARE(p.records.size(), std::size_t(2));
    QCOMPARE(p.records[1].text, OpenR1Message);
    // A logger's own line in the same stream ends the message (torch's warning after the exception).
    const auto warned = tests::readAll(
        prefixed("[rank0]: ", OpenR1Issue7) +
            // https://github.com/vllm-project/vllm/issues/31273
            "[rank0]:[W1224 08:50:36.247935068 ProcessGroupNCCL.cpp:1524] Warning: WARNING: destroy_process_group() "
            "was not called before program exit, which can leak resources. For more info, please see "
            "https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n",
        "train.log");
    QCOMPARE(warned.records.size(), std::size_t(2));
    QCOMPARE(warned.records[0].text, OpenR1Message);
}

void TestPrefixedContinuations::srunLabelsInterleaved()
{
    // https://github.com/ecmwf/WeatherGenerator/issues/1104 (`srun -l`: two ranks' tracebacks line by line)
    const std::string text =
        "1:   File \"/p/scratch/weatherai/slurm/slurm_weathergen_escya60j_dir/WeatherGenerator/packages/common/src/"
        "weathergen/common/config.py\", line 21, in <module>\n"
        "0:     import weathergen.common.config as config\n"
        "0:   File \"/p/scratch/weatherai/slurm/slurm_weathergen_escya60j_dir/WeatherGenerator/packages/common/src/"
        "weathergen/common/config.py\", line 21, in <module>\n"
        "0:     from weathergen.train.utils import get_run_id\n"
        "0:   File \"/p/scratch/weatherai/slurm/slurm_weathergen_escya60j_dir/WeatherGenerator/src/weathergen/train/"
        "utils.py\", line 14, in <module>\n"
        "1:     from weathergen.train.utils import get_run_id\n"
        "1:   File \"/p/scratch/weatherai/slurm/slurm_weathergen_escya60j_dir/WeatherGenerator/src/weathergen/train/"
        "utils.py\", line 14, in <module>\n"
        "0:     import torch\n"
        "0: ModuleNotFoundError: No module named 'torch'\n"
        "1:     import torch\n"
        "1: ModuleNotFoundError: No module named 'torch'\n";
    const auto r = tests::readAll(text, "slurm.out");
    const Record* one = findRank(r.records, 1, "ModuleNotFoundError: No module named 'torch'");
    const Record* zero = findRank(r.records, 0, "ModuleNotFoundError: No module named 'torch'");
    QVERIFY(one && zero);
    QCOMPARE(one->text, std::string("ModuleNotFoundError: No module named 'torch'"));
    QCOMPARE(zero->text, one->text);
    QCOMPARE(one->line, std::uint64_t(1));
    QCOMPARE(zero->line, std::uint64_t(3));
    // Each rank's frames are its own: rank 1 never read rank 0's `import weathergen.common.config` line.
    QVERIFY(hasInner(*zero, "from weathergen.train.utils import get_run_id"));
    QVERIFY(!hasInner(*one, "import weathergen.common.config as config"));
    QVERIFY(hasInner(*one, "import torch"));
    // The one line before rank 0's first frame is a record of its own; no other line is.
    QCOMPARE(r.records.size(), std::size_t(3));
    QVERIFY(findText(r.records, "    import weathergen.common.config as config"));
}

void TestPrefixedContinuations::workerPrefixedTraceback()
{
    // https://github.com/ray-project/ray/pull/63807: Ray's `(Name pid=N)` prefix is a launcher prefix (its address,
    // when it has one, is the node) and the traceback under it is joined; this paste stops at the first frame.
    const std::string ray =
        "(TrainController pid=79312) Graceful shutdown of backend failed. This is expected if one of the workers has "
        "crashed.\n"
        "(TrainController pid=79312) Traceback (most recent call last):\n"
        "(TrainController pid=79312)   File \"/Users/lehui/Desktop/ray/python/ray/train/v2/_internal/callbacks/"
        "backend_setup.py\", line 27, in before_execution_group_\n";
    const auto r = tests::readAll(ray, "train.log");
    QCOMPARE(r.records.size(), std::size_t(2));
    QCOMPARE(r.records[1].text, std::string("Traceback (most recent call last):"));
    QCOMPARE(r.records[1].line, std::uint64_t(2));
    QVERIFY(r.records[1].labels.at("traceback").find("backend_setup.py") != std::string::npos);
    // https://github.com/vllm-project/vllm/issues/31273: vLLM's `(APIServer pid=N)`, with the paste's blank lines
    // between (lines of no stream, which do not end the server's traceback).
    const std::string vllm = "(APIServer pid=556601) Traceback (most recent call last):\n\n"
                             "(APIServer pid=556601)   File \"/opt/conda/envs/vllm/bin/vllm\", line 7, in <module>\n\n"
                             "(APIServer pid=556601)     sys.exit(main())\n";
    const auto v = tests::readAll(vllm, "vllm-serve.log");
    std::vector<Record> texts;
    std::copy_if(v.records.begin(), v.records.end(), std::back_inserter(texts),
                 [](auto& x) { return !x.text.empty(); });
    QCOMPARE(texts.size(), std::size_t(1));
    QCOMPARE(texts[0].line, std::uint64_t(1));
    QVERIFY(hasInner(texts[0], "sys.exit(main())"));
}

void TestPrefixedContinuations::giantContinuationCapped()
{
    // A message line far longer than the record cap: the joined text stops at the cap, the record still spans all.
    const std::string path = "'opt/ml/mds-cache/" + std::string(5000, 'x') + "/index.json.tmp.tmp'";
    const std::string text = "[1,0]<stderr>:" + Streaming405[0] + "\n[1,0]<stderr>:" + path + "\n";
    importers::ReaderOptions options;
    options.maxLineBytes = 256;
    std::vector<Record> records;
    const importers::Sniffed sniffed = importers::sniff(text, "mpirun.log");
    importers::readRecords(tests::stringReader(text), sniffed, importers::TimeHints{2026, engine::NoTime}, options,
                           [&](Record& r) {
                               records.push_back(r);
                               return true;
                           });
    QCOMPARE(records.size(), std::size_t(1));
    QCOMPARE(records[0].text.size(), std::size_t(256));
    QVERIFY(records[0].text.rfind(Streaming405[0] + " 'opt/ml/mds-cache/xxx", 0) == 0);
    QCOMPARE(records[0].length, std::uint64_t(text.size() - 1));
    // The message's further lines are joined at most eight: a ninth is a record of its own.
    std::string many = "[rank0]: " + OpenR1Issue7[3] + "\n";
    for (int i = 0; i < 9; ++i)
        many += "[rank0]: socketPollConnect: connect returned Connection timed out, retrying (" + std::to_string(i) +
            "/34) after sleep for 100 msec\n";
    // (the wording of NCCL's retry line: https://github.com/NVIDIA/nccl/pull/1618)
    const std::string traced = "[rank0]: " + OpenR1Issue7[0] + "\n" + many;
    const auto r = tests::readAll(traced, "train.log");
    QCOMPARE(r.records.size(), std::size_t(2));
    QVERIFY(r.records[0].text.find("retrying (7/34)") != std::string::npos);
    QVERIFY(r.records[1].text.find("retrying (8/34)") != std::string::npos);
}

void TestPrefixedContinuations::tracebackWithoutExceptionLineGivesLead()
{
    // https://github.com/THUDM/GLM/issues/136: another rank's logger line cuts the traceback before its exception.
    // That line used to be taken for the exception, and the traceback gave no lead. The traceback, with no exception
    // line, is now the weakest application finding (python_traceback_no_exception_line), decided by its own line.
    const std::string text =
        "/data/pretrained_model/glm-10b-chinese-mp4/80000/mp_rank_03_model_states.pt.\n"
        "Traceback (most recent call last):\n"
        "  File \"pretrain_glm.py\", line 673, in <module>\n"
        "    main()\n"
        "  File \"pretrain_glm.py\", line 584, in main\n"
        "    args.iteration = load_checkpoint(model, optimizer, lr_scheduler, args, "
        "no_deepspeed=args.no_deepspeed_load)\n"
        "  File \"/data/users/zhaojinming/source/glm10BCodesSlurmN1/utils.py\", line 339, in load_checkpoint\n"
        "[2023-03-21 20:28:05,674] [INFO] [torch_checkpoint_engine.py:21:load] [Torch] Loading checkpoint from "
        "/home/zhaojinming/data/pretrained_model/glm-10b-chinese-mp4/80000/mp_rank_00_model_states.pt...\n";
    const auto read = tests::readAll(text, "train.log");
    const Record* tb = findText(read.records, "Traceback (most recent call last):");
    QVERIFY(tb);
    QCOMPARE(tb->line, std::uint64_t(2));
    QVERIFY(hasInner(*tb,
                     "File \"/data/users/zhaojinming/source/glm10BCodesSlurmN1/utils.py\", line 339, in "
                     "load_checkpoint"));
    QVERIFY(findText(read.records, "[INFO] [torch_checkpoint_engine.py:21:load]"));  // a record of its own
    const auto outcome = tests::analyzeOneFile("train.log", text);
    QVERIFY2(outcome.result, outcome.error.c_str());
    const auto& v = outcome.result->verdict;
    QCOMPARE(QString::fromStdString(v.terminalState), QStringLiteral("application_failure"));
    QVERIFY(v.rootCause);
    QCOMPARE(QString::fromStdString(v.rootCause->symptom), QStringLiteral("python_traceback_no_exception_line"));
    const engine::Observation* decisive = outcome.result->observation(v.rootCause->decisiveObservation);
    QVERIFY(decisive);
    QCOMPARE(decisive->source.line, std::uint64_t(2));
    QVERIFY(decisive->text.rfind("Traceback (most recent call last):", 0) == 0);
}

void TestPrefixedContinuations::streamTagWithAndWithoutSpaceIsOneStream()
{
    // https://github.com/pytorch/pytorch/issues/77737 (a runner's `[stderr]` tag: a space before the frame's own
    // indentation, none before the exception). One stream: the frame and its exception are one record, in line order,
    // so the frame is the exception line's earlier context (python_module_not_found needs it).
    const auto read = tests::readAll("[stderr]  File \"/opt/miniconda/lib/python3.7/site-packages/torch/utils/"
                                     "tensorboard/__init__.py\", line 1, in <module>\n"
                                     "[stderr]ModuleNotFoundError: No module named 'tensorboard'\n",
                                     "std_log.txt");
    QCOMPARE(read.records.size(), std::size_t(1));
    const Record& r = read.records[0];
    QCOMPARE(r.line, std::uint64_t(1));
    QVERIFY(r.text.rfind("ModuleNotFoundError: No module named 'tensorboard'", 0) == 0);
    QVERIFY(hasInner(r,
                     "File \"/opt/miniconda/lib/python3.7/site-packages/torch/utils/tensorboard/__init__.py\", "
                     "line 1, in <module>"));
}

QTEST_GUILESS_MAIN(TestPrefixedContinuations)
void TestPrefixedContinuations::shellPromptEndsTheExceptionMessage()
{
    // A pasted terminal session goes on after the traceback: the prompt and its command are not the message.
    for (const std::string prompt : {"(base) user@gpu-n03:~/train$ nvidia-smi -L", "$ echo $ROCR_VISIBLE_DEVICES",
                                     ">>> torch.cuda.device_count()", "PS C:\\work> python train.py"}) {
        const auto read = tests::readAll("Traceback (most recent call last):\n"
                                         "  File \"train.py\", line 3, in <module>\n"
                                         "    torch.cuda.set_device(0)\n"
                                         "RuntimeError: No HIP GPUs are available\n" +
                                             prompt + "\n",
                                         "session.txt");
        const Record* exception = findText(read.records, "RuntimeError: No HIP GPUs are available");
        QVERIFY2(exception, prompt.c_str());
        QCOMPARE(exception->text, std::string("RuntimeError: No HIP GPUs are available"));
        QVERIFY2(findText(read.records, prompt), prompt.c_str());  // a record of its own
    }
    // A message line that only looks like a path or a quote still continues the message.
    QVERIFY(messageGoesOn("ValueError: bad config:", "> expected 8 ranks"));
}

void TestPrefixedContinuations::bannerEndsTheExceptionMessage()
{
    // Composer's launcher prints each failed rank's stderr between titled banners; the closing banner is not the
    // message. A line that only starts with dashes still continues it.
    const auto read = tests::readAll("----------Begin global rank 1 STDERR----------\n"
                                     "Traceback (most recent call last):\n"
                                     "  File \"train.py\", line 3, in <module>\n"
                                     "ValueError: The following algorithms were enabled but not found\n"
                                     "----------End global rank 1 STDERR----------\n"
                                     "===== Summary =====\n",
                                     "composer.log");
    const Record* exception = findText(read.records, "ValueError: The following algorithms were enabled but not found");
    QVERIFY(exception);
    QCOMPARE(exception->text, std::string("ValueError: The following algorithms were enabled but not found"));
    QVERIFY(findText(read.records, "----------End global rank 1 STDERR----------"));
    QVERIFY(messageGoesOn("ValueError: unknown keys:", "---- model.n_layers"));
}

void TestPrefixedContinuations::relayHeaderOnEveryLine()
{
    const std::vector<std::string> traceback = {
        "Traceback (most recent call last):",
        "  File \"/home/model-server/model-store/bge/handler.py\", line 83, in handle",
        "    data = _service.inference(data)",
        "ValueError: Sampling parameters are missing for a CompletionRequest.",
    };
    // A logger that relays a worker's output writes its header before every line: TorchServe's MODEL_LOG (pattern
    // `%d{ISO8601} [%-5p] %t %c - %m%n`, pytorch/serve@22feb875 frontend/server/src/main/resources/log4j2.xml),
    // Python's default `%(levelname)s:%(name)s:` (cpython Lib/logging/__init__.py BASIC_FORMAT), loguru's default
    // `{time} | {level: <8} | {name}:{function}:{line} - ` (loguru/_defaults.py), a bare level tag, vLLM's formatter
    // that heads each line of a multi-line message (vllm/logging_utils/formatter.py). The frames and the exception
    // join as unprefixed output; the stamps of the relayed lines may differ.
    const std::vector<std::string> headers = {
        "2025-02-06T12:01:13,641 [INFO ] W-9002-bge-large-zh-v1.5_1.0-stdout MODEL_LOG - ",
        "ERROR:root:",
        "2024-01-19 10:21:39.123 | ERROR    | __main__:main:12 - ",
        "[ERROR] ",
        "ERROR 05-12 10:11:12 [core.py:123] ",
    };
    for (const auto& header : headers) {
        std::string text = header + "Bge.handle got exception\n" + prefixed(header, traceback);
        if (const auto stamp = text.rfind(":13,641"); stamp != std::string::npos)
            text.replace(stamp, 7, ":13,642");  // a later stamp on the exception line
        const auto read = tests::readAll(text, "model_log.log");
        const Record* exception = findText(read.records, traceback.back());
        QVERIFY2(exception, header.c_str());
        QCOMPARE(exception->line, std::uint64_t(2));
        QVERIFY2(hasInner(*exception, "data = _service.inference(data)"), header.c_str());
        QCOMPARE(read.records.size(), std::size_t(2));  // the announcement, then the traceback
        QVERIFY(read.records[0].text.find("Bge.handle got exception") != std::string::npos);
    }
    // A paste that starts at a frame under vLLM's header and ends in a bare class (LMCache/LMCache#1791): the header
    // is learned from the frame line.
    const auto lmcache = tests::readAll(
        prefixed("(EngineCore_DP0 pid=439) ERROR 11-16 05:59:08 [core.py:708] ",
                 {"  File \"/usr/local/lib/python3.12/dist-packages/lmcache/v1/storage_backend/local_cpu_backend.py\", "
                  "line 520, in calculate_chunk_budget",
                  "    assert isinstance(self.memory_allocator, MixedMemoryAllocator)", "AssertionError"}),
        "vllm-serve.log");
    QCOMPARE(lmcache.records.size(), std::size_t(1));
    QCOMPARE(lmcache.records[0].text, std::string("AssertionError"));
    QCOMPARE(lmcache.records[0].line, std::uint64_t(1));
    // A message that announces the traceback on its line (SGLang's `<Component> hit an exception: `,
    // sgl-project/sglang#26265) is no header: it keeps its words, and the unprefixed frames join as before.
    const auto sglang =
        tests::readAll("[2025-03-29 18:18:34 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
                           prefixed("", {traceback.begin() + 1, traceback.end()}),
                       "server.log");
    QVERIFY(findText(sglang.records, "Scheduler hit an exception: Traceback (most recent call last):"));
    QVERIFY(findText(sglang.records, traceback.back()));
}

#include "tst_prefixed_continuations.moc"
