"""Preemption: Slurm cancels the job for a higher-priority one; the teardown prints NCCL errors and watchdog timeouts.

Timeline (true UTC; 2 H100 nodes x 8 GPUs, gpu-f01 and gpu-f02; partition with PreemptMode=CANCEL, GraceTime=120)
  10:00      job starts, resumes from step 8000, trains normally
  10:47:31   Slurm preempts the job: "*** JOB ... CANCELLED AT 10:47:31 DUE TO PREEMPTION ***"; SIGTERM to all tasks
  +0.3 s     torchrun on both nodes: "Received Signals.SIGTERM death signal", forwards SIGTERM, SignalException
  +0.6 s     gpu-f02's ranks are mid gradient-accumulation: their handler exits without a checkpoint
  +0.8 s     gpu-f01's ranks are at a step boundary: their handler starts an emergency checkpoint and waits in a barrier
             on the checkpoint process group (timeout 60 s); two of them log NCCL "Connection closed by remote peer"
  +61 s      the 8 ranks of gpu-f01: "Watchdog caught collective operation timeout ... OpType=BARRIER ... Timeout(ms)=60000"
             and abort; torchrun reports exit -6; srun reports the tasks terminated
Run: python3 samples/gen/preemption.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, rng, srun_task_error, us  # noqa: E402
from apps import ELASTIC, Training, elastic_line, watchdog_timeout  # noqa: E402
from swkit import Scenario, make_nodes, nccl_peer_closed, slurm_header, step_banner  # noqa: E402

SEED = "preemption"
JOB_ID = "9021733"
START = us("2026-06-04T10:00:00Z")
T0 = us("2026-06-04T10:47:31.000000Z")
SEQ, TIMEOUT_MS = 12, 60_000
HERE = os.path.dirname(os.path.abspath(__file__))


def build(out):
    nodes = make_nodes(["gpu-f01", "gpu-f02"], START, SEED, prefixes=["torch", "srun"])
    sc = Scenario(SEED, JOB_ID, "llm8b-cpt", START, nodes, "h100")
    tr = Training(8000, START + 55 * US, 1_340_000, 9500, 17 * US, 20, "/lustre/cpt/llm8b/ckpt")
    sc.train(tr, T0)
    sc.kernel_noise(T0 + 70 * US)
    f1, f2 = nodes
    for node in nodes:
        sc.agent_signalled(node, T0 + 280_000 + node.index * 13_000)
    for rank in sc.job.ranks_on(f2):
        sc.logs[rank].log(T0 + 610_000 + rank * 3_000, "WARNING", "train.py:51",
                          "received SIGTERM during gradient accumulation (micro-batch 5/8): exiting without checkpoint")
    fired = emergency_save(sc, f1)
    sc.slurm = slurm_out(sc, fired)
    sc.write(out)


def emergency_save(sc, node):
    fired = {}
    for rank in sc.job.ranks_on(node):
        log, r = sc.logs[rank], rng(SEED, "save", rank)
        t = T0 + 790_000 + rank * 4_100
        log.log(t, "WARNING", "train.py:51", "received SIGTERM at step boundary 9571: saving emergency checkpoint")
        if rank in (2, 5):
            log.add(t + 1_900_000, nccl_peer_closed(sc.job, rank, rank + 8))
        fire = t + 9_000 + TIMEOUT_MS * 1000 + r.randrange(4_000, 60_000)
        ran = (fire - t - 9_000) // 1000
        lines = watchdog_timeout(rank, node.clock(fire), r, SEQ, "BARRIER", 1, TIMEOUT_MS, ran, SEQ, SEQ - 1)
        lines = [x.replace("[PG 0 Rank", "[PG 1 Rank") for x in lines]
        log.add(fire, lines, "err", step=40)
        fired[rank] = fire
    first = min(fired, key=fired.get)
    sc.agents[node.name] += agent_tail(sc, node, first, fired[first])
    return fired


def agent_tail(sc, node, rank, t):
    return [elastic_line(node.clock(t + 1_700_000), f"{ELASTIC}.multiprocessing.api", "ERROR",
                         f"failed (exitcode: -6) local_rank: {sc.job.local(rank)} (pid: {sc.job.pid(rank)}) of binary: /usr/bin/python3")]


def slurm_out(sc, fired):
    f1, f2 = sc.job.nodes
    out = slurm_header(sc, "srun torchrun --nnodes=2 --nproc-per-node=8 train.py --config configs/llm8b_cpt.yaml",
                       ["#SBATCH --partition=preemptible --requeue=no", "NCCL_DEBUG=WARN"],
                       image="nvcr.io#nvidia/pytorch:24.10-py3")
    return out + [
        step_banner(JOB_ID, None, f1, f1.clock(T0), "PREEMPTION"),
        step_banner(JOB_ID, 0, f1, f1.clock(T0), "PREEMPTION"),
        "srun: Job step aborted: Waiting up to 122 seconds for job step to finish.",
        "srun: got SIGCONT",
        "srun: forcing job termination",
        srun_task_error(f2, [1], "Terminated"),
        srun_task_error(f1, [0], "Exited with exit code 1"),
        f"srun: Force Terminated StepId={JOB_ID}.0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "preemption"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
