"""Host memory: the job's memory cgroup on one node fills up and the kernel OOM killer kills a rank.

Timeline (true UTC; 2 H100 nodes x 8 GPUs, rank r on gpu-c0{r//8+1}, GPU r%8; --mem=480G per node)
  02:00      job starts; every rank's dataset keeps decoded samples in an unbounded in-memory cache
  02:40      gpu-c02's ranks cross 60 GiB RSS each (the WARNINGs about host memory are ignored)
  02:51:33   gpu-c02's cgroup hits its limit: the kernel OOM killer kills rank 11's python3 (pid 46034, 93 GiB)
  +0.4 s     rank 13's DataLoader: "DataLoader worker (pid(s) 46101) exited unexpectedly" (its worker died in the
             same reclaim storm), torchrun on gpu-c02 reports exitcode -9 for rank 11 and SIGTERMs the others
  +1 s       gpu-c01 ranks lose their peers: NCCL connection resets, DistBackendError; exit 1
  +3 s       slurmstepd: "Detected 1 oom_kill event in StepId=4471190.0", srun "task 1: Out Of Memory"
Run: python3 samples/gen/host_oom_cgroup.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, srun_task_error, us  # noqa: E402
from apps import PY_SITE, Training, torch_prefix, traceback_lines  # noqa: E402
from swkit import (Scenario, dist_backend_remote, make_nodes, nccl_peer_reset, sigterm_exit, slurm_header,  # noqa: E402
                   step_banner, train_frames)

SEED = "host-oom"
JOB_ID = "4471190"
START = us("2026-05-21T02:00:00Z")
T0 = us("2026-05-21T02:51:33.880412Z")
VICTIM, VICTIM_PID = 11, 46034
MEMCG = f"/slurm/uid_1000/job_{JOB_ID}"
HERE = os.path.dirname(os.path.abspath(__file__))
DL = f"{PY_SITE}/torch/utils/data"


def build(out):
    nodes = make_nodes(["gpu-c01", "gpu-c02"], START, SEED, prefixes=["srun", "torch"])
    sc = Scenario(SEED, JOB_ID, "asr-conformer", START, nodes, "h100")
    tr = Training(30000, START + 48 * US, 1_560_000, 31000, 14 * US, 20, "/lustre/asr/run11/ckpt")
    sc.train(tr, T0 - 200_000)
    sc.kernel_noise(T0 + 30 * US)
    memory_warnings(sc)
    oom_kill(sc)
    fallout(sc)
    agents(sc)
    sc.slurm = slurm_out(sc)
    sc.write(out)


def memory_warnings(sc):
    for rank in sc.job.ranks_on(sc.job.nodes[1]):
        for k, gib in enumerate((48.2, 55.9, 61.7)):
            t = T0 - (3 - k) * 540 * US + rank * 37_000
            sc.logs[rank].log(t, "WARNING", "data.py:77", f"sample cache holds {310_000 + 41_000 * k + rank * 97} decoded "
                                                          f"clips, process RSS {gib + rank * 0.31:.1f} GiB")


def oom_kill(sc):
    k, node = sc.kernel["gpu-c02"], sc.job.nodes[1]
    t = T0 - 61_000
    trace = ["dump_stack_lvl+0x76/0xa0", "dump_header+0x4a/0x250", "oom_kill_process+0x10a/0x220",
             "out_of_memory+0x103/0x350", "mem_cgroup_out_of_memory+0x13a/0x150", "try_charge_memcg+0x6f0/0x7f0",
             "__mem_cgroup_charge+0x45/0xc0", "do_anonymous_page+0x2ac/0x800", "__handle_mm_fault+0x6a5/0xbb0",
             "handle_mm_fault+0x185/0x3b0", "do_user_addr_fault+0x1e6/0x6a0", "exc_page_fault+0x7b/0x180",
             "asm_exc_page_fault+0x27/0x30"]
    lines = [f"python3 invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_ZERO), order=0, oom_score_adj=0",
             f"CPU: 91 PID: {VICTIM_PID} Comm: python3 Tainted: P           OE      6.8.0-60-generic #63-Ubuntu",
             "Hardware name: Example Systems HGX-H100-8GPU/SYS-H100-8, BIOS 2.1a 02/11/2025", "Call Trace:", " <TASK>"]
    lines += [" " + f for f in trace] + [" </TASK>",
              "memory: usage 503316480kB, limit 503316480kB, failcnt 18741",
              "swap: usage 0kB, limit 0kB, failcnt 0",
              f"Memory cgroup stats for {MEMCG}:",
              "anon 505412583424", "file 1409286144", "shmem 8589934592",
              "Tasks state (memory values in pages):",
              "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name"]
    for i, rank in enumerate(sc.job.ranks_on(node)):
        rss = 24_411_000 + rank * 97_000 if rank != VICTIM else 24_380_221
        lines.append(f"[  {VICTIM_PID - 3 + i:5d}]  1000 {VICTIM_PID - 3 + i:5d} {rss + 9_000_000:9d} {rss:8d} {rss // 20 * 8:14d}        0             0 python3")
    lines += [f"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,oom_memcg={MEMCG},"
              f"task_memcg={MEMCG}/step_0/task_1,task=python3,pid={VICTIM_PID},uid=1000",
              f"Memory cgroup out of memory: Killed process {VICTIM_PID} (python3) total-vm:133122212kB, "
              "anon-rss:97520884kB, file-rss:212044kB, shmem-rss:8388608kB, UID:1000 pgtables:191212kB oom_score_adj:0"]
    for i, msg in enumerate(lines):
        k.add(t + i * 7, msg)
    k.add(t + 48_000, f"oom_reaper: reaped process {VICTIM_PID} (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB")


def fallout(sc):
    p = torch_prefix(13)
    frames = train_frames("batch = next(data_iter)") + [
        (f"{DL}/dataloader.py", 701, "__next__", "data = self._next_data()"),
        (f"{DL}/dataloader.py", 1448, "_next_data", "idx, data = self._get_data()"),
        (f"{DL}/dataloader.py", 1402, "_get_data", "success, data = self._try_get_data()"),
        (f"{DL}/dataloader.py", 1256, "_try_get_data", "raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e")]
    sc.logs[13].add(T0 + 402_000, traceback_lines(frames, ["RuntimeError: DataLoader worker (pid(s) 46101) exited unexpectedly"], p), "err")
    for rank in (8, 9, 10, 12, 14, 15):
        sigterm_exit(sc.logs[rank], T0 + 520_000 + rank * 1_000)
    bw = train_frames() + [("/workspace/train.py", 241, "train_step", "loss.backward()"),
                           (f"{PY_SITE}/torch/autograd/graph.py", 825, "_engine_run_backward",
                            "return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass")]
    for rank in (3, 2):
        warn = nccl_peer_reset(sc.job, rank, rank + 8)
        sc.logs[rank].add(T0 + 910_000 + rank * 20_000, warn)
        sc.logs[rank].add(T0 + 960_000 + rank * 20_000, dist_backend_remote(rank, bw, last=warn[0].split("NCCL WARN ", 1)[1]), "err")
    for rank in (0, 1, 4, 5, 6, 7):
        sigterm_exit(sc.logs[rank], T0 + 1_700_000 + rank * 1_000)


def agents(sc):
    c1, c2 = sc.job.nodes
    sc.agent_failure(c2, T0 + 510_000, T0 + 1_310_000, (VICTIM, -9, T0 + 120_000), [(13, 1, T0 + 450_000)])
    sc.agent_failure(c1, T0 + 1_690_000, T0 + 2_230_000, (2, 1, T0 + 1_020_000), [(3, 1, T0 + 1_041_000)])


def slurm_out(sc):
    c1, c2 = sc.job.nodes
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=2 --nproc-per-node=8 train.py "
                           "--config conf/conformer_xl.yaml --num-workers 6", ["#SBATCH --mem=480G"],
                       image="registry.example.com#speech/asr:2026.04")
    return out + [f"slurmstepd-{c2.name}: error: Detected 1 oom_kill event in StepId={JOB_ID}.0. Some of the step tasks have been OOM Killed.",
                  srun_task_error(c2, [1], "Out Of Memory"),
                  step_banner(JOB_ID, 0, c1, c1.clock(T0 + 3_000_000), "TASK FAILURE"),
                  "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  srun_task_error(c1, [0], "Exited with exit code 1"),
                  f"srun: Force Terminated StepId={JOB_ID}.0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "host-oom-cgroup"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
