#!/usr/bin/env python3
"""Writes samples/xid13-app-fault/: a 4-node x 8-GPU H100 job killed by a bug in its own CUDA extension. A data shard
holds token ids beyond the embedding table; the fused embedding kernel reads out of range on rank 13 (trn-02 GPU 5).

Cascade (true times):
  T0-41 s     rank 13 logs a data warning: token ids >= vocab_size in shard 000731 (nobody reads it)
  T0          trn-02 kernel: Xid 13 Graphics SM Warp Exception (GPC 4, TPC 1, SM 0): Out Of Range Address, pid of rank 13
  T0+0.15 s   Xid 43 (the channel is stopped); T0+1.2 s Xid 45 when the process is torn down
  T0+0.35 s   rank 13 RuntimeError "CUDA error: an illegal memory access was encountered", exit 1
  T0+1 s      trn-02's torchrun SIGTERMs its other workers
  T0+1..8 s   trn-03 rank 21 "Connection closed by remote peer trn-02...", trn-01 rank 5 status 12 naming trn-02
  ENQ+600 s   trn-04's ranks hit the watchdog for SeqNum 7710
The Xid makes it look like a GPU problem and the NCCL errors like a network problem; one Xid 13 on one GPU from
one process, with the traceback on the same rank, is an application fault.
Run: python3 samples/gen/xid13_app_fault.py [--out DIR] [--report]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, Node, gpu_pci, srun_task_error, step_cancelled, us  # noqa: E402
from apps import PY_SITE, Training, cuda_error_lines, nccl_line  # noqa: E402
from hw_scenario import SOCKET_FRAMES, Scenario, report  # noqa: E402

SEED = 1313
JOB_ID = "4471906"
JOB_START = us("2026-07-14T18:30:00Z")
T0 = us("2026-07-14T19:02:17.883120Z")
ENQ = T0 - 500_000
SEQ, NUMEL, TIMEOUT_MS = 7710, 16777216, 600_000
VICTIM = 13                           # trn-02 local GPU 5, PCI 0000:c3:00
HERE = os.path.dirname(os.path.abspath(__file__))

EMBED_FRAMES = [("/workspace/train.py", 229, "train_step", "logits = model(batch[\"input_ids\"], batch[\"positions\"])"),
                (f"{PY_SITE}/torch/nn/modules/module.py", 1736, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"),
                (f"{PY_SITE}/torch/nn/modules/module.py", 1747, "_call_impl", "return forward_call(*args, **kwargs)"),
                ("/workspace/model/transformer.py", 412, "forward", "h = self.embed(input_ids, positions)"),
                (f"{PY_SITE}/torch/nn/modules/module.py", 1747, "_call_impl", "return forward_call(*args, **kwargs)"),
                ("/workspace/model/fused_embed.py", 88, "forward", "out = fused_embed_cuda.forward(ids, self.weight, self.pos_table, self.scale)"),
                ("/workspace/model/fused_embed.py", 31, "forward", "torch.cuda.synchronize(ids.device) if self.debug_sync else None")]


def make_scenario():
    nodes = [
        Node("trn-01", 1, us("2026-07-11T04:40:10.210000Z"), -3_000, 62001, "journal", "journal-kernel.log", "torch"),
        Node("trn-02", 2, us("2026-07-11T04:41:47.000000Z"), 8_000, 62404, "dmesg-T", "dmesg.txt", "torch"),
        Node("trn-03", 3, us("2026-07-11T04:39:33.500000Z"), 21_000, 61877, "kern.log", "kern.log", "ompi"),
        Node("trn-04", 4, us("2026-07-13T22:05:18.702000Z"), -14_000, 63150, "raw", "dmesg-raw.txt", "srun"),
    ]
    first = us("2026-07-14T18:31:02.000000Z")
    tr = Training(31000, first, 1_150_000, 31800, 20 * US, 20, "/lustre/code7b/ckpt")
    return Scenario(SEED, JOB_ID, nodes, JOB_START, tr, "0x11aa22bb33cc44dd", ENQ, T0 + 640 * US, master="trn-01")


def gpu_fault(sc):
    pci, pid = gpu_pci(5), sc.job.pid(VICTIM)
    lines = [(0, f"NVRM: Xid (PCI:{pci}): 13, pid={pid}, name=python3, Graphics SM Warp Exception on (GPC 4, TPC 1, SM 0): Out Of Range Address"),
             (61, f"NVRM: Xid (PCI:{pci}): 13, pid={pid}, name=python3, Graphics SM Global Exception on (GPC 4, TPC 1, SM 0): Multiple Warp Errors"),
             (102, f"NVRM: Xid (PCI:{pci}): 13, pid={pid}, name=python3, Graphics Exception: ESR 0x524648=0x102000e 0x524650=0x20 0x524644=0xd3eff2 0x52464c=0x17f"),
             (151_220, f"NVRM: Xid (PCI:{pci}): 43, pid={pid}, name=python3, Ch 00000010"),
             (1_204_877, f"NVRM: Xid (PCI:{pci}): 45, pid={pid}, name=python3, Ch 00000010"),
             (1_204_903, f"NVRM: Xid (PCI:{pci}): 45, pid={pid}, name=python3, Ch 00000011")]
    for dt, msg in lines:
        sc.kadd("trn-02", T0 + dt, msg)


def app_side(sc):
    sc.logs[VICTIM].log(T0 - 41_220_000, "WARNING", "data.py:203",
                        "shard 000731: 3 token id(s) >= vocab_size 50304 (max 50311); tokenizer revision 2026-07-02")
    sc.crash(VICTIM, T0 + 348_910, EMBED_FRAMES, cuda_error_lines("an illegal memory access was encountered"))
    for i, rank in enumerate((8, 9, 10, 11, 12, 14, 15)):
        sc.sigterm_note(rank, T0 + 1_030_000 + i * 700)
    # trn-03 rank 21: its proxy connection to trn-02 rank 13 is closed when the process dies.
    msg = "Net : Connection closed by remote peer trn-02.cluster.local<47861>"
    sc.logs[21].add(T0 + 1_390_117, [nccl_line(sc.job, 21, msg, "WARN", "misc/socket.cc:538", 131)])
    sc.nccl_warn(21, T0 + 1_390_200, "[Proxy Service 21] Failed to execute operation Connect from rank 13, retcode 6",
                 "proxy.cc:1119", SOCKET_FRAMES, 6, "Proxy Service 21", tid=131)
    sc.dist_error(21, T0 + 1_450_000, "remote", msg)
    # trn-01 rank 5: retry exhausted towards trn-02's rail 5.
    last = sc.ib_error(5, T0 + 7_940_266, sc.node("trn-02").ip(5))
    sc.dist_error(5, T0 + 8_000_000, "remote", last)
    for rank in (0, 1, 2, 3, 4, 6, 7):
        sc.sigterm_note(rank, T0 + 8_600_000 + rank * 500)
    for rank in (16, 17, 18, 19, 20, 22, 23):
        sc.sigterm_note(rank, T0 + 2_100_000 + rank * 400)


def cascade(sc):
    fired = sc.watchdogs(range(24, 32), ENQ, SEQ, "ALLGATHER", NUMEL, TIMEOUT_MS, old={27})
    sc.agent("trn-02", (VICTIM, 1, T0 + 900_000), sigterm=T0 + 1_000_000, failed=T0 + 1_612_008)
    sc.agent("trn-03", (21, 1, T0 + 1_800_000), failed=T0 + 2_600_411)
    sc.agent("trn-01", (5, 1, T0 + 8_300_000), failed=T0 + 9_004_515)
    first = min(fired, key=fired.get)
    sc.agent("trn-04", (first, -6, fired[first] + 1_650_000))
    return max(fired.values()) + 2_400_000


def slurm_out(sc, cancel_at):
    n = {nd.name: nd for nd in sc.job.nodes}
    return [
        "Tue Jul 14 18:30:00 UTC 2026",
        f"job {JOB_ID} (code7b-cpt) on 4 nodes: trn-[01-04], 32 GPUs (h100)",
        "NCCL_DEBUG=INFO TORCH_NCCL_ASYNC_ERROR_HANDLING=3 FUSED_EMBED=1",
        "launching: mpirun -np 4 --map-by ppr:1:node torchrun --nnodes=4 --nproc-per-node=8 --rdzv-endpoint=trn-01:29500 train.py --data /lustre/code7b/shards-v3",
        srun_task_error(n["trn-02"], [VICTIM], "Exited with exit code 1"),
        srun_task_error(n["trn-02"], [8, 9, 10, 11, 12, 14, 15], "Terminated"),
        srun_task_error(n["trn-03"], [21], "Exited with exit code 1"),
        srun_task_error(n["trn-03"], [16, 17, 18, 19, 20, 22, 23], "Terminated"),
        srun_task_error(n["trn-01"], [5], "Exited with exit code 1"),
        srun_task_error(n["trn-01"], [0, 1, 2, 3, 4, 6, 7], "Terminated"),
        step_cancelled(JOB_ID, 0, n["trn-01"], n["trn-01"].clock(cancel_at)),
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        srun_task_error(n["trn-04"], range(24, 32), "Exited with exit code 1"),
    ]


def build(out_dir):
    sc = make_scenario()
    sc.build_normal()
    gpu_fault(sc)
    app_side(sc)
    cancel_at = cascade(sc)
    sc.write(out_dir, slurm_out(sc, cancel_at), "h100", attempt=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "xid13-app-fault"))
    ap.add_argument("--report", action="store_true", help="print the key lines with file:line")
    a = ap.parse_args()
    out = os.path.normpath(a.out)
    build(out)
    if a.report:
        report(out, ("Xid (", "NCCL WARN", "CUDA error", "vocab_size", "DistBackendError", "failed (exitcode",
                     "srun: error", "CANCELLED"))


if __name__ == "__main__":
    main()
