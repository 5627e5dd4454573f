"""Time limit: nothing failed, the job ran out of wall-clock time and Slurm killed it mid-step.

Timeline (true UTC; 2 A100 nodes x 8 GPUs, gpu-t01 and gpu-t02; sbatch --time=02:00:00)
  04:00:00   job starts, resumes from step 20000; checkpoints every 2000 steps (last one at step 22000)
  06:00:00   time limit: "*** JOB ... CANCELLED AT 06:00:00 DUE TO TIME LIMIT ***"; SIGTERM to all tasks
  +0.2 s     torchrun on both nodes: "Received Signals.SIGTERM death signal", SignalException
  +0.5-2 s   ranks die in the middle of an all-reduce: two ranks print NCCL "Connection reset by peer", one a
             DistBackendError (remote process exited); workers exit on SIGTERM
  +0.1 s     slurmctld logs "Time limit exhausted" (its log excerpt is in the bundle)
  +32 s      srun: tasks Terminated
Run: python3 samples/gen/time_limit.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, us  # noqa: E402
from apps import PY_SITE, Training  # noqa: E402
from swkit import (Scenario, dist_backend_remote, make_nodes, nccl_peer_reset, sigterm_exit, slurm_header,  # noqa: E402
                   slurmctld_line, srun_teardown, step_banner, train_frames)

SEED = "time-limit"
JOB_ID = "1187342"
START = us("2026-06-06T04:00:00Z")
T0 = us("2026-06-06T06:00:00.000000Z")
HERE = os.path.dirname(os.path.abspath(__file__))


def build(out):
    nodes = make_nodes(["gpu-t01", "gpu-t02"], START, SEED, prefixes=["srun", "srun"])
    sc = Scenario(SEED, JOB_ID, "diffusion-xl", START, nodes, "a100")
    tr = Training(20000, START + 71 * US, 2_640_000, 22000, 48 * US, 40, "/lustre/diff/xl/ckpt")
    sc.train(tr, T0)
    sc.kernel_noise(T0 + 40 * US)
    for node in nodes:
        sc.agent_signalled(node, T0 + 190_000 + node.index * 21_000)
    teardown(sc)
    sc.slurm = slurm_out(sc)
    sc.extra["slurmctld.log"] = [
        slurmctld_line(START - 3_100_000, f"sched: Allocate JobId={JOB_ID} NodeList=gpu-t[01-02] #CPUs=256 Partition=a100"),
        slurmctld_line(T0 + 105_000, f"Time limit exhausted for JobId={JOB_ID}")]
    sc.write(out)


def teardown(sc):
    job = sc.job
    frames = train_frames() + [("/workspace/train.py", 244, "train_step", "dist.all_reduce(loss_sum, op=dist.ReduceOp.SUM)"),
                               (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 2501, "all_reduce", "work.wait()")]
    for rank, peer, dt in ((6, 14, 640_000), (11, 3, 702_000)):
        warn = nccl_peer_reset(job, rank, peer)
        sc.logs[rank].add(T0 + dt, warn)
        if rank == 11:
            sc.logs[rank].add(T0 + dt + 45_000, dist_backend_remote(rank, frames, last=warn[0].split("NCCL WARN ", 1)[1]), "err")
    for rank in range(job.nranks):
        if rank != 11:
            sigterm_exit(sc.logs[rank], T0 + 410_000 + rank * 37_000)


def slurm_out(sc):
    t1 = sc.job.nodes[0]
    out = slurm_header(sc, "srun --label torchrun --nnodes=2 --nproc-per-node=8 train.py --config xl.yaml",
                       ["#SBATCH --time=02:00:00", "NCCL_DEBUG=WARN"], image="nvcr.io#nvidia/pytorch:24.10-py3")
    return out + [step_banner(JOB_ID, None, t1, t1.clock(T0), "TIME LIMIT"),
                  step_banner(JOB_ID, 0, t1, t1.clock(T0), "TIME LIMIT")] + srun_teardown(sc, {"gpu-t01": [0], "gpu-t02": [1]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "time-limit"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
