#!/usr/bin/env python3
"""Writes samples/nvswitch-sxid-fabric/: a 4-node x 8-GPU H100 job killed by a fatal NVSwitch error on dgxh-08.

Cascade (true times):
  T0          dgxh-08 kernel: nvidia-nvswitch2 SXid 20034 Fatal, Link 30 LTSSM Fault Up (+ Severity and Data lines)
  T0+3..6 ms  Xid 74 on GPU 2 and GPU 3 of dgxh-08 (both cabled to switch 2): NVLink fatal error on their links
  T0+0.2 s    Fabric Manager on dgxh-08: "detected NVSwitch fatal error 20034 ... physical id 2 port 30"
  T0+0.6 s    ranks 10 and 11 (GPU 2, 3) die with "CUDA error: uncorrectable NVLink error detected"
  T0+1 s      dgxh-08's torchrun SIGTERMs its other workers
  T0+2..8 s   dgxh-09 rank 19 ncclRemoteError (socket reset), dgxh-07 rank 2 status 12 naming dgxh-08
  ENQ+600 s   dgxh-10's ranks hit the watchdog.
Noise: dgxh-10's Fabric Manager log still holds yesterday's driver-version mismatch (fixed by a reboot), and the
other FM logs show routine multicast-team lines.
Run: python3 samples/gen/nvswitch_sxid_fabric.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import MONTHS, US, Node, gpu_pci, rng, srun_task_error, step_cancelled, us, _dt  # noqa: E402
from apps import Training, cuda_error_lines, nccl_line  # noqa: E402
from hw_scenario import BACKWARD_FRAMES, SOCKET_FRAMES, Scenario, report  # noqa: E402

SEED = 20034
JOB_ID = "6120533"
JOB_START = us("2026-09-02T01:10:00Z")
T0 = us("2026-09-02T01:47:31.740743Z")
ENQ = T0 - 350_000
SEQ, NUMEL, TIMEOUT_MS = 14402, 67108864, 600_000
SWITCH_PCI = "0000:07:00.0"
FM_VERSION = "570.158.01"
HERE = os.path.dirname(os.path.abspath(__file__))


def fm_stamp(t):
    """Fabric Manager stamp: [Sep 02 2026 01:47:31] (local time; these hosts run on UTC)."""
    d = _dt(t)
    return f"[{MONTHS[d.month - 1]} {d.day:02d} {d.year} {d:%H:%M:%S}]"


def make_scenario():
    nodes = [
        Node("dgxh-07", 1, us("2026-08-30T16:02:44.901000Z"), 6_000, 52110, "kern.log", "kern.log", "torch"),
        Node("dgxh-08", 2, us("2026-08-30T16:03:12.338000Z"), 0, 51988, "dmesg-T", "dmesg.txt", "torch"),
        Node("dgxh-09", 3, us("2026-08-30T16:01:57.150000Z"), -9_000, 52604, "journal", "journal-kernel.log", "srun"),
        Node("dgxh-10", 4, us("2026-09-01T18:40:05.000000Z"), 12_000, 50777, "journal", "journal-kernel.log", "torch"),
    ]
    first = us("2026-09-02T01:11:08.000000Z")
    tr = Training(4200, first, 1_260_000, 5000, 26 * US, 20, "/lustre/moe16x8b/ckpt")
    return Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x7d7e7f8081828384", ENQ, T0 + 640 * US, master="dgxh-07")


def switch_failure(sc):
    sw = f"nvidia-nvswitch2: SXid (PCI:{SWITCH_PCI}): 20034"
    for dt, msg in ((0, f"{sw}, Fatal, Link 30 LTSSM Fault Up"),
                    (31, f"{sw}, Severity 1 Engine instance 30 Sub-engine instance 00"),
                    (58, f"{sw}, Data {{0x10000000, 0x10000000, 0x00000000, 0x10000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}}"),
                    (2_904, f"{sw}, Fatal, Link 31 LTSSM Fault Up"),
                    (2_931, f"{sw}, Severity 1 Engine instance 31 Sub-engine instance 00"),
                    (2_957, f"{sw}, Data {{0x10000000, 0x10000000, 0x00000000, 0x10000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}}")):
        sc.kadd("dgxh-08", T0 + dt, msg)
    for dt, gpu, link in ((3_377, 2, 14), (5_912, 3, 15)):
        sc.kadd("dgxh-08", T0 + dt, f"NVRM: Xid (PCI:{gpu_pci(gpu)}): 74, pid={sc.job.pid(8 + gpu)}, name=python3, "
                                    f"NVLink: fatal error detected on link {link}(0x10000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)")


def fm_logs(sc):
    for node in sc.job.nodes:
        r = rng(SEED, "fm", node.name)
        boot = node.boot + 31 * US + r.randrange(US)
        tid = 2200 + r.randrange(90)
        lines = []
        if node.name == "dgxh-10":  # yesterday: driver updated, FM package not yet; fixed by the reboot at node.boot
            t = us("2026-09-01T16:22:09Z")
            lines += [f"{fm_stamp(t)} [INFO] [tid 1877] Fabric Manager version {FM_VERSION} is running with the following configuration options",
                      f"{fm_stamp(t)} [ERROR] [tid 1877] fabric manager NVIDIA GPU driver interface version {FM_VERSION} don't match with driver version 570.133.20. Please update with matching NVIDIA driver package."]
        lines += [f"{fm_stamp(boot)} [INFO] [tid {tid}] Fabric Manager version {FM_VERSION} is running with the following configuration options",
                  f"{fm_stamp(boot)} [INFO] [tid {tid}] Logging level = 4",
                  f"{fm_stamp(boot)} [INFO] [tid {tid}] Fabric Mode = 0",
                  f"{fm_stamp(boot + 9 * US)} [INFO] [tid {tid}] Successfully configured all the available NVSwitches to route GPU NVLink traffic. NVLink Peer-to-Peer support will be enabled once the GPUs are successfully registered with the NVLink fabric."]
        t = sc.start + 40 * US + r.randrange(US)
        for _ in range(3):
            lines.append(f"{fm_stamp(t)} [INFO] [tid {tid + 91}] successfully setup multicast team for request id {r.getrandbits(63)}.")
            t += r.randrange(20, 600) * US
        if node.name == "dgxh-08":
            t = T0 + 204_518
            lines += [f"{fm_stamp(t)} [ERROR] [tid {tid + 87}] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:07:00.0 physical id 2 port 30",
                      f"{fm_stamp(t)} [ERROR] [tid {tid + 87}] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:07:00.0 physical id 2 port 31"]
        sc.add_file(f"nodes/{node.name}/fabricmanager.log", lines)


def app_side(sc):
    sc.crash(10, T0 + 611_032, BACKWARD_FRAMES, cuda_error_lines("uncorrectable NVLink error detected during the execution"))
    sc.crash(11, T0 + 644_710, BACKWARD_FRAMES, cuda_error_lines("uncorrectable NVLink error detected during the execution"))
    for i, rank in enumerate((8, 9, 12, 13, 14, 15)):
        sc.sigterm_note(rank, T0 + 1_004_000 + i * 800)
    lost = sc.node("dgxh-08").ip(3)
    msg = f"Net : Call to recv from {lost}<49122> failed : Connection reset by peer"
    sc.logs[19].add(T0 + 2_114_602, [nccl_line(sc.job, 19, msg, "WARN", "misc/socket.cc:518", 131)]
                    + [nccl_line(sc.job, 19, f"{f} -> 6", tid_off=131) for f in SOCKET_FRAMES])
    sc.dist_error(19, T0 + 2_180_000, "remote", msg)
    last = sc.ib_error(2, T0 + 7_655_318, sc.node("dgxh-08").ip(2))
    sc.dist_error(2, T0 + 7_720_000, "remote", last)
    for rank in (0, 1, 3, 4, 5, 6, 7):
        sc.sigterm_note(rank, T0 + 8_400_000 + rank * 500)
    for rank in (16, 17, 18, 20, 21, 22, 23):
        sc.sigterm_note(rank, T0 + 2_900_000 + rank * 400)


def cascade(sc):
    fired = sc.watchdogs(range(24, 32), ENQ, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS, old={30})
    sc.agent("dgxh-08", (10, 1, T0 + 900_000), others=[(11, 1, T0 + 930_000)], sigterm=T0 + 1_000_000,
             failed=T0 + 1_588_300)
    sc.agent("dgxh-09", (19, 1, T0 + 2_500_000), failed=T0 + 3_200_871)
    sc.agent("dgxh-07", (2, 1, T0 + 8_000_000), failed=T0 + 8_900_245)
    first = min(fired, key=fired.get)
    sc.agent("dgxh-10", (first, -6, fired[first] + 1_650_000))
    return max(fired.values()) + 2_400_000


def slurm_out(sc, cancel_at):
    n = {nd.name: nd for nd in sc.job.nodes}
    return [
        "Wed Sep  2 01:10:00 UTC 2026",
        f"job {JOB_ID} (moe16x8b) on 4 nodes: dgxh-[07-10], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO NCCL_NVLS_ENABLE=1 TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=dgxh-07:29500 train_moe.py",
        srun_task_error(n["dgxh-08"], [10, 11], "Exited with exit code 1"),
        srun_task_error(n["dgxh-08"], [8, 9, 12, 13, 14, 15], "Terminated"),
        srun_task_error(n["dgxh-09"], [19], "Exited with exit code 1"),
        srun_task_error(n["dgxh-09"], [16, 17, 18, 20, 21, 22, 23], "Terminated"),
        srun_task_error(n["dgxh-07"], [2], "Exited with exit code 1"),
        srun_task_error(n["dgxh-07"], [0, 1, 3, 4, 5, 6, 7], "Terminated"),
        step_cancelled(JOB_ID, 0, n["dgxh-07"], n["dgxh-07"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["dgxh-10"], range(24, 32), "Exited with exit code 1"),
    ]


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    switch_failure(sc)
    fm_logs(sc)
    app_side(sc)
    cancel_at = cascade(sc)
    sc.write(out_dir, slurm_out(sc, cancel_at), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "nvswitch-sxid-fabric"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("SXid", "Xid (", "NVSwitch", "don't match", "NCCL WARN", "CUDA error", "failed (exitcode",
                     "srun: error", "CANCELLED"))


if __name__ == "__main__":
    main()
