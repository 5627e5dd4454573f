#!/usr/bin/env python3
"""Writes samples/nvlink-xid149/: a 4-node x 8-GPU B200 job killed by an NVLink link-down on node-02 GPU 3.

Cascade (true times; node-02's clock is exact):
  T0          node-02 kernel: Xid 149 NETIR_LINK_EVT Fatal, intrInfo 0x02b425c6 -> reason 43 (too many link
              error recoveries: signal integrity) on PCI 0000:61:00 = GPU 3
  T0+0.28 s   Xid 45 (channels of rank 11 and of the two neighbours that map GPU 3 memory), T0+0.40 s Xid 154
  T0+0.62 s   rank 11 (GPU 3) RuntimeError "uncorrectable NVLink error"; ranks 10, 12 "unspecified launch failure"
  T0+0.80 s   node-02 torchrun sees rank 11 exit 1, SIGTERMs its other workers (their sockets/QPs vanish)
  T0+1..8 s   other nodes: socket reset (node-04 r26), IB retry-exceeded (node-01 r3, r6), ncclRemoteError (node-03 r17)
  ENQ+600 s   all 24 ranks on node-01/03/04 hit the watchdog for SeqNum 4211 (enqueued T0-0.3 s) and abort
  +~2 s       torchrun agents report -6, Slurm cancels the step.
Run: python3 samples/gen/nvlink_xid149.py [--out DIR] [--peer-xid145] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (US, Job, KernelLog, Node, gpu_pci, iso_z, kernel_boot_noise,  # noqa: E402
                    kernel_runtime_noise, rng, srun_task_error, step_cancelled, us, write_json, write_lines)
from apps import (RankLog, Training, cuda_error_lines, nccl_line, nccl_stack, torch_prefix,  # noqa: E402
                  torchrun_failure, torchrun_start, traceback_lines, watchdog_timeout, training_noise, PY_SITE)

SEED = 149
JOB_ID = "1234567"
JOB_START = us("2026-04-22T21:00:00Z")
T0 = us("2026-04-22T21:34:20.118251Z")
ENQ = T0 - 300_000                  # SeqNum 4211 ALLREDUCE enqueued
SEQ, NUMEL, TIMEOUT_MS = 4211, 26214400, 600_000
COMM_ID = "0x7f3a9c1e2b4d5e6f"
VICTIM = 11                         # node-02, local GPU 3, PCI 0000:61:00
CKPT_DIR = "/lustre/llm70b/run42/ckpt"
OLD_TORCH_RANKS = {22, 29, 30}      # print the PyTorch <= 2.1 watchdog shape
FIRST_DEAD = {"node-01": 3, "node-03": 20, "node-04": 25}       # torchrun's "Root Cause" per node
ALSO_DEAD = {"node-01": [5], "node-03": [], "node-04": [28, 31]}  # exited before the agent's SIGTERM
AGENT_FAILED_AT = {"node-01": "21:44:21.877", "node-03": "21:44:21.934", "node-04": "21:44:22.019"}
HERE = os.path.dirname(os.path.abspath(__file__))


def make_job():
    nodes = [
        Node("node-01", 1, us("2026-04-22T20:38:41.250310Z"), 12_000, 51231, "kern.log", "kern.log", "torch"),
        Node("node-02", 2, us("2026-04-22T20:39:12.806133Z"), 0, 48210, "dmesg-T", "dmesg.txt", "torch"),
        Node("node-03", 3, us("2026-04-22T20:37:55.402871Z"), -21_000, 40117, "journal", "journal-kernel.log", "srun"),
        Node("node-04", 4, us("2026-04-22T20:40:00.000000Z"), 34_000, 50892, "raw", "dmesg-raw.txt", "ompi"),
    ]
    return Job(JOB_ID, nodes)


# ---------------------------------------------------------------- kernel
def kernel_log(node, peer_xid145):
    r = rng(SEED, "kernel", node.name)
    k = KernelLog(node)
    for up, msg in kernel_boot_noise(node, r):
        k.add_uptime(up, msg)
    for t, msg in kernel_runtime_noise(node, r, JOB_START, us("2026-04-22T21:43:50Z")):
        k.add(t, msg)
    if node.name == "node-02":
        nvlink_failure(k, peer_xid145)
    return k


def nvlink_failure(k, peer_xid145):
    pci = gpu_pci(3)
    k.add(T0, f"NVRM: Xid (PCI:{pci}): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 07 "
              "(0x02b425c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)")
    if peer_xid145:  # a peer GPU's RX side notices (non-fatal, errorStatus 0x8 = IGNORE in the decode sheet)
        k.add(T0 + 1_204, f"NVRM: Xid (PCI:{gpu_pci(4)}): 145, pid=48214, name=python3, RLW_RXPIPE Nonfatal XC0 i0 "
                          "Link 11 (0x0409a0c2 0x00000008 0x00000001 0x00000000 0x00100000 0x00000004)")
    chans = [(48213, 0x10), (48213, 0x11), (48213, 0x12), (48213, 0x13), (48212, 0x18), (48214, 0x19)]
    for i, (pid, ch) in enumerate(chans):
        k.add(T0 + 283_112 + i * 41, f"NVRM: Xid (PCI:{pci}): 45, pid={pid}, name=python3, Ch {ch:08x}")
    k.add(T0 + 404_390, f"NVRM: Xid (PCI:{pci}): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)")


# ---------------------------------------------------------------- ranks
def training():
    first = us("2026-04-22T21:00:48.000000Z")
    last_logged = us("2026-04-22T21:34:18.004000Z")    # step 1530
    pause = 21 * US
    return Training(500, first, (last_logged - first - pause) // 1030, 1000, pause, 5, CKPT_DIR)


def normal_logs(job):
    tr, logs = training(), {}
    for rank in range(job.nranks):
        r = rng(SEED, "rank", rank)
        comm = "0x55d0c8a0" if rank == VICTIM else f"0x55{r.getrandbits(16):04x}a0"
        logs[rank] = RankLog(job, rank)
        training_noise(logs[rank], r, tr, JOB_START + 2 * US, ENQ, comm, COMM_ID)
    return logs


TRAIN_FRAMES = [("/workspace/train.py", 431, "<module>", "main()"),
                ("/workspace/train.py", 402, "main", "loss = train_step(model, batch, optim, step)")]
BACKWARD_FRAMES = [("/workspace/train.py", 236, "train_step", "loss.backward()"),
                   (f"{PY_SITE}/torch/_tensor.py", 581, "backward", "torch.autograd.backward("),
                   (f"{PY_SITE}/torch/autograd/__init__.py", 347, "backward", "_engine_run_backward("),
                   (f"{PY_SITE}/torch/autograd/graph.py", 825, "_engine_run_backward",
                    "return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass")]
ITEM_FRAMES = [("/workspace/train.py", 244, "train_step", 'stats["loss"] += loss.detach().float().item()')]


def crash(log, t, gpu, frames, error):
    log.log(t, "ERROR", "train.py:405", f"step 1531 failed on cuda:{gpu}, aborting")
    log.add(t + 900, traceback_lines(TRAIN_FRAMES + frames, cuda_error_lines(error), torch_prefix(log.rank)), "err")


def node02_failures(job, logs):
    crash(logs[11], T0 + 620_418, 3, BACKWARD_FRAMES, "uncorrectable NVLink error detected during the execution")
    crash(logs[10], T0 + 662_075, 2, ITEM_FRAMES, "unspecified launch failure")
    crash(logs[12], T0 + 689_730, 4, BACKWARD_FRAMES, "unspecified launch failure")
    for i, rank in enumerate((8, 13, 15)):
        logs[rank].log(T0 + 805_000 + i * 700, "WARNING", "train.py:47", "received SIGTERM, exiting")


def stats_thread_failure(log, t, exc_lines):
    """The trainer's background throughput reporter all-reduces on its own NCCL group; its exception is logged
    and the thread ends, while the main thread stays blocked in the hung collective."""
    log.log(t, "ERROR", "train.py:318", "throughput reporter stopped: collective on stats group failed")
    frames = [("/workspace/train.py", 309, "_throughput_reporter", "dist.all_reduce(buf, group=stats_pg)"),
              (f"{PY_SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
              (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 2501, "all_reduce", "work.wait()")]
    log.add(t + 600, traceback_lines(frames, exc_lines, torch_prefix(log.rank)))


def remote_nccl_errors(job, logs):
    # node-04 rank 26: the proxy socket to node-02 rank 10 (10.16.2.13) is reset when that process dies.
    lg, t = logs[26], T0 + 1_040_311
    msg = "Net : Call to recv from 10.16.2.13<58355> failed : Connection reset by peer"
    lg.add(t, [nccl_line(job, 26, msg, "WARN", "misc/socket.cc:518", 131)]
           + nccl_stack(job, 26, ["misc/socket.cc:529", "misc/socket.cc:752", "proxy.cc:1442"], 2, 131, "Proxy Service 26"))
    stats_thread_failure(lg, t + 52_000, [
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
        "Last error:", msg])
    # node-01 ranks 3 and 6: their rail peers on node-02 (ranks 11 and 14) are gone; RoCE retries run out.
    ib = [nccl_line(job, 3, "NET/IB : Got completion from peer 10.16.2.14<46212> with status=12 opcode=0 len=0 vendor err 129 (Recv) "
                            "localGid ::ffff:10.16.1.14 remoteGids::ffff:10.16.2.14", "WARN", "transport/net_ib.cc:1295", 156)]
    logs[3].add(T0 + 6_912_044, ib + nccl_stack(job, 3, ["transport/net.cc:1302", "proxy.cc:698", "proxy.cc:878"], 6, 156, "Progress Thread"))
    ib = [nccl_line(job, 6, "NET/IB : Got completion from peer 10.16.2.17<40178> with error 12, opcode 129, len 65536, vendor err 129",
                    "WARN", "transport/net_ib.cc:1295", 156)]
    logs[6].add(T0 + 7_304_519, ib + nccl_stack(job, 6, ["transport/net.cc:1302", "proxy.cc:698", "proxy.cc:878"], 6, 156, "Progress Thread"))
    # node-03 rank 17: same retry exhaustion towards node-02 rank 9, surfaced through the stats group.
    last = "NET/IB : Got completion from peer 10.16.2.12<46212> with error 12, opcode 0, len 0, vendor err 129"
    lg, t = logs[17], T0 + 7_598_270
    lg.add(t, [nccl_line(job, 17, last, "WARN", "transport/net_ib.cc:1295", 156)]
           + nccl_stack(job, 17, ["transport/net.cc:1302", "proxy.cc:698", "proxy.cc:878"], 6, 156, "Progress Thread"))
    stats_thread_failure(lg, t + 57_000, [
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, remote process exited or there was a network error, NCCL version 2.21.5",
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        "Last error:", last])


def watchdogs(job, logs):
    """Every rank still alive (all of node-01/03/04) times out on SeqNum 4211. Returns {rank: true time}."""
    fired = {}
    for rank in range(job.nranks):
        node = job.node_of(rank)
        if node.name == "node-02":
            continue
        r = rng(SEED, "watchdog", rank)
        enq = ENQ + (600 if rank == 3 else r.randrange(800, 22_000))
        t = enq + TIMEOUT_MS * 1000 + (4_100 if rank == 3 else r.randrange(8_000, 96_000))
        lines = watchdog_timeout(rank, node.clock(t), r, SEQ, "ALLREDUCE", NUMEL, TIMEOUT_MS,
                                 (t - enq) // 1000, SEQ + 1, SEQ - 1, old=rank in OLD_TORCH_RANKS)
        logs[rank].add(t, lines, "err", step=40)
        fired[rank] = t
    return fired


# ---------------------------------------------------------------- launchers
def torchrun_logs(job, fired):
    out, day = {}, "2026-04-22T"
    for node in job.nodes:
        lines = torchrun_start(job, node, node.clock(JOB_START + 2 * US + 118_000))
        ranks = job.ranks_on(node)
        if node.name == "node-02":
            first, others, failed = (VICTIM, 1, T0 + 700_000), [], T0 + 1_512_033
            sigterm = T0 + 801_204
        else:
            failed = us(day + AGENT_FAILED_AT[node.name] + "Z") - node.skew
            sigterm, dead = failed - 262_000, FIRST_DEAD[node.name]
            first = (dead, -6, fired[dead] + 1_650_000)
            others = [(rk, -6, fired[rk] + 1_700_000) for rk in ALSO_DEAD[node.name]]
        gone = {first[0]} | {o[0] for o in others}
        term = [rk for rk in ranks if rk not in gone]
        lines += torchrun_failure(job, node, node.clock(sigterm), node.clock(failed),
                                  _wall(node, first), term, [_wall(node, o) for o in others])
        out[node.name] = (lines, failed)
    return out


def _wall(node, failure):
    rk, code, t = failure
    return rk, code, node.clock(t)


def slurm_out(job, cancel_at):
    n = {nd.name: nd for nd in job.nodes}
    return [
        "Wed Apr 22 21:00:00 UTC 2026",
        f"job {JOB_ID} (llm70b-pretrain) on 4 nodes: node-[01-04], 32 GPUs (b200)",
        "MASTER_ADDR=node-01 MASTER_PORT=29500 WORLD_SIZE=32",
        "NCCL_DEBUG=INFO NCCL_IB_GID_INDEX=3 NCCL_IB_TIMEOUT=20 TORCH_NCCL_ASYNC_ERROR_HANDLING=3",
        "pyxis: importing docker image: registry.example.com#llm/train:2026.04",
        "pyxis: imported docker image: registry.example.com#llm/train:2026.04",
        "launching: torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=node-01:29500 train.py --config configs/70b.yaml",
        srun_task_error(n["node-02"], [11], "Exited with exit code 1"),
        srun_task_error(n["node-02"], [8, 9, 10, 12, 13, 14, 15], "Terminated"),
        step_cancelled(JOB_ID, 0, n["node-01"], n["node-01"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["node-01"], range(0, 8), "Exited with exit code 1"),
        srun_task_error(n["node-04"], [24, 25, 26, 28, 29, 30, 31], "Exited with exit code 1"),
        srun_task_error(n["node-04"], [27], "Terminated"),
        srun_task_error(n["node-03"], range(16, 24), "Exited with exit code 1"),
        "srun: Force Terminated StepId=1234567.0",
    ]


# ---------------------------------------------------------------- main
def build(out_dir, peer_xid145):
    job = make_job()
    logs = normal_logs(job)
    node02_failures(job, logs)
    remote_nccl_errors(job, logs)
    fired = watchdogs(job, logs)
    agents = torchrun_logs(job, fired)
    cancel_at = us("2026-04-22T21:44:22.210000Z")
    times = [cancel_at]
    for node in job.nodes:
        d = os.path.join(out_dir, "nodes", node.name)
        k = kernel_log(node, peer_xid145)
        write_lines(os.path.join(d, node.kernel_file), k.render())
        lines, failed = agents[node.name]
        write_lines(os.path.join(d, "torchrun.log"), lines)
        times += k.times() + [failed]
        for rank in job.ranks_on(node):
            write_lines(os.path.join(d, f"rank-{rank:02d}.log"), logs[rank].render())
            times += logs[rank].times()
    write_lines(os.path.join(out_dir, f"slurm-{JOB_ID}.out"), slurm_out(job, cancel_at))
    end = (max(times) // US + 2) * US
    write_json(os.path.join(out_dir, "workload.json"), {
        "id": JOB_ID, "scheduler": "slurm", "attempt": 0, "platform": "b200",
        "start": iso_z(JOB_START), "end": iso_z(end), "nodes": [n.name for n in job.nodes]})
    return fired


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "nvlink-xid149"))
    ap.add_argument("--peer-xid145", action="store_true", help="also log the sympathetic Xid 145 on a peer GPU")
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    fired = build(out, a.peer_xid145)
    if a.report:
        report(out, fired)


KEYS = ("Xid (", "NCCL WARN", "RuntimeError: CUDA error", "DistBackendError", "Watchdog caught",
        "failed (exitcode", "srun: error", "CANCELLED")


def report(out, fired):
    job = make_job()
    order = sorted(fired, key=fired.get)
    for label, rank in (("first", order[0]), ("last", order[-1])):
        t = fired[rank]
        print(f"watchdog {label}: rank {rank} {job.node_of(rank).name} true {iso_z(t)[:-1]}.{t % US:06d}Z")
    for root, _, files in sorted(os.walk(out)):
        for f in sorted(files):
            p = os.path.join(root, f)
            with open(p, encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    if any(k in line for k in KEYS) and "terminated with exception" not in line and "what():" not in line:
                        print(f"{os.path.relpath(p, out)}:{i}: {line.rstrip()[:170]}")


if __name__ == "__main__":
    main()
