"""NCCL_SOCKET_IFNAME names an interface the nodes do not have: every rank fails at NCCL init with an "internal error".

Timeline (true UTC; 2 H100 nodes x 8 GPUs, gpu-e01 and gpu-e02; the job exports NCCL_SOCKET_IFNAME=ib0, the nodes'
IPoIB interfaces are called ibp26s0..ibp222s0 since the OS upgrade)
  08:12:00   job starts, torchrun rendezvous over the management network works (c10d store on gpu-e01:29500)
  08:12:09   first collective (dist.barrier) creates the NCCL communicator: on every rank
             "NCCL WARN Bootstrap : no socket interface found", then DistBackendError "internal error - please report
             this issue to the NCCL developers" (ncclInternalError); every rank exits 1
  08:12:11   torchrun on both nodes reports ChildFailedError, Slurm cancels the step
Run: python3 samples/gen/nccl_socket_ifname.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, rng, srun_task_error, us  # noqa: E402
from apps import PY_SITE, nccl_line, torch_prefix, traceback_lines  # noqa: E402
from swkit import Scenario, make_nodes, slurm_header, step_banner  # noqa: E402

SEED = "socket-ifname"
JOB_ID = "6004218"
START = us("2026-05-28T08:12:00Z")
T0 = START + 9_120_000
HERE = os.path.dirname(os.path.abspath(__file__))


def build(out):
    nodes = make_nodes(["gpu-e01", "gpu-e02"], START, SEED, prefixes=["torch", "ompi"])
    sc = Scenario(SEED, JOB_ID, "rm-8b-train", START, nodes, "h100")
    sc.kernel_noise(START + 15 * US)
    for rank in range(sc.job.nranks):
        rank_log(sc, rank)
    agents(sc)
    sc.slurm = slurm_out(sc)
    sc.write(out)


def rank_log(sc, rank):
    job, log = sc.job, sc.logs[rank]
    r = rng(SEED, "rank", rank)
    node, k = job.node_of(rank), job.local(rank)
    t = START + 4_200_000 + r.randrange(0, 300_000)
    log.log(t, "INFO", "train.py:52", f"rank {rank}/{job.nranks} local_rank {k} on {node.name} (pid {job.pid(rank)}) starting")
    log.log(t + 51_000, "INFO", "train.py:58", "torch 2.5.1+cu124, CUDA 12.4, NCCL 2.21.5, 8 visible GPUs")
    log.log(t + 290_000, "INFO", "train.py:71", "init_process_group(backend='nccl', timeout=0:30:00)")
    log.log(t + 2_100_000, "INFO", "train.py:90", "loaded reward-model config rm-8b (bf16, FSDP HYBRID_SHARD)")
    w = T0 + r.randrange(0, 180_000)
    ln = lambda msg, lvl="INFO", src=None, off=0: nccl_line(job, rank, msg, lvl, src, off)  # noqa: E731
    lines = ([ln("NCCL version 2.21.5+cuda12.4")] if rank == 0 else []) + [
        ln("cudaDriverVersion 12080"),
        ln("NCCL_SOCKET_IFNAME set by environment to ib0"),
        ln("Bootstrap : no socket interface found", "WARN", "bootstrap.cc:113"),
        ln("init.cc:1765 -> 3"), ln("init.cc:1791 -> 3")]
    log.add(w, lines)
    frames = [("/workspace/train.py", 311, "<module>", "main()"),
              ("/workspace/train.py", 98, "main", "dist.barrier()"),
              (f"{PY_SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
              (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 4159, "barrier", "work = group.barrier(opts=opts)")]
    exc = ["torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
           "internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
           "ncclInternalError: Internal check failed.", "Last error:", "Bootstrap : no socket interface found"]
    log.add(w + 23_000, traceback_lines(frames, exc, torch_prefix(rank)), "err")
    sc.times.append(w + 30_000)


def agents(sc):
    for node in sc.job.nodes:
        ranks = sc.job.ranks_on(node)
        first = ranks[3] if node.index == 1 else ranks[0]
        others = [(rk, 1, T0 + 420_000 + i * 5_000) for i, rk in enumerate(ranks) if rk != first]
        sc.agent_failure(node, T0 + 1_500_000, T0 + 1_900_000, (first, 1, T0 + 390_000), others)


def slurm_out(sc):
    e1, e2 = sc.job.nodes
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d "
                           "--rdzv-endpoint=gpu-e01:29500 train.py --config rm8b.yaml",
                       ["NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=ib0 NCCL_IB_HCA=mlx5"], image="nvcr.io#nvidia/pytorch:24.10-py3")
    return out + [srun_task_error(e1, [0], "Exited with exit code 1"),
                  step_banner(JOB_ID, 0, e1, e1.clock(T0 + 2_300_000), "TASK FAILURE"),
                  srun_task_error(e2, [1], "Exited with exit code 1")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "nccl-socket-ifname"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
