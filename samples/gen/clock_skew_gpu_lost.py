#!/usr/bin/env python3
"""Writes samples/clock-skew-gpu-lost/: a 4-node x 8-GPU H100 job hung by a GPU that fell off the bus on a node
whose clock runs 47 s fast.

Cascade (true times):
  ENQ         SeqNum 8802 ALLREDUCE enqueued on every rank
  T0          node-03 kernel: Xid 79 "GPU has fallen off the bus" on PCI 0000:9d:00 = GPU 4 (rank 20);
              node-03's clock is +47 s, so its own logs say T0+47 s
  T0..        rank 20 blocks inside a CUDA call: it never logs an error and never times out
  ENQ+600 s   the 31 other ranks (node-03's other seven too) hit the watchdog for SeqNum 8802 within ~100 ms
  +~2 s       torchrun agents report -6, Slurm cancels the step.
The watchdog lines, simultaneous by construction, let the engine measure node-03's offset (about -47 s) and put
the Xid before the hang, where it belongs.
Run: python3 samples/gen/clock_skew_gpu_lost.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (US, Job, Node, gpu_pci, iso_z, noisy_kernel_log, rng,  # noqa: E402
                    srun_task_error, step_cancelled, us, write_json, write_lines)
from apps import (RankLog, Training, torchrun_failure, torchrun_start, training_noise,  # noqa: E402
                  watchdog_timeout)

SEED = 79
JOB_ID = "2201877"
JOB_START = us("2026-06-03T08:00:00Z")
T0 = us("2026-06-03T09:12:41.530118Z")
ENQ = T0 - 1_100_000
SEQ, NUMEL, TIMEOUT_MS = 8802, 50331648, 600_000
SKEW_US = 47_000_000                # node-03 runs fast
VICTIM = 20                         # node-03 local GPU 4, PCI 0000:9d:00
HERE = os.path.dirname(os.path.abspath(__file__))


def make_job():
    return Job(JOB_ID, [
        Node("gpu-a01", 1, us("2026-06-01T02:10:04.220000Z"), 3_000, 61200, "journal", "journal-kernel.log", "torch"),
        Node("gpu-a02", 2, us("2026-06-01T02:11:55.410000Z"), -8_000, 61544, "dmesg-T", "dmesg.txt", "srun"),
        Node("gpu-a03", 3, us("2026-06-02T17:45:30.900000Z"), SKEW_US, 70410, "journal", "journal-kernel.log", "torch"),
        Node("gpu-a04", 4, us("2026-06-01T02:09:12.050000Z"), 11_000, 60001, "kern.log", "kern.log", "ompi"),
    ])


def kernel_log(node):
    k = noisy_kernel_log(node, SEED, JOB_START, T0 + 620 * US)
    if node.name == "gpu-a03":
        pci = gpu_pci(4)
        k.add(T0, f"NVRM: Xid (PCI:{pci}): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.")
        k.add(T0 + 2_114, f"NVRM: GPU {pci}.0: GPU has fallen off the bus.")
        k.add(T0 + 61_000_000, "INFO: task pt_main_thread:70414 blocked for more than 61 seconds.")
        k.add(T0 + 61_000_050, '"echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.')
    return k


def rank_logs(job):
    first = us("2026-06-03T08:01:10.000000Z")
    tr = Training(12000, first, 1_470_000, 13000, 19 * US, 10, "/lustre/proj/ckpt")
    logs = {}
    for rank in range(job.nranks):
        r = rng(SEED, "rank", rank)
        logs[rank] = RankLog(job, rank)
        training_noise(logs[rank], r, tr, JOB_START + 2 * US, ENQ, f"0x56{r.getrandbits(16):04x}b0", "0x1c2d3e4f5a6b7c8d")
    return logs


def watchdogs(job, logs):
    fired = {}
    for rank in range(job.nranks):
        if rank == VICTIM:
            continue
        r = rng(SEED, "watchdog", rank)
        enq = ENQ + r.randrange(500, 9_000)
        t = enq + TIMEOUT_MS * 1000 + r.randrange(6_000, 90_000)
        lines = watchdog_timeout(rank, job.node_of(rank).clock(t), r, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS,
                                 (t - enq) // 1000, SEQ + 1, SEQ - 1, old=False)
        logs[rank].add(t, lines, "err", step=40)
        fired[rank] = t
    return fired


def torchrun_logs(job, fired):
    out = {}
    for node in job.nodes:
        lines = torchrun_start(job, node, node.clock(JOB_START + 2 * US + 95_000))
        ranks = job.ranks_on(node)
        first_rank = min(rk for rk in ranks if rk in fired)
        t_first = fired[first_rank] + 1_600_000
        failed = t_first + 300_000
        term = [rk for rk in ranks if rk != first_rank]
        lines += torchrun_failure(job, node, node.clock(failed - 250_000), node.clock(failed),
                                  (first_rank, -6, node.clock(t_first)), term, [])
        out[node.name] = (lines, failed)
    return out


def slurm_out(job, cancel_at):
    n = {nd.name: nd for nd in job.nodes}
    return [
        "Wed Jun  3 08:00:00 UTC 2026",
        f"job {JOB_ID} (moe-pretrain) on 4 nodes: gpu-a[01-04], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=gpu-a01:29500 train.py",
        srun_task_error(n["gpu-a01"], range(0, 8), "Exited with exit code 1"),
        step_cancelled(JOB_ID, 0, n["gpu-a01"], n["gpu-a01"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["gpu-a02"], range(8, 16), "Exited with exit code 1"),
        srun_task_error(n["gpu-a04"], range(24, 32), "Exited with exit code 1"),
        srun_task_error(n["gpu-a03"], [16, 17, 18, 19, 21, 22, 23], "Exited with exit code 1"),
        srun_task_error(n["gpu-a03"], [20], "Killed"),
    ]


def build(out_dir):
    job = make_job()
    logs = rank_logs(job)
    fired = watchdogs(job, logs)
    agents = torchrun_logs(job, fired)
    cancel_at = max(f for _, f in agents.values()) + 400_000
    times = [cancel_at]
    for node in job.nodes:
        d = os.path.join(out_dir, "nodes", node.name)
        k = kernel_log(node)
        write_lines(os.path.join(d, node.kernel_file), k.render())
        lines, failed = agents[node.name]
        write_lines(os.path.join(d, "torchrun.log"), lines)
        times += k.times() + [failed]
        for rank in job.ranks_on(node):
            write_lines(os.path.join(d, f"rank-{rank:02d}.log"), logs[rank].render())
            times += logs[rank].times()
    write_lines(os.path.join(out_dir, f"slurm-{JOB_ID}.out"), slurm_out(job, cancel_at))
    write_json(os.path.join(out_dir, "workload.json"), {
        "id": JOB_ID, "scheduler": "slurm", "attempt": 1, "platform": "h100",
        "start": iso_z(JOB_START), "end": iso_z((max(times) // US + 2) * US), "nodes": [n.name for n in job.nodes]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "clock-skew-gpu-lost"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
