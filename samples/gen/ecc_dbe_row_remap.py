#!/usr/bin/env python3
"""Writes samples/ecc-dbe-row-remap/: a 4-node x 8-GPU H100 job killed by an uncorrectable ECC error in GPU 2 of
hgx-101 (Xid 48 -> 63 -> 94 -> 45 in 0.3 s).

Cascade (true times):
  T0          hgx-101 kernel: Xid 48 double-bit error in the framebuffer, PCI 0000:52:00 = GPU 2 (rank 2)
  T0+23 ms    Xid 63 row remapper: the failing row is marked for remapping, active after a GPU reset
  T0+25 ms    Xid 94 "Contained: SM (0x1). RST: No, D-RST: No": only the process using that memory is stopped
  T0+0.31 s   Xid 45: the driver tears down rank 2's channels
  T0+0.52 s   rank 2 RuntimeError "CUDA error: uncorrectable ECC error encountered" in loss.backward(), exit 1
  T0+0.9 s    hgx-101's torchrun SIGTERMs its other workers; their sockets close
  T0+1..9 s   other nodes: connection reset (hgx-103 rank 19), retry exceeded naming hgx-101 (hgx-102 rank 10,
              hgx-104 rank 26), each aborting its node
  ENQ+600 s   the rest of hgx-102 and hgx-103 hit the watchdog
Noise: hgx-104 logs corrected host-memory (EDAC CE) errors from one DIMM.
Run: python3 samples/gen/ecc_dbe_row_remap.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, Node, gpu_pci, srun_task_error, step_cancelled, us  # noqa: E402
from apps import Training, cuda_error_lines, nccl_line  # noqa: E402
from hw_scenario import BACKWARD_FRAMES, SOCKET_FRAMES, Scenario, report  # noqa: E402

SEED = 4863
JOB_ID = "880217"
JOB_START = us("2026-03-09T13:20:00Z")
T0 = us("2026-03-09T13:58:43.509105Z")
ENQ = T0 - 1_200_000
SEQ, NUMEL, TIMEOUT_MS = 20931, 41943040, 600_000
VICTIM = 2                            # hgx-101 local GPU 2, PCI 0000:52:00
HERE = os.path.dirname(os.path.abspath(__file__))


def make_scenario():
    nodes = [
        Node("hgx-101", 1, us("2026-02-28T08:02:11.330000Z"), 0, 40210, "journal", "journal-kernel.log", "torch"),
        Node("hgx-102", 2, us("2026-02-28T08:03:40.902000Z"), 15_000, 39877, "dmesg-T", "dmesg.txt", "torch"),
        Node("hgx-103", 3, us("2026-03-05T19:44:02.117000Z"), -11_000, 41002, "kern.log", "kern.log", "srun"),
        Node("hgx-104", 4, us("2026-02-28T08:01:59.481000Z"), 27_000, 40388, "raw", "dmesg-raw.txt", "ompi"),
    ]
    first = us("2026-03-09T13:21:05.000000Z")
    tr = Training(9000, first, 1_420_000, 9800, 22 * US, 20, "/lustre/vlm13b/ckpt")
    return Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x6a0b1c2d3e4f5061", ENQ, T0 + 640 * US, master="hgx-101")


def memory_error(sc):
    pci = gpu_pci(2)
    burst = [(0, f"NVRM: Xid (PCI:{pci}): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x1f6a3c40 partition 11, subpartition 2."),
             (23_338, f"NVRM: Xid (PCI:{pci}): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row (0x000000001f6a3c40) marked for remapping, reset gpu to activate."),
             (24_889, f"NVRM: Xid (PCI:{pci}): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: No, D-RST: No"),
             (310_442, f"NVRM: Xid (PCI:{pci}): 45, pid=40212, name=python3, Ch 00000008"),
             (310_480, f"NVRM: Xid (PCI:{pci}): 45, pid=40212, name=python3, Ch 00000009")]
    for dt, msg in burst:
        sc.kadd("hgx-101", T0 + dt, msg)
    # hgx-104 trickles corrected host-memory errors from one DIMM: a trend for the hardware team, not a crash.
    for i, (dt, page) in enumerate(((95, "0x2c41b"), (310, "0x2c41b"), (512, "0x5f0e2"))):
        sc.kadd("hgx-104", T0 + dt * US + i * 13_003,
                f"EDAC MC1: 1 CE memory read error on CPU_SrcID#1_MC#0_Chan#2_DIMM#0 (channel:2 slot:0 page:{page} offset:0x3c0 grain:32 syndrome:0x0 - err_code:0x0000:0x009f socket:1 imc:0 rank:1 bg:2 ba:1 row:0x1a3f col:0x3c0)")


def app_side(sc):
    sc.crash(VICTIM, T0 + 521_774, BACKWARD_FRAMES, cuda_error_lines("uncorrectable ECC error encountered"))
    for i, rank in enumerate((0, 1, 3, 4, 5, 6, 7)):
        sc.sigterm_note(rank, T0 + 905_000 + i * 800)
    # hgx-103 rank 19: its socket to hgx-101 rank 3 is reset when that process is SIGTERMed.
    lost = sc.node("hgx-101").ip(3)
    msg = f"Net : Call to recv from {lost}<51044> failed : Connection reset by peer"
    sc.logs[19].add(T0 + 1_212_804, [nccl_line(sc.job, 19, msg, "WARN", "misc/socket.cc:518", 131)])
    sc.nccl_warn(19, T0 + 1_212_900, "socketProgressOpt: Call to recv failed", "misc/socket.cc:447", SOCKET_FRAMES, 2,
                 "Proxy Service 19", tid=131)
    sc.dist_error(19, T0 + 1_270_000, "system", msg)
    # hgx-102 rank 10 and hgx-104 rank 26: retry exhausted towards hgx-101's rails 2.
    h101 = sc.node("hgx-101")
    last = sc.ib_error(10, T0 + 7_330_912, h101.ip(2))
    sc.dist_error(10, T0 + 7_390_000, "remote", last)
    last = sc.ib_error(26, T0 + 7_801_377, h101.ip(2), direction="Send")
    sc.dist_error(26, T0 + 7_860_000, "remote", last)
    for rank in (24, 25, 27, 28, 29, 30, 31):
        sc.sigterm_note(rank, T0 + 8_700_000 + rank * 500)


def cascade(sc):
    waiting = [r for r in range(8, 24) if r not in (10, 19)]
    fired = sc.watchdogs(waiting, ENQ, SEQ, "REDUCE_SCATTER", NUMEL, TIMEOUT_MS, old={12, 21})
    sc.agent("hgx-101", (VICTIM, 1, T0 + 820_000), sigterm=T0 + 900_000, failed=T0 + 1_402_113)
    sc.agent("hgx-104", (26, 1, T0 + 8_500_000), failed=T0 + 9_118_270)
    for node, (rank, t) in (("hgx-102", (10, T0 + 7_600_000)), ("hgx-103", (19, T0 + 1_500_000))):
        others = [(rk, -6, fired[rk] + 1_700_000) for rk in sc.job.ranks_on(sc.node(node)) if rk in fired]
        sc.agent(node, (rank, 1, t), others=others, failed=max(fired.values()) + 2_100_000)
    return max(fired.values()) + 2_500_000


def slurm_out(sc, cancel_at):
    n = {nd.name: nd for nd in sc.job.nodes}
    return [
        "Mon Mar  9 13:20:00 UTC 2026",
        f"job {JOB_ID} (vlm13b-pretrain) on 4 nodes: hgx-[101-104], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=enp TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=hgx-101:29500 train.py",
        srun_task_error(n["hgx-101"], [VICTIM], "Exited with exit code 1"),
        srun_task_error(n["hgx-101"], [0, 1, 3, 4, 5, 6, 7], "Terminated"),
        srun_task_error(n["hgx-104"], [26], "Exited with exit code 1"),
        srun_task_error(n["hgx-104"], [24, 25, 27, 28, 29, 30, 31], "Terminated"),
        step_cancelled(JOB_ID, 0, n["hgx-101"], n["hgx-101"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["hgx-102"], range(8, 16), "Exited with exit code 1"),
        srun_task_error(n["hgx-103"], range(16, 24), "Exited with exit code 1"),
    ]


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    memory_error(sc)
    app_side(sc)
    cancel_at = cascade(sc)
    sc.write(out_dir, slurm_out(sc, cancel_at), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "ecc-dbe-row-remap"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("Xid (", "EDAC", "NCCL WARN", "CUDA error", "DistBackendError", "failed (exitcode", "srun: error",
                     "CANCELLED"))


if __name__ == "__main__":
    main()
