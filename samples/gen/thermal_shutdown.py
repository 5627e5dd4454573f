#!/usr/bin/env python3
"""Writes samples/thermal-shutdown/: a 4-node x 8-GPU H100 job killed when gpu-t24 overheated and powered itself off.

Cascade (true times):
  T0-13 min   gpu-t24 kernel: CPU package/core "temperature above threshold, cpu clock throttled", more and more often
  T0-11 min   the whole job slows from 1.18 s to ~1.9 s per step (every rank waits for gpu-t24's); rank 0's straggler
              detector names ranks 24-31
  T0          gpu-t24 kernel: "thermal thermal_zone0: acpitz: critical temperature reached, shutting down",
              "reboot: HARDWARE PROTECTION shutdown (Temperature too high)"; systemd stops services, torchrun gets
              SIGTERM and stops its workers; "reboot: Power down" - gpu-t24's logs end
  T0+3 s      gpu-t22 rank 12: connection reset by gpu-t24; T0+10 s gpu-t23 rank 21: status 12 naming gpu-t24
  T0+301 s    slurmctld declares gpu-t24 down: "srun: error: Node failure on gpu-t24", the job is cancelled
              DUE TO NODE FAILURE and gpu-t21's ranks, still waiting in the collective, are killed.
Run: python3 samples/gen/thermal_shutdown.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, Node, rng, slurm_stamp, srun_task_error, us  # noqa: E402
from apps import Training, nccl_line  # noqa: E402
from hw_scenario import SOCKET_FRAMES, Scenario, report  # noqa: E402

SEED = 105
JOB_ID = "7781002"
JOB_START = us("2026-08-17T13:00:00Z")
T0 = us("2026-08-17T13:41:07.512093Z")
ENQ = T0 - 400_000
HOT = T0 - 13 * 60 * US
HERE = os.path.dirname(os.path.abspath(__file__))


class SlowingTraining(Training):
    """Steps take dt until step `s_slow`, then `dt_slow` (a straggler node holds every collective back)."""

    def __init__(self, *args, s_slow, dt_slow):
        super().__init__(*args)
        self.s_slow, self.dt_slow = s_slow, dt_slow

    def step_end(self, s):
        if s <= self.s_slow:
            return super().step_end(s)
        return super().step_end(self.s_slow) + (s - self.s_slow) * self.dt_slow


def make_scenario():
    nodes = [
        Node("gpu-t21", 1, us("2026-08-10T07:12:30.400000Z"), -4_000, 60412, "journal", "journal-kernel.log", "torch"),
        Node("gpu-t22", 2, us("2026-08-10T07:13:01.090000Z"), 7_000, 60198, "dmesg-T", "dmesg.txt", "srun"),
        Node("gpu-t23", 3, us("2026-08-10T07:11:44.782000Z"), 16_000, 61003, "kern.log", "kern.log", "torch"),
        Node("gpu-t24", 4, us("2026-08-10T07:14:09.555000Z"), -9_000, 60777, "journal", "journal-kernel.log", "torch"),
    ]
    first = us("2026-08-17T13:01:05.000000Z")
    tr = SlowingTraining(24000, first, 1_180_000, 24600, 21 * US, 20, "/lustre/asr2b/ckpt",
                         s_slow=25250, dt_slow=1_910_000)
    sc = Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x5c5d5e5f60616263", ENQ, T0 + 300 * US, master="gpu-t21")
    sc.kernel_until["gpu-t24"] = T0 - 30 * US
    return sc


def overheating(sc):
    r = rng(SEED, "throttle")
    t, totals = HOT, {}
    while t < T0 - 2 * US:
        cpu = r.choice([3, 17, 41, 44, 58, 71, 96, 110])
        totals[cpu] = totals.get(cpu, 0) + r.randrange(1, 40)
        scope = "Package" if r.random() < 0.7 else "Core"
        sc.kadd("gpu-t24", t, f"CPU{cpu}: {scope} temperature above threshold, cpu clock throttled (total events = {totals[cpu]})")
        if r.random() < 0.25:
            sc.kadd("gpu-t24", t + r.randrange(2, 9) * US, f"CPU{cpu}: {scope} temperature/speed normal")
        left = (T0 - t) / (13 * 60 * US)
        t += int((8 + 50 * left) * US) + r.randrange(US)
    shutdown = [(0, "thermal thermal_zone0: acpitz: critical temperature reached, shutting down"),
                (212, "reboot: HARDWARE PROTECTION shutdown (Temperature too high)"),
                (41_300, "systemd[1]: Stopped target graphical.target - Graphical Interface."),
                (41_900, "systemd[1]: Stopping slurmd.service - Slurm node daemon..."),
                (42_100, "systemd[1]: Stopping nvidia-persistenced.service - NVIDIA Persistence Daemon..."),
                (43_800, "systemd[1]: Stopping nvidia-fabricmanager.service - NVIDIA fabric manager service..."),
                (2_310_551, "systemd[1]: Stopped slurmd.service - Slurm node daemon."),
                (4_880_014, "systemd[1]: Reached target poweroff.target - System Power Off."),
                (4_912_730, "reboot: Power down")]
    for dt, msg in shutdown:
        sc.kadd("gpu-t24", T0 + dt, msg)


def straggler_notes(sc):
    r = rng(SEED, "straggler")
    t = HOT + 140 * US
    while t < ENQ - 30 * US:
        step = 25250 + int((t - HOT - 140 * US) / 1_910_000)
        sc.logs[0].log(t, "WARNING", "train.py:219", f"slow step {step}: {1.86 + r.random() * 0.12:.2f}s (median 1.18s); "
                                                     f"slowest ranks in the last all-reduce: 24-31 (gpu-t24)")
        t += r.randrange(70, 130) * US


def app_side(sc):
    for i, rank in enumerate(range(24, 32)):
        sc.sigterm_note(rank, T0 + 2_104_000 + i * 1_300)
    lost = sc.node("gpu-t24").ip(4)
    msg = f"Net : Call to recv from {lost}<36021> failed : Connection reset by peer"
    sc.logs[12].add(T0 + 2_911_407, [nccl_line(sc.job, 12, msg, "WARN", "misc/socket.cc:518", 131)]
                    + [nccl_line(sc.job, 12, f"{f} -> 2", tid_off=131) for f in SOCKET_FRAMES])
    sc.dist_error(12, T0 + 2_970_000, "system", msg)
    last = sc.ib_error(21, T0 + 9_873_552, sc.node("gpu-t24").ip(5))
    sc.dist_error(21, T0 + 9_930_000, "remote", last)
    for base, ranks in ((3_700_000, (8, 9, 10, 11, 13, 14, 15)), (10_600_000, (16, 17, 18, 19, 20, 22, 23)),
                        (301_900_000, range(0, 8))):
        for i, rank in enumerate(ranks):
            sc.sigterm_note(rank, T0 + base + i * 700)


def agent_shutdown(sc):
    """gpu-t24's torchrun is SIGTERMed by the shutdown; it stops its workers and its log ends there."""
    node = sc.node("gpu-t24")
    from apps import elastic_line
    api = "torch.distributed.elastic.multiprocessing.api"
    t = node.clock(T0 + 1_950_000)
    lines = [elastic_line(t, api, "WARNING", "Received Signals.SIGTERM death signal, shutting down workers")]
    lines += [elastic_line(t + 1_000 + i * 1_100, api, "WARNING", f"Sending process {sc.job.pid(rk)} closing signal SIGTERM")
              for i, rk in enumerate(range(24, 32))]
    sc.agents["gpu-t24"] = (lines, None)


