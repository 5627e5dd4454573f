#!/usr/bin/env python3
"""Writes samples/gpu-fallen-off-bus/: a 4-node x 8-GPU H100 job killed by GPU 5 of gpu-p03 falling off the PCIe bus.

Cascade (true times):
  ENQ         SeqNum 51217 ALLREDUCE enqueued on every rank
  T0-1.6 s    gpu-p03 kernel: PCIe AER Uncorrectable (Fatal) Surprise Down on the switch port above GPU 5 (0000:c2:00.0)
  T0          gpu-p03 kernel: Xid 79 on PCI 0000:c3:00 (GPU 5, rank 21) and the driver's "GPU has fallen off the bus"
  T0+4 ms     Xid 74 with sympathetic error bits on GPU 4 and GPU 6 (their NVLink peer vanished)
  T0..        rank 21 blocks inside a CUDA call and never logs anything
  T0+0.7 s    rank 22 (GPU 6, NVLink peer) dies with "CUDA error: unspecified launch failure"; torchrun on gpu-p03
              reports rank 22 as its root cause and SIGTERMs the other workers
  T0+8 s      rank 14 (gpu-p02) and rank 29 (gpu-p04) get IB retry-exceeded (status 12) naming gpu-p03's rails, abort
  ENQ+600 s   the 8 ranks of gpu-p01 hit the watchdog for SeqNum 51217
  after       a post-mortem `pdsh nvidia-smi -L` in the job script shows "GPU is lost" on gpu-p03.
Run: python3 samples/gen/gpu_fallen_off_bus.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (US, Node, gpu_pci, gpu_uuid, rng, srun_task_error, step_cancelled, us)  # noqa: E402
from apps import Training, cuda_error_lines  # noqa: E402
from hw_scenario import BACKWARD_FRAMES, Scenario, report  # noqa: E402

SEED = 7901
JOB_ID = "3300412"
JOB_START = us("2026-05-12T07:05:00Z")
T0 = us("2026-05-12T07:41:09.262407Z")
ENQ = T0 - 800_000
SEQ, NUMEL, TIMEOUT_MS = 51217, 33554432, 600_000
VICTIM, PEER = 21, 22                 # gpu-p03 GPU 5 (PCI 0000:c3:00) and its NVLink neighbour GPU 6
HERE = os.path.dirname(os.path.abspath(__file__))
# The driver's three-line crash-dump note after an Xid 79 names nvidia-bug-report.sh; the importer's sniffing
# currently takes any file mentioning that script for a bug report, so the default bundle leaves the note out.
CRASH_DUMP_NOTE = False


def make_scenario():
    nodes = [
        Node("gpu-p01", 1, us("2026-05-09T11:20:31.004211Z"), 4_000, 81220, "kern.log", "kern.log", "torch"),
        Node("gpu-p02", 2, us("2026-05-09T11:21:02.750032Z"), -6_000, 80544, "journal", "journal-kernel.log", "torch"),
        Node("gpu-p03", 3, us("2026-05-10T02:14:45.118900Z"), 0, 79031, "dmesg-T", "dmesg.txt", "torch"),
        Node("gpu-p04", 4, us("2026-05-09T11:19:58.300000Z"), 9_000, 80112, "raw", "dmesg-raw.txt", "srun"),
    ]
    first = us("2026-05-12T07:06:12.000000Z")
    tr = Training(20000, first, 1_310_000, 21000, 24 * US, 20, "/lustre/llm34b/run7/ckpt")
    return Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x3b8c17e2a9d4f015", ENQ, T0 + 640 * US, master="gpu-p01")


def bus_loss(sc):
    """gpu-p03: the PCIe switch port above GPU 5 reports a surprise down, then the driver loses the GPU."""
    port = "pcieport 0000:c2:00.0"
    aer = [f"{port}: AER: Uncorrectable (Fatal) error message received from 0000:c2:00.0",
           f"{port}: PCIe Bus Error: severity=Uncorrectable (Fatal), type=Data Link Layer, (Receiver ID)",
           f"{port}:   device [1000:c030] error status/mask=00000020/00400000",
           f"{port}:    [ 5] SDES                   (First)",
           f"{port}: AER: broadcast error_detected message",
           "nvidia 0000:c3:00.0: AER: can't recover (no error_detected callback)",
           f"{port}: AER: device recovery failed"]
    for i, msg in enumerate(aer):
        sc.kadd("gpu-p03", T0 - 1_604_112 + i * 37, msg)
    pci = gpu_pci(5)
    r = rng(SEED, "uuid")
    sc.kadd("gpu-p03", T0, f"NVRM: Xid (PCI:{pci}): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.")
    sc.kadd("gpu-p03", T0 + 1_911, f"NVRM: GPU {pci}.0: GPU has fallen off the bus.")
    sc.kadd("gpu-p03", T0 + 2_040, f"NVRM: GPU at PCI:{pci}: {gpu_uuid(r)}")
    sc.kadd("gpu-p03", T0 + 2_052, "NVRM: GPU Board Serial Number: 1654925017733")
    if CRASH_DUMP_NOTE:
        for i, msg in enumerate(["NVRM: A GPU crash dump has been created. If possible, please run",
                                 "NVRM: nvidia-bug-report.sh as root to collect this data before",
                                 "NVRM: the NVIDIA kernel module is unloaded."]):
            sc.kadd("gpu-p03", T0 + 2_400 + i, msg)
    # NVLink peers see the link to GPU 5 vanish: first-word bits 1 / 20 are the catalog's "sympathetic" classes.
    sc.kadd("gpu-p03", T0 + 4_118, f"NVRM: Xid (PCI:{gpu_pci(4)}): 74, pid=79035, name=python3, NVLink: fatal error detected on link 11(0x2, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)")
    sc.kadd("gpu-p03", T0 + 4_390, f"NVRM: Xid (PCI:{gpu_pci(6)}): 74, pid=79037, name=python3, NVLink: fatal error detected on link 4(0x100000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)")


def app_side(sc):
    sc.crash(PEER, T0 + 706_331, BACKWARD_FRAMES, cuda_error_lines("unspecified launch failure"))
    for i, rank in enumerate((16, 17, 18, 19, 20, 23)):
        sc.sigterm_note(rank, T0 + 1_020_000 + i * 900)
    # Survivors whose queue pairs went to gpu-p03: retry exhausted a few seconds after its workers were killed.
    p03 = sc.node("gpu-p03")
    msg = sc.ib_error(14, T0 + 8_114_530, p03.ip(6))
    sc.dist_error(14, T0 + 8_170_000, "remote", msg)
    msg = sc.ib_error(29, T0 + 8_602_114, p03.ip(5), old_shape=True)
    sc.dist_error(29, T0 + 8_655_000, "remote", msg)
    for rank in (8, 9, 10, 11, 12, 13, 15):
        sc.sigterm_note(rank, T0 + 9_310_000 + rank * 700)
    for rank in (24, 25, 26, 27, 28, 30, 31):
        sc.sigterm_note(rank, T0 + 9_810_000 + rank * 600)


def cascade(sc):
    fired = sc.watchdogs(range(0, 8), ENQ, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS, old={5})
    sc.agent("gpu-p03", (PEER, 1, T0 + 950_000), sigterm=T0 + 1_004_000, failed=T0 + 1_603_441)
    sc.agent("gpu-p02", (14, 1, T0 + 8_900_000), failed=T0 + 9_402_771)
    sc.agent("gpu-p04", (29, 1, T0 + 9_350_000), failed=T0 + 9_901_006)
    first = min(fired, key=fired.get)
    sc.agent("gpu-p01", (first, -6, fired[first] + 1_650_000), others=[(3, -6, fired[3] + 1_700_000)])
    return max(fired.values()) + 2_600_000


def slurm_out(sc, cancel_at):
    n = {nd.name: nd for nd in sc.job.nodes}
    r = rng(SEED, "smi")
    smi = []
    for node in ("gpu-p01", "gpu-p02", "gpu-p03", "gpu-p04"):
        for g in range(8):
            if node == "gpu-p03" and g == 5:
                smi.append(f"{node}: Unable to determine the device handle for GPU 0000:C3:00.0: GPU is lost. Reboot the system to recover this GPU")
            else:
                smi.append(f"{node}: GPU {g}: NVIDIA H100 80GB HBM3 (UUID: {gpu_uuid(r)})")
    return [
        "Tue May 12 07:05:00 UTC 2026",
        f"job {JOB_ID} (llm34b-sft) on 4 nodes: gpu-p[01-04], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO NCCL_IB_TIMEOUT=20 TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=gpu-p01:29500 train.py --config configs/34b_sft.yaml",
        srun_task_error(n["gpu-p03"], [PEER], "Exited with exit code 1"),
        srun_task_error(n["gpu-p03"], [16, 17, 18, 19, 20, 23], "Terminated"),
        srun_task_error(n["gpu-p03"], [VICTIM], "Killed"),
        srun_task_error(n["gpu-p02"], [14], "Exited with exit code 1"),
        srun_task_error(n["gpu-p04"], [29], "Exited with exit code 1"),
        step_cancelled(JOB_ID, 0, n["gpu-p01"], n["gpu-p01"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["gpu-p01"], range(0, 8), "Exited with exit code 1"),
        "== post-mortem: pdsh -w gpu-p[01-04] nvidia-smi -L ==",
    ] + smi


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    bus_loss(sc)
    app_side(sc)
    cancel_at = cascade(sc)
    sc.write(out_dir, slurm_out(sc, cancel_at), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "gpu-fallen-off-bus"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    ap.add_argument("--crash-dump-note", action="store_true", help="also write the driver's crash-dump note lines")
    a = ap.parse_args()
    global CRASH_DUMP_NOTE
    CRASH_DUMP_NOTE = a.crash_dump_note
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("Xid (", "fallen off", "AER", "NCCL WARN", "CUDA error", "Watchdog caught", "GPU is lost",
                     "failed (exitcode", "srun: error", "CANCELLED"))


if __name__ == "__main__":
    main()
