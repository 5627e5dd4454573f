#!/usr/bin/env python3
"""Writes samples/ib-link-flap/: a 4-node x 8-GPU H100 job (RoCE rails) killed by a 10-second link flap of rail 5
on cn-043.

Cascade (true times):
  T0          cn-043 kernel: mlx5_core 0000:c0:00.0 enp192s0np0: Link down; syslog: systemd-networkd Lost carrier
  T0+7.1 s    NCCL retry exhausted on the queue pairs that crossed that port: cn-042 rank 13 and cn-044 rank 29 report
              status=12 naming 10.16.3.16 (cn-043 rail 5); cn-043 rank 21 reports status=12 naming cn-042's rail 5
              and a status=5 flush naming cn-044 - both ends blame each other
  T0+7.5 s    the three ranks abort (ncclRemoteError); their nodes' torchrun agents SIGTERM the other workers
  T0+9.8 s    the port comes back (Link up / Gained carrier): too late, the job is already dying
  ENQ+600 s   cn-041's ranks, still waiting in the collective, hit the watchdog.
Run: python3 samples/gen/ib_link_flap.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, Node, nic_ifname, nic_pci, rng, srun_task_error, step_cancelled, us  # noqa: E402
from apps import Training  # noqa: E402
from hw_scenario import Scenario, report, syslog_line  # noqa: E402

SEED = 1212
JOB_ID = "9310077"
JOB_START = us("2026-10-19T22:00:00Z")
T0 = us("2026-10-19T22:36:52.418077Z")
ENQ = T0 - 210_000
SEQ, NUMEL, TIMEOUT_MS = 26118, 50331648, 600_000
RAIL = 5
HERE = os.path.dirname(os.path.abspath(__file__))


def make_scenario():
    nodes = [
        Node("cn-041", 1, us("2026-10-12T09:30:41.008000Z"), 2_000, 70550, "journal", "journal-kernel.log", "torch"),
        Node("cn-042", 2, us("2026-10-12T09:31:15.640000Z"), -5_000, 70981, "dmesg-T", "dmesg.txt", "torch"),
        Node("cn-043", 3, us("2026-10-12T09:29:58.227000Z"), 14_000, 69874, "kern.log", "kern.log", "torch"),
        Node("cn-044", 4, us("2026-10-12T09:32:20.100000Z"), -22_000, 71230, "raw", "dmesg-raw.txt", "ompi"),
    ]
    first = us("2026-10-19T22:01:07.000000Z")
    tr = Training(61000, first, 1_180_000, 61800, 23 * US, 20, "/lustre/llm8b/ckpt")
    return Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x0f1e2d3c4b5a6978", ENQ, T0 + 640 * US, master="cn-041")


def flap(sc):
    ifname, pci = nic_ifname(RAIL), nic_pci(RAIL)
    sc.kadd("cn-043", T0, f"mlx5_core {pci} {ifname}: Link down")
    sc.kadd("cn-043", T0 + 9_802_311, f"mlx5_core {pci} {ifname}: Link up")
    node = sc.node("cn-043")
    r = rng(SEED, "syslog")
    lines = []
    t = sc.start - 1_800 * US
    while t < T0 + 700 * US:
        what = r.choice([("CRON[{}]".format(r.randrange(90000, 99999)), "(root) CMD (/usr/lib/sysstat/sa1 1 1)"),
                         ("chronyd[1402]", f"Selected source 10.15.0.{r.randrange(2, 5)} (ntp{r.randrange(1, 3)}.cluster)"),
                         ("systemd[1]", "Started sysstat-collect.service - system activity accounting tool."),
                         ("slurmd[2290]", f"slurmd: debug:  _rpc_acct_gather_update: {r.randrange(20, 40)} ms"),
                         ("nvidia-persistenced[1733]", "Received signal 1, reloading configuration")])
        lines.append((t, syslog_line(node, t, *what)))
        t += r.randrange(40, 330) * US
    lines += [(T0 + 1_870, syslog_line(node, T0 + 1_870, "systemd-networkd[1987]", f"{ifname}: Lost carrier")),
              (T0 + 9_803_950, syslog_line(node, T0 + 9_803_950, "systemd-networkd[1987]", f"{ifname}: Gained carrier")),
              (T0 + 9_804_400, syslog_line(node, T0 + 9_804_400, "systemd-networkd[1987]", f"{ifname}: Link UP"))]
    sc.add_file("nodes/cn-043/syslog", [text for _, text in sorted(lines)])


def app_side(sc):
    c42, c43, c44 = (sc.node(n) for n in ("cn-042", "cn-043", "cn-044"))
    last = sc.ib_error(13, T0 + 7_108_227, c43.ip(RAIL), direction="Send")
    sc.dist_error(13, T0 + 7_170_000, "remote", last)
    last = sc.ib_error(21, T0 + 7_244_901, c42.ip(RAIL))
    sc.ib_error(21, T0 + 7_251_330, c44.ip(RAIL), status=5, vendor=249)
    sc.dist_error(21, T0 + 7_310_000, "remote", last)
    last = sc.ib_error(29, T0 + 7_512_640, c43.ip(RAIL), old_shape=True)
    sc.dist_error(29, T0 + 7_580_000, "remote", last)
    for base, ranks in ((7_900_000, (8, 9, 10, 11, 12, 14, 15)), (8_050_000, (16, 17, 18, 19, 20, 22, 23)),
                        (8_300_000, (24, 25, 26, 27, 28, 30, 31))):
        for i, rank in enumerate(ranks):
            sc.sigterm_note(rank, T0 + base + i * 600)


def cascade(sc):
    fired = sc.watchdogs(range(0, 8), ENQ, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS, old={6})
    sc.agent("cn-042", (13, 1, T0 + 7_750_000), failed=T0 + 8_401_552)
    sc.agent("cn-043", (21, 1, T0 + 7_900_000), failed=T0 + 8_533_019)
    sc.agent("cn-044", (29, 1, T0 + 8_150_000), failed=T0 + 8_790_442)
    first = min(fired, key=fired.get)
    sc.agent("cn-041", (first, -6, fired[first] + 1_650_000))
    return max(fired.values()) + 2_400_000


def slurm_out(sc, cancel_at):
    n = {nd.name: nd for nd in sc.job.nodes}
    return [
        "Mon Oct 19 22:00:00 UTC 2026",
        f"job {JOB_ID} (llm8b-long-ctx) on 4 nodes: cn-[041-044], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO NCCL_IB_GID_INDEX=3 NCCL_IB_TIMEOUT=20 NCCL_IB_RETRY_CNT=7 TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=cn-041:29500 train.py --seq-len 65536",
        srun_task_error(n["cn-042"], [13], "Exited with exit code 1"),
        srun_task_error(n["cn-042"], [8, 9, 10, 11, 12, 14, 15], "Terminated"),
        srun_task_error(n["cn-043"], [21], "Exited with exit code 1"),
        srun_task_error(n["cn-043"], [16, 17, 18, 19, 20, 22, 23], "Terminated"),
        srun_task_error(n["cn-044"], [29], "Exited with exit code 1"),
        srun_task_error(n["cn-044"], [24, 25, 26, 27, 28, 30, 31], "Terminated"),
        step_cancelled(JOB_ID, 0, n["cn-041"], n["cn-041"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["cn-041"], range(0, 8), "Exited with exit code 1"),
    ]


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    flap(sc)
    app_side(sc)
    cancel_at = cascade(sc)
    sc.write(out_dir, slurm_out(sc, cancel_at), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "ib-link-flap"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("Link down", "Link up", "carrier", "NCCL WARN", "DistBackendError", "Watchdog caught",
                     "failed (exitcode", "srun: error", "CANCELLED"))


if __name__ == "__main__":
    main()
