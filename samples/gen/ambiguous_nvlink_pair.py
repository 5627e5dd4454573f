#!/usr/bin/env python3
"""Writes samples/ambiguous-nvlink-pair/: a 4-node x 4-GPU GB200 job in which two NVLink links on two different
nodes go down 1.1 s apart, both for signal-integrity reasons. Nothing in the bundle says which came first for real
(the gap is within the clock-skew bound) or whether a shared NVSwitch tray took both down: the honest verdict is
"ambiguous", and the Fabric Manager / NVSwitch logs that would separate the candidates were not collected.

Cascade (true times):
  T0          node-02 GPU 1: Xid 149 NETIR_LINK_EVT Fatal, reason 2 (high BER)
  T0+1.1 s    node-03 GPU 0: Xid 149 NETIR_LINK_EVT Fatal, reason 43 (too many link error recoveries)
  T0+0.4..2 s Xid 45 / 154 follow-ups on both GPUs; ranks 5 and 8 raise "uncorrectable NVLink error"
  T0+2..9 s   node-01 / node-04 ranks see ncclRemoteError; ENQ+600 s: watchdog timeouts on the survivors
Run: python3 samples/gen/ambiguous_nvlink_pair.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (US, Job, Node, gpu_pci, iso_z, noisy_kernel_log, rng,  # noqa: E402
                    srun_task_error, step_cancelled, us, write_json, write_lines)
from apps import (PY_SITE, RankLog, Training, cuda_error_lines, torch_prefix, traceback_lines,  # noqa: E402
                  training_noise, watchdog_timeout)

SEED = 2
JOB_ID = "88120"
JOB_START = us("2026-09-14T13:00:00Z")
T0 = us("2026-09-14T13:41:07.204551Z")
ENQ = T0 - 450_000
SEQ, NUMEL, TIMEOUT_MS = 15520, 16777216, 600_000
HERE = os.path.dirname(os.path.abspath(__file__))
# (node, local GPU, rank, delay us, intrInfo, link)
LINK_DOWNS = [("gb-n02", 1, 5, 0, "0x002425c6", "04"), ("gb-n03", 0, 8, 1_104_220, "0x02b425c6", "11")]
FRAMES = [("/workspace/train.py", 388, "<module>", "main()"),
          ("/workspace/train.py", 361, "main", "loss = step_fn(batch)"),
          (f"{PY_SITE}/torch/_tensor.py", 581, "backward", "torch.autograd.backward(")]


def make_job():
    return Job(JOB_ID, [
        Node("gb-n01", 1, us("2026-09-10T06:00:11.000000Z"), 4_000, 30110, "journal", "journal-kernel.log", "torch"),
        Node("gb-n02", 2, us("2026-09-10T06:00:42.000000Z"), -9_000, 30544, "dmesg-T", "dmesg.txt", "torch"),
        Node("gb-n03", 3, us("2026-09-10T06:01:03.000000Z"), 12_000, 31010, "journal", "journal-kernel.log", "torch"),
        Node("gb-n04", 4, us("2026-09-10T05:59:58.000000Z"), -2_000, 29001, "kern.log", "kern.log", "torch"),
    ], gpus_per_node=4)


def kernel_log(node):
    k = noisy_kernel_log(node, SEED, JOB_START, T0 + 620 * US)
    for name, local, rank, delay, intr, link in LINK_DOWNS:
        if name != node.name:
            continue
        pci, t = gpu_pci(local), T0 + delay
        pid = node.pid_base + local
        k.add(t, f"NVRM: Xid (PCI:{pci}): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link {link} ({intr} 0x00000000 "
                 "0x00000000 0x00000000 0x00000000 0x00000000)")
        for i in range(3):
            k.add(t + 291_000 + i * 37, f"NVRM: Xid (PCI:{pci}): 45, pid={pid}, name=python3, Ch {0x20 + i:08x}")
        k.add(t + 412_800, f"NVRM: Xid (PCI:{pci}): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)")
    return k


def rank_logs(job):
    tr = Training(3000, us("2026-09-14T13:01:02Z"), 2_210_000, 3500, 17 * US, 10, "/lustre/gb/ckpt")
    logs = {}
    for rank in range(job.nranks):
        r = rng(SEED, "rank", rank)
        logs[rank] = RankLog(job, rank)
        training_noise(logs[rank], r, tr, JOB_START + 2 * US, ENQ, f"0x57{r.getrandbits(16):04x}c0", "0x99aa77bb11cc22dd")
    return logs


def failures(job, logs):
    for _, local, rank, delay, _, _ in LINK_DOWNS:
        t = T0 + delay + 640_000
        logs[rank].log(t, "ERROR", "train.py:364", f"step failed on cuda:{local}, aborting")
        logs[rank].add(t + 800, traceback_lines(FRAMES, cuda_error_lines("uncorrectable NVLink error detected during the execution"),
                                                torch_prefix(rank)), "err")
    for rank, delay in ((1, 2_900_000), (14, 8_700_000)):
        logs[rank].add(T0 + delay, [torch_prefix(rank) + "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, remote process exited or there was a network error, NCCL version 2.23.4",
                                    torch_prefix(rank) + "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."], "err")


def watchdogs(job, logs):
    for rank in range(job.nranks):
        node = job.node_of(rank)
        if node.name in ("gb-n02", "gb-n03"):
            continue
        r = rng(SEED, "watchdog", rank)
        enq = ENQ + r.randrange(400, 6_000)
        t = enq + TIMEOUT_MS * 1000 + r.randrange(5_000, 80_000)
        logs[rank].add(t, watchdog_timeout(rank, node.clock(t), r, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS,
                                           (t - enq) // 1000, SEQ + 1, SEQ - 1), "err", step=40)


def build(out_dir):
    job = make_job()
    logs = rank_logs(job)
    failures(job, logs)
    watchdogs(job, logs)
    times = []
    for node in job.nodes:
        d = os.path.join(out_dir, "nodes", node.name)
        k = kernel_log(node)
        write_lines(os.path.join(d, node.kernel_file), k.render())
        times += k.times()
        for rank in job.ranks_on(node):
            write_lines(os.path.join(d, f"rank-{rank:02d}.log"), logs[rank].render())
            times += logs[rank].times()
    n = {nd.name: nd for nd in job.nodes}
    cancel = max(times) + 1_300_000
    write_lines(os.path.join(out_dir, f"slurm-{JOB_ID}.out"), [
        f"job {JOB_ID} on 4 nodes (GB200 NVL72 partition), 16 GPUs",
        srun_task_error(n["gb-n02"], [5], "Exited with exit code 1"),
        srun_task_error(n["gb-n03"], [8], "Exited with exit code 1"),
        step_cancelled(JOB_ID, 0, n["gb-n01"], n["gb-n01"].clock(cancel)),
        srun_task_error(n["gb-n01"], range(0, 4), "Exited with exit code 1"),
        srun_task_error(n["gb-n04"], range(12, 16), "Exited with exit code 1"),
        srun_task_error(n["gb-n02"], [4, 6, 7], "Terminated"),
        srun_task_error(n["gb-n03"], [9, 10, 11], "Terminated"),
    ])
    write_json(os.path.join(out_dir, "workload.json"), {
        "id": JOB_ID, "scheduler": "slurm", "attempt": 0, "platform": "gb200",
        "start": iso_z(JOB_START), "end": iso_z((cancel // US + 2) * US), "nodes": [nd.name for nd in job.nodes]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "ambiguous-nvlink-pair"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
