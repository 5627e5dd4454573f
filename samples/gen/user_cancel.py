"""User cancel: the user saw loss spikes and ran scancel; the teardown looks like a crash.

Timeline (true UTC; 2 H100 nodes x 8 GPUs, gpu-u01 and gpu-u02)
  16:00      job starts, resumes from step 3000
  16:31-16:38  loss spikes: WARNING lines "loss spike ... > 3x running mean" on every rank (the training goes on)
  16:39:12   the user runs scancel: "*** JOB ... CANCELLED AT 16:39:12 ***" (no DUE TO clause); SIGTERM to all tasks
  +0.3 s     torchrun on both nodes: "Received Signals.SIGTERM death signal", SignalException
  +0.5-1.5 s DataLoader workers are killed first on some ranks ("DataLoader worker (pid ...) is killed by signal:
             Terminated."), two ranks print NCCL connection resets; every worker exits
  +31 s      srun reports the tasks terminated; slurmctld logged the kill request (uid 1000)
Run: python3 samples/gen/user_cancel.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, rng, us  # noqa: E402
from apps import PY_SITE, Training, torch_prefix, traceback_lines  # noqa: E402
from swkit import (Scenario, make_nodes, nccl_peer_reset, sigterm_exit, slurm_header, slurmctld_line, srun_teardown,  # noqa: E402
                   step_banner, train_frames)

SEED = "user-cancel"
JOB_ID = "3390177"
START = us("2026-06-09T16:00:00Z")
T0 = us("2026-06-09T16:39:12.000000Z")
HERE = os.path.dirname(os.path.abspath(__file__))
DL = f"{PY_SITE}/torch/utils/data"


def build(out):
    nodes = make_nodes(["gpu-u01", "gpu-u02"], START, SEED, prefixes=["torch", "ompi"])
    sc = Scenario(SEED, JOB_ID, "moe-16x1b", START, nodes, "h100")
    tr = Training(3000, START + 52 * US, 1_280_000, 4000, 16 * US, 20, "/lustre/moe/run2/ckpt")
    sc.train(tr, T0)
    sc.kernel_noise(T0 + 40 * US)
    spikes(sc, tr)
    for node in nodes:
        sc.agent_signalled(node, T0 + 260_000 + node.index * 17_000)
    teardown(sc)
    sc.slurm = slurm_out(sc)
    sc.extra["slurmctld.log"] = [
        slurmctld_line(START - 2_700_000, f"sched: Allocate JobId={JOB_ID} NodeList=gpu-u[01-02] #CPUs=224 Partition=h100"),
        slurmctld_line(T0 - 133_000, f"_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId={JOB_ID} uid 1000")]
    sc.write(out)


def spikes(sc, tr):
    for s in (4420, 4520, 4610, 4700):
        for rank in range(sc.job.nranks):
            r = rng(SEED, "spike", s, rank)
            sc.logs[rank].log(tr.step_end(s) + 40_000 + r.randrange(20_000), "WARNING", "train.py:230",
                              f"loss spike at step {s}: {6.5 + r.random() * 2.5:.2f} > 3x running mean 2.08 (grad norm {41 + r.random() * 30:.1f})")


def teardown(sc):
    job = sc.job
    frames = train_frames("batch = next(data_iter)") + [
        (f"{DL}/dataloader.py", 701, "__next__", "data = self._next_data()"),
        (f"{DL}/dataloader.py", 1448, "_next_data", "idx, data = self._get_data()"),
        (f"{DL}/dataloader.py", 1402, "_get_data", "success, data = self._try_get_data()"),
        (f"{DL}/dataloader.py", 1256, "_try_get_data", "raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e"),
        (f"{DL}/_utils/signal_handling.py", 73, "handler", "_error_if_any_worker_fails()")]
    for rank in (2, 9, 14):
        pid = 71_000 + rank * 13
        sc.logs[rank].add(T0 + 520_000 + rank * 30_000, traceback_lines(
            frames, [f"RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Terminated. "], torch_prefix(rank)), "err")
    for rank, peer in ((4, 12), (13, 5)):
        sc.logs[rank].add(T0 + 1_100_000 + rank * 20_000, nccl_peer_reset(job, rank, peer))
    for rank in range(job.nranks):
        if rank not in (2, 9, 14):
            sigterm_exit(sc.logs[rank], T0 + 330_000 + rank * 41_000)


def slurm_out(sc):
    u1 = sc.job.nodes[0]
    out = slurm_header(sc, "srun torchrun --nnodes=2 --nproc-per-node=8 train.py --config moe16x1b.yaml",
                       ["NCCL_DEBUG=WARN"], image="nvcr.io#nvidia/pytorch:24.10-py3")
    return out + ["srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  step_banner(JOB_ID, None, u1, u1.clock(T0)),
                  step_banner(JOB_ID, 0, u1, u1.clock(T0))] + srun_teardown(sc, {"gpu-u01": [0], "gpu-u02": [1]})[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "user-cancel"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
