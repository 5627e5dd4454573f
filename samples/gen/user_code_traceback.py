"""A bug in the user's data collation kills one rank; the other nodes report it as NCCL network errors.

Timeline (true UTC; 4 A100 nodes x 8 GPUs, rank r on dgx-a0{r//8+1}, GPU r%8)
  14:00      job starts, resumes from step 12000
  14:46:02   rank 21 (dgx-a03 GPU 5): a DataLoader worker's collate_fn indexes past the end of a packed row:
             IndexError re-raised in the main process, rank 21 exits 1 (the first traceback of the job)
  +0.3 s     dgx-a03's agent SIGTERMs ranks 16-20, 22, 23 (SignalException / "received SIGTERM")
  +0.6-2 s   ranks on the other nodes whose ring/tree neighbours were on dgx-a03: "Connection closed by remote peer",
             "Connection reset by peer", DistBackendError (remote process exited); they exit 1 and their agents
             SIGTERM the rest. torchrun on every node names one of its *own* ranks as "Root Cause".
  +4 s       Slurm cancels the step (task failure)
Run: python3 samples/gen/user_code_traceback.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, srun_task_error, us  # noqa: E402
from apps import PY_SITE, Training, torch_prefix, traceback_lines  # noqa: E402
from swkit import (Scenario, dist_backend_remote, make_nodes, nccl_peer_closed, nccl_peer_reset, sigterm_exit,  # noqa: E402
                   slurm_header, step_banner, train_frames)

SEED = "user-code"
JOB_ID = "7731904"
START = us("2026-05-19T14:00:00Z")
T0 = us("2026-05-19T14:46:02.715830Z")
VICTIM = 21
HERE = os.path.dirname(os.path.abspath(__file__))
DL = f"{PY_SITE}/torch/utils/data"
# Survivors that see the dead ranks first: (rank, peer it talked to, delay after T0 in us, kind)
NOTICED = [(5, 21, 612_000, "closed"), (29, 21, 640_118, "closed"), (13, 21, 655_402, "closed"),
           (4, 20, 1_480_000, "reset"), (12, 19, 1_515_000, "reset"), (28, 22, 1_502_300, "reset")]


def build(out):
    nodes = make_nodes(["dgx-a01", "dgx-a02", "dgx-a03", "dgx-a04"], START, SEED)
    sc = Scenario(SEED, JOB_ID, "vlm7b-pretrain", START, nodes, "a100")
    tr = Training(12000, START + 66 * US, 2_030_000, 12500, 31 * US, 10, "/lustre/vlm/run3/ckpt")
    sc.train(tr, T0 - 100_000)
    sc.kernel_noise(T0 + 30 * US)
    crash(sc)
    fallout(sc)
    agents(sc)
    sc.slurm = slurm_out(sc)
    sc.write(out)


def crash(sc):
    p = torch_prefix(VICTIM)
    frames = train_frames("batch = next(data_iter)") + [
        (f"{DL}/dataloader.py", 701, "__next__", "data = self._next_data()"),
        (f"{DL}/dataloader.py", 1465, "_next_data", "return self._process_data(data)"),
        (f"{DL}/dataloader.py", 1491, "_process_data", "data.reraise()"),
        (f"{PY_SITE}/torch/_utils.py", 715, "reraise", "raise exception")]
    original = ["Original Traceback (most recent call last):",
                f'  File "{DL}/_utils/worker.py", line 351, in _worker_loop',
                "    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]",
                f'  File "{DL}/_utils/fetch.py", line 55, in fetch',
                "    return self.collate_fn(data)",
                '  File "/workspace/data/packing.py", line 88, in collate',
                "    labels[i, pos:pos + n] = doc_labels[:n]",
                "IndexError: index 4096 is out of bounds for dimension 0 with size 4096"]
    exc = ["IndexError: Caught IndexError in DataLoader worker process 3."] + original
    sc.logs[VICTIM].add(T0, traceback_lines(frames, exc, p), "err")
    for rank in (16, 17, 18, 19, 20, 22, 23):
        sigterm_exit(sc.logs[rank], T0 + 310_000 + (rank - 16) * 1_100)


def fallout(sc):
    job = sc.job
    frames = train_frames() + [("/workspace/train.py", 241, "train_step", "loss.backward()"),
                               (f"{PY_SITE}/torch/_tensor.py", 581, "backward", "torch.autograd.backward("),
                               (f"{PY_SITE}/torch/autograd/graph.py", 825, "_engine_run_backward",
                                "return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass")]
    for rank, peer, dt, kind in NOTICED:
        warn = nccl_peer_closed(job, rank, peer) if kind == "closed" else nccl_peer_reset(job, rank, peer)
        sc.logs[rank].add(T0 + dt, warn)
        last = warn[0].split("NCCL WARN ", 1)[1]
        sc.logs[rank].add(T0 + dt + 31_000, dist_backend_remote(rank, frames, last=last), "err")
    noticed = {n[0] for n in NOTICED}
    for rank in range(job.nranks):
        if job.node_of(rank).name != "dgx-a03" and rank not in noticed:
            sigterm_exit(sc.logs[rank], T0 + 1_900_000 + rank * 2_000)


def agents(sc):
    n1, n2, n3, n4 = sc.job.nodes
    sc.agent_failure(n3, T0 + 300_000, T0 + 1_104_000, (VICTIM, 1, T0 + 220_000))
    sc.agent_failure(n1, T0 + 1_880_000, T0 + 2_377_000, (5, 1, T0 + 700_000), [(4, 1, T0 + 1_560_000)])
    sc.agent_failure(n2, T0 + 1_900_000, T0 + 2_402_000, (13, 1, T0 + 741_000), [(12, 1, T0 + 1_590_000)])
    sc.agent_failure(n4, T0 + 1_890_000, T0 + 2_351_000, (29, 1, T0 + 722_000), [(28, 1, T0 + 1_577_000)])


def slurm_out(sc):
    n1, n2, n3, n4 = sc.job.nodes
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=4 --nproc-per-node=8 --rdzv-backend=c10d "
                           "--rdzv-endpoint=dgx-a01:29500 train.py --config configs/vlm7b.yaml",
                       ["NCCL_DEBUG=WARN NCCL_SOCKET_IFNAME=ib0"], image="nvcr.io#nvidia/pytorch:24.10-py3")
    return out + [srun_task_error(n3, [2], "Exited with exit code 1"),
                  step_banner(JOB_ID, 0, n1, n1.clock(T0 + 4_200_000), "TASK FAILURE"),
                  "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  srun_task_error(n4, [3], "Exited with exit code 1"),
                  srun_task_error(n1, [0], "Exited with exit code 1"),
                  srun_task_error(n2, [1], "Exited with exit code 1"),
                  f"srun: Force Terminated StepId={JOB_ID}.0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "user-code-traceback"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