def cascade(sc):
    agent_shutdown(sc)
    sc.agent("gpu-t22", (12, 1, T0 + 3_500_000), failed=T0 + 4_203_881)
    sc.agent("gpu-t23", (21, 1, T0 + 10_400_000), failed=T0 + 11_075_306)
    sc.agent("gpu-t21", (0, -15, T0 + 302_500_000), failed=T0 + 303_100_000)


def slurm_out(sc):
    n = {nd.name: nd for nd in sc.job.nodes}
    down = T0 + 301_402_000
    return [
        "Mon Aug 17 13:00:00 UTC 2026",
        f"job {JOB_ID} (asr2b-finetune) on 4 nodes: gpu-t[21-24], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=gpu-t21:29500 train.py",
        srun_task_error(n["gpu-t22"], [12], "Exited with exit code 1"),
        srun_task_error(n["gpu-t22"], [8, 9, 10, 11, 13, 14, 15], "Terminated"),
        srun_task_error(n["gpu-t23"], [21], "Exited with exit code 1"),
        srun_task_error(n["gpu-t23"], [16, 17, 18, 19, 20, 22, 23], "Terminated"),
        "srun: error: Node failure on gpu-t24",
        f"slurmstepd: error: *** JOB {JOB_ID} ON gpu-t21 CANCELLED AT {slurm_stamp(n['gpu-t21'].clock(down))} DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["gpu-t21"], range(0, 8), "Terminated"),
        "srun: error: Timed out waiting for job step to complete",
    ]


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    overheating(sc)
    straggler_notes(sc)
    app_side(sc)
    cascade(sc)
    sc.write(out_dir, slurm_out(sc), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "thermal-shutdown"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("temperature", "HARDWARE PROTECTION", "Power down", "NCCL WARN", "slow step", "death signal",
                     "failed (exitcode", "srun: error", "CANCELLED"))


if __name__ == "__main__":
    main()
