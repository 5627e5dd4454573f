"""A typo in the batch script leaves --container-image empty: srun refuses to start, nothing ever runs on the GPUs.

Timeline (true UTC; 2 H100 nodes allocated, gpu-d07 and gpu-d08)
  13:58:02   batch script starts on gpu-d07 (set -x trace in the job output)
  13:58:03   `srun --container-image=${CONTAINR_IMAGE} ...` (the variable is CONTAINER_IMAGE): pyxis rejects the empty
             argument in srun itself, before any task is launched
  13:58:03   the script's "sanity check" runs python3 outside the container: ModuleNotFoundError: No module named 'torch'
  13:58:04   the job ends (exit code 1); the nodes' kernel logs show only a normal boot and idle noise
Run: python3 samples/gen/bad_container_arg.py [--out DIR]
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import US, us  # noqa: E402
from swkit import Scenario, make_nodes  # noqa: E402

SEED = "bad-container"
JOB_ID = "5120447"
START = us("2026-05-26T13:58:02Z")
HERE = os.path.dirname(os.path.abspath(__file__))
IMAGE = "nvcr.io#nvidia/pytorch:24.10-py3"


def build(out):
    nodes = make_nodes(["gpu-d07", "gpu-d08"], START, SEED)
    sc = Scenario(SEED, JOB_ID, "mixtral-ft", START, nodes, "h100")
    sc.kernel_noise(START + 4 * US)
    sc.slurm = slurm_out()
    sc.times.append(START + 2 * US)
    sc.write(out)


def slurm_out():
    launch = ("srun --container-image= --container-mounts=/lustre/ft:/lustre/ft,/home/alice/.cache/huggingface:/root/.cache/huggingface "
              "--no-container-mount-home torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d "
              "--rdzv-endpoint=gpu-d07:29500 finetune.py --model mixtral-8x7b --data /lustre/ft/sft_mix_v3")
    return [
        f"job {JOB_ID} (mixtral-ft) on 2 nodes: gpu-d[07-08], 16 GPUs (h100)",
        f"+ CONTAINER_IMAGE={IMAGE}",
        "+ export NCCL_DEBUG=WARN",
        "+ NCCL_DEBUG=WARN",
        "+ export MASTER_ADDR=gpu-d07 MASTER_PORT=29500",
        "+ MASTER_ADDR=gpu-d07",
        "+ MASTER_PORT=29500",
        f"+ {launch}",
        "srun: error: pyxis: --container-image: argument required",
        "srun: error: Invalid --container-image argument: ",
        "+ rc=1",
        "+ echo 'training step exited with 1, running environment check'",
        "training step exited with 1, running environment check",
        "+ python3 -c 'import torch; print(torch.__version__, torch.cuda.device_count())'",
        "Traceback (most recent call last):",
        '  File "<string>", line 1, in <module>',
        "ModuleNotFoundError: No module named 'torch'",
        "+ exit 1",
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "bad-container-arg"))
    build(os.path.normpath(ap.parse_args().out))


if __name__ == "__main__":
    main()
