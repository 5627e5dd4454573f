"""NCCL collective hang: one rank is stuck in its DataLoader and never reaches the collective; 31 others time out.

Timeline (true UTC; 4 H100 nodes x 8 GPUs, rank r on gpu-h0{r//8+1}, GPU r%8)
  06:36      job starts, resumes from step 2000, trains normally (step lines every 10 steps)
  06:57:43   a DataLoader worker of rank 13 (gpu-h02, GPU 5) starts tokenizing a 48 MB "document": the worker spins,
             the main thread waits for its next batch and never enqueues ALLREDUCE SeqNum 17284
  +0.2 s     the other 31 ranks finish their forward/backward and enqueue SeqNum 17284..17287
  +300 s     rank 13's faulthandler dumps its threads: the main thread is in DataLoader._try_get_data
  +600 s     31 ranks: Watchdog caught collective operation timeout (SeqNum 17284), SIGABRT
  +602 s     torchrun agents report exit -6 (gpu-h02's agent SIGTERMs rank 13), Slurm cancels the step
Run: python3 samples/gen/nccl_hang.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, rng, srun_task_error, us  # noqa: E402
from apps import PY_SITE, Training  # noqa: E402
from swkit import Scenario, faulthandler_dump, make_nodes, slurm_header, step_banner, watchdog  # noqa: E402

SEED = "nccl-hang"
JOB_ID = "3318842"
START = us("2026-05-11T06:36:00Z")
STUCK = us("2026-05-11T06:57:43.120511Z")   # rank 13's worker starts on the huge sample
ENQ = STUCK + 214_000                         # the other ranks enqueue SeqNum 17284
SEQ, NUMEL, TIMEOUT_MS = 17284, 25165824, 600_000
CULPRIT = 13
HERE = os.path.dirname(os.path.abspath(__file__))
LIB = "/usr/lib/python3.10"
DL = f"{PY_SITE}/torch/utils/data/dataloader.py"


def build(out):
    nodes = make_nodes(["gpu-h01", "gpu-h02", "gpu-h03", "gpu-h04"], START, SEED,
                       skews={"gpu-h01": 8_000, "gpu-h02": -14_000, "gpu-h03": 3_000, "gpu-h04": 21_000})
    sc = Scenario(SEED, JOB_ID, "llm13b-sft", START, nodes, "h100")
    first = START + 61 * US
    tr = Training(2000, first, 1_180_000, 2500, 19 * US, 10, "/lustre/sft/run7/ckpt")
    sc.train(tr, ENQ)
    sc.kernel_noise(ENQ + 620 * US)
    culprit_log(sc)
    fired = timeouts(sc)
    agents(sc, fired)
    sc.slurm = slurm_out(sc, fired)
    sc.write(out)


def culprit_log(sc):
    log = sc.logs[CULPRIT]
    log.log(STUCK - 1_900_000, "WARNING", "data.py:141",
            "worker 5: sample 1882731 of shard 0417 has 48213911 characters (max_chars=200000, truncate=False)")
    main = [(f"{LIB}/selectors.py", 416, "select"), (f"{LIB}/multiprocessing/connection.py", 936, "wait"),
            (f"{LIB}/multiprocessing/connection.py", 424, "_poll"), (f"{LIB}/multiprocessing/connection.py", 257, "poll"),
            (f"{LIB}/multiprocessing/queues.py", 113, "get"), (DL, 1243, "_try_get_data"), (DL, 1411, "_get_data"),
            (DL, 1448, "_next_data"), (DL, 701, "__next__"), ("/workspace/train.py", 396, "main"),
            ("/workspace/train.py", 431, "<module>")]
    pin = [(f"{LIB}/threading.py", 324, "wait"), (f"{LIB}/multiprocessing/queues.py", 180, "get"),
           (f"{PY_SITE}/torch/utils/data/_utils/pin_memory.py", 31, "do_one_step"),
           (f"{PY_SITE}/torch/utils/data/_utils/pin_memory.py", 54, "_pin_memory_loop"),
           (f"{LIB}/threading.py", 953, "run"), (f"{LIB}/threading.py", 1016, "_bootstrap_inner"),
           (f"{LIB}/threading.py", 973, "_bootstrap")]
    for k in (1, 2):
        log.add(STUCK + k * 300 * US + 4_000, faulthandler_dump(300, [(0x7f1be2ffd640, pin), (0x7f1d7a2b4740, main)]), "err")


def timeouts(sc):
    """Every rank but 13 times out on SeqNum 17284; three ranks run the older PyTorch print shape."""
    fired = {}
    for rank in range(sc.job.nranks):
        if rank == CULPRIT:
            continue
        r = rng(SEED, "fire", rank)
        t = ENQ + r.randrange(0, 300_000) + TIMEOUT_MS * 1000 + r.randrange(3_000, 95_000)
        watchdog(sc, rank, t, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS, SEQ + 3, SEQ - 1, old=rank in (22, 23))
        fired[rank] = t
    return fired


def agents(sc, fired):
    for node in sc.job.nodes:
        ranks = [rk for rk in sc.job.ranks_on(node) if rk in fired]
        first = min(ranks, key=fired.get)
        failed = fired[first] + 1_720_000
        others = [(rk, -6, fired[rk] + 1_760_000) for rk in ranks if rk != first][:2]
        sc.agent_failure(node, failed - 260_000, failed, (first, -6, fired[first] + 1_650_000), others)
        if node.name == "gpu-h02":
            sc.logs[CULPRIT].log(failed - 255_000, "WARNING", "train.py:47", "received SIGTERM, exiting")


def slurm_out(sc, fired):
    cancel = max(fired.values()) + 2_600_000
    nodes = sc.job.nodes
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d "
                           "--rdzv-endpoint=gpu-h01:29500 train.py --config configs/13b_sft.yaml",
                       ["NCCL_DEBUG=INFO TORCH_NCCL_ASYNC_ERROR_HANDLING=3 TORCH_NCCL_DUMP_ON_TIMEOUT=0"],
                       image="nvcr.io#nvidia/pytorch:24.10-py3")
    out += [srun_task_error(nodes[2], [2], "Exited with exit code 1"),
            step_banner(JOB_ID, 0, nodes[0], nodes[0].clock(cancel), "TASK FAILURE"),
            "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
            srun_task_error(nodes[0], [0], "Exited with exit code 1"),
            srun_task_error(nodes[3], [3], "Exited with exit code 1"),
            srun_task_error(nodes[1], [1], "Exited with exit code 1"),
            f"srun: Force Terminated StepId={JOB_ID}.0"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "nccl-hang"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
