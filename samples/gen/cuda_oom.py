"""CUDA out of memory on the last pipeline stage, seen first as NCCL errors on the other node.

Timeline (true UTC; 2 H100 nodes x 8 GPUs, rank r on gpu-g0{r//8+1}, GPU r%8; pipeline stage = r // 4)
  09:00      job starts, resumes from step 1000
  09:41:17   rank 15 (gpu-g02 GPU 7, last stage: LM head + loss) gets a packed micro-batch of 32768 tokens
  +0.9 s     torch.OutOfMemoryError on rank 15 (logits in fp32: 3.91 GiB more than the GPU has free); exit 1
  +1.0 s     gpu-g02's agent SIGTERMs ranks 8-14
  +1.3 s     gpu-g01 ranks 3 and 7 (their P2P/ring peers sit on gpu-g02): NCCL "Connection closed by remote peer",
             DistBackendError (remote process exited); they exit 1, their agent SIGTERMs the rest
  +3 s       Slurm cancels the step (task failure)
Run: python3 samples/gen/cuda_oom.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, srun_task_error, us  # noqa: E402
from apps import PY_SITE, Training, glog_stamp, torch_prefix, traceback_lines  # noqa: E402
from swkit import (Scenario, dist_backend_remote, make_nodes, nccl_peer_closed, sigterm_exit, slurm_header,  # noqa: E402
                   step_banner, train_frames)

SEED = "cuda-oom"
JOB_ID = "2980511"
START = us("2026-05-14T09:00:00Z")
T0 = us("2026-05-14T09:41:17.402118Z")
VICTIM = 15
HERE = os.path.dirname(os.path.abspath(__file__))
OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 7 has a total capacity of 79.10 GiB "
       "of which 2.55 GiB is free. Including non-PyTorch memory, this process has 76.54 GiB memory in use. Of the allocated "
       "memory 71.02 GiB is allocated by PyTorch, and 4.27 GiB is reserved by PyTorch but unallocated. If reserved but "
       "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
       "See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
PG_WARN = ("Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program "
           "exit, the application should call destroy_process_group to ensure that any pending NCCL operations have "
           "finished in this process. In rare cases this process can exit before this point and block the progress of "
           "another member of the process group. This constraint has always been present,  but this warning has only "
           "been added since PyTorch 2.4 (function operator())")


def build(out):
    nodes = make_nodes(["gpu-g01", "gpu-g02"], START, SEED, prefixes=["torch", "torch"])
    sc = Scenario(SEED, JOB_ID, "llm34b-pp4", START, nodes, "h100")
    tr = Training(1000, START + 58 * US, 2_410_000, 1500, 24 * US, 10, "/lustre/pp/llm34b/ckpt")
    sc.train(tr, T0 - 300_000)
    sc.kernel_noise(T0 + 30 * US)
    oom(sc)
    peers(sc)
    agents(sc)
    sc.slurm = slurm_out(sc)
    sc.write(out)


def oom(sc):
    log, p = sc.logs[VICTIM], torch_prefix(VICTIM)
    log.log(T0 - 220_000, "WARNING", "data.py:203", "packed micro-batch 3 of step 1994: 32768 tokens (max_seq_len=32768, 1 document)")
    frames = train_frames("loss = pipeline.step(batch)") + [
        ("/workspace/pipeline.py", 188, "step", "loss = self._last_stage_forward(mb)"),
        ("/workspace/pipeline.py", 241, "_last_stage_forward", "logits = self.lm_head(hidden).float()"),
        (f"{PY_SITE}/torch/nn/modules/module.py", 1736, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)")]
    log.add(T0 + 880_000, traceback_lines(frames, [OOM], p), "err")
    log.add(T0 + 1_190_000, f"{p}[{glog_stamp(sc.job.node_of(VICTIM).clock(T0 + 1_190_000), 'W')} ProcessGroupNCCL.cpp:1250] {PG_WARN}", "err")
    for rank in range(8, 15):
        sigterm_exit(sc.logs[rank], T0 + 1_020_000 + (rank - 8) * 1_300)


def peers(sc):
    """gpu-g01 ranks 3 and 7 talk to gpu-g02 ranks (pipeline P2P, ring neighbours): they see the peer vanish."""
    for rank, peer, dt in ((7, 15, 1_310_000), (3, 11, 1_344_000)):
        log = sc.logs[rank]
        log.add(T0 + dt, nccl_peer_closed(sc.job, rank, peer))
        frames = train_frames("loss = pipeline.step(batch)") + [
            ("/workspace/pipeline.py", 207, "step", "dist.recv(grad_buf, src=self.next_stage_rank)"),
            (f"{PY_SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
            (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 2264, "recv", "pg.recv([tensor], group_src_rank, tag).wait()")]
        log.add(T0 + dt + 40_000, dist_backend_remote(rank, frames), "err")
    for rank in (0, 1, 2, 4, 5, 6):
        sigterm_exit(sc.logs[rank], T0 + 1_720_000 + rank * 900)


def agents(sc):
    g1, g2 = sc.job.nodes
    sc.agent_failure(g2, T0 + 1_010_000, T0 + 1_902_000, (VICTIM, 1, T0 + 1_000_000))
    sc.agent_failure(g1, T0 + 1_700_000, T0 + 2_406_000, (7, 1, T0 + 1_420_000), [(3, 1, T0 + 1_452_000)])


def slurm_out(sc):
    g1, g2 = sc.job.nodes
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=2 --nproc-per-node=8 train.py "
                           "--pp 4 --dp 4 --micro-batch 4 --max-seq-len 32768", ["NCCL_DEBUG=WARN"],
                       image="registry.example.com#llm/pp:2026.05")
    return out + [srun_task_error(g2, [1], "Exited with exit code 1"),
                  step_banner(JOB_ID, 0, g1, g1.clock(T0 + 3_100_000), "TASK FAILURE"),
                  "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  srun_task_error(g1, [0], "Exited with exit code 1"),
                  f"srun: Force Terminated StepId={JOB_ID}.0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "cuda-oom"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
