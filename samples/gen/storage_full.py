"""A Lustre OST fills up during a checkpoint: writes fail on ranks of every node at once.

Timeline (true UTC; 4 H100 nodes x 8 GPUs, rank r on hgx-s0{r//8+1}; checkpoints of 38 GiB per shard go to
/lustre/llm/run42/ckpt, striped over OSTs; OST0007 has a few GiB left)
  19:00      job starts, resumes from step 4000; step 5000's checkpoint (an hour earlier) took 41 s
  19:52:10   step 6000: every rank starts writing its shard
  +19-26 s   12 ranks whose stripes land on OST0007 fail: torch.save's zip writer ("PytorchStreamWriter failed writing
             file data/N: file write failed", then "[enforce fail at inline_container.cc:595] . unexpected pos"), and
             the ranks that write optimizer state with plain file I/O get "OSError: [Errno 28] No space left on device"
  +27 s      rank 0's metadata file write fails too; failing ranks exit 1; the others, waiting in the post-save
             barrier, lose their peers (NCCL connection errors, ncclRemoteError) and exit
  +30 s      Slurm cancels the step. An `lfs df -h` taken afterwards by the admin shows OST0007 at 100%
Run: python3 samples/gen/storage_full.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, rng, srun_task_error, us  # noqa: E402
from apps import PY_SITE, Training, torch_prefix, traceback_lines  # noqa: E402
from swkit import Scenario, dist_backend_remote, make_nodes, nccl_peer_closed, slurm_header, step_banner  # noqa: E402

SEED = "storage-full"
JOB_ID = "8120931"
START = us("2026-06-02T19:00:00Z")
T0 = us("2026-06-02T19:52:10.031552Z")   # step 6000's checkpoint starts
CKPT = "/lustre/llm/run42/ckpt/step_0006000"
TORCH_SAVE_FAIL = [3, 6, 9, 14, 17, 20, 27, 30, 31]
ENOSPC_FAIL = [0, 12, 25]
HERE = os.path.dirname(os.path.abspath(__file__))
SER = f"{PY_SITE}/torch/serialization.py"


def build(out):
    nodes = make_nodes(["hgx-s01", "hgx-s02", "hgx-s03", "hgx-s04"], START, SEED)
    sc = Scenario(SEED, JOB_ID, "llm70b-pretrain", START, nodes, "h100")
    tr = Training(4000, START + 62 * US, 1_520_000, 5000, 41 * US, 20, "/lustre/llm/run42/ckpt")
    sc.train(tr, T0 - 50_000)
    sc.kernel_noise(T0 + 60 * US)
    for rank in range(sc.job.nranks):
        sc.logs[rank].log(T0 + rank * 2_300, "INFO", "checkpoint.py:88", f"saving step 6000 -> {CKPT} (shard {rank}/32)")
    fails = failures(sc)
    survivors(sc, fails)
    agents(sc, fails)
    sc.slurm = slurm_out(sc, fails)
    sc.extra["lfs_df_after.txt"] = lfs_df()
    sc.write(out)


def failures(sc):
    fails = {}
    save = [("/workspace/train.py", 431, "<module>", "main()"), ("/workspace/train.py", 420, "main", "save_checkpoint(step, model, optim)"),
            ("/workspace/checkpoint.py", 93, "save_checkpoint", f'torch.save(model_shard, f"{{path}}/model_{{rank:02d}}.pt")'),
            (SER, 850, "save", "with _open_zipfile_writer(f) as opened_zipfile:"),
            (SER, 695, "__exit__", "self.file_like.write_end_of_file()")]
    for i, rank in enumerate(TORCH_SAVE_FAIL):
        r, t = rng(SEED, "fail", rank), T0 + 19 * US + i * 710_000
        first = traceback_lines(save[:3] + [(SER, 849, "save", "_save(obj, opened_zipfile, pickle_module, pickle_protocol, _disable_byteorder_record)"),
                                            (SER, 1114, "_save", "zip_file.write_record(name, storage, num_bytes)")],
                                [f"RuntimeError: PytorchStreamWriter failed writing file data/{r.randrange(3, 40)}: file write failed"])
        second = ["", "During handling of the above exception, another exception occurred:", ""] + traceback_lines(
            save, [f"RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos {1_468_006_464 + r.randrange(10**6) * 64} "
                   f"vs {1_468_006_352 + r.randrange(10**6) * 64}"])
        p = torch_prefix(rank)
        sc.logs[rank].add(t, [f"{p} {x}" if x else p for x in first + second], "err")
        fails[rank] = t
    opt = [("/workspace/train.py", 431, "<module>", "main()"), ("/workspace/train.py", 420, "main", "save_checkpoint(step, model, optim)"),
           ("/workspace/checkpoint.py", 104, "save_checkpoint", "f.write(flat_optim_state.numpy().tobytes())")]
    for i, rank in enumerate(ENOSPC_FAIL):
        t = T0 + 22 * US + i * 1_130_000
        target = f"{CKPT}/optim_{rank:02d}.bin" if rank else f"{CKPT}/metadata.json"
        frames = opt if rank else opt[:2] + [("/workspace/checkpoint.py", 121, "save_checkpoint", "json.dump(meta, f, indent=2)")]
        sc.logs[rank].add(t, traceback_lines(frames, [f"OSError: [Errno 28] No space left on device: '{target}'"],
                                             torch_prefix(rank)), "err")
        fails[rank] = t
    return fails


def survivors(sc, fails):
    """Ranks that finished their shard wait in the post-save barrier and lose their peers."""
    job = sc.job
    frames = [("/workspace/train.py", 431, "<module>", "main()"), ("/workspace/train.py", 420, "main", "save_checkpoint(step, model, optim)"),
              ("/workspace/checkpoint.py", 131, "save_checkpoint", "dist.barrier()"),
              (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 4159, "barrier", "work = group.barrier(opts=opts)")]
    for rank in (1, 10, 19, 28):
        peer = min((f for f in fails if job.node_of(f) is not job.node_of(rank)), key=lambda f: (abs(f - rank), f))
        t = max(fails.values()) + 1_100_000 + rank * 9_000
        warn = nccl_peer_closed(job, rank, peer)
        sc.logs[rank].add(t, warn)
        sc.logs[rank].add(t + 40_000, dist_backend_remote(rank, frames, last=warn[0].split("NCCL WARN ", 1)[1]), "err")
        fails.setdefault(rank, t + 40_000)


def agents(sc, fails):
    for node in sc.job.nodes:
        mine = sorted((rk for rk in sc.job.ranks_on(node) if rk in fails), key=fails.get)
        first, others = mine[0], [(rk, 1, fails[rk] + 90_000) for rk in mine[1:]]
        done = max(fails[rk] for rk in mine) + 600_000
        sc.agent_failure(node, done - 400_000, done, (first, 1, fails[first] + 80_000), others)


def slurm_out(sc, fails):
    n = sc.job.nodes
    t = max(fails.values()) + 600_000
    out = slurm_header(sc, "srun --kill-on-bad-exit=1 torchrun --nnodes=4 --nproc-per-node=8 train.py "
                           "--config configs/70b.yaml --save-interval 1000", ["NCCL_DEBUG=WARN"],
                       image="registry.example.com#llm/train:2026.05")
    return out + [srun_task_error(n[0], [0], "Exited with exit code 1"),
                  step_banner(JOB_ID, 0, n[0], n[0].clock(t + 2 * US), "TASK FAILURE"),
                  "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  srun_task_error(n[2], [2], "Exited with exit code 1"),
                  srun_task_error(n[1], [1], "Exited with exit code 1"),
                  srun_task_error(n[3], [3], "Exited with exit code 1"),
                  f"srun: Force Terminated StepId={JOB_ID}.0"]


def lfs_df():
    rows = [("llm-MDT0000_UUID", "11.2T", "2.9T", "8.2T", "27%", "MDT:0")]
    used = [71, 74, 69, 77, 72, 70, 75, 100, 73, 71, 68, 76]
    for i, u in enumerate(used):
        avail = "0.0" if u == 100 else f"{(100 - u) * 0.61:.1f}T"
        rows.append((f"llm-OST{i:04x}_UUID", "61.0T", f"{61.0 * u / 100:.1f}T" if u < 100 else "61.0T", avail, f"{u}%", f"OST:{i}"))
    out = ["$ lfs df -h /lustre/llm", "UUID                       bytes        Used   Available Use% Mounted on"]
    out += [f"{a:<22} {b:>10} {c:>11} {d:>11} {e:>4} /lustre/llm[{f}]" for a, b, c, d, e, f in rows]
    return out + ["", "filesystem_summary:       732.0T      547.6T      184.4T  75% /lustre/llm"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "storage-full"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
