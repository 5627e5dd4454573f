"""Scaffolding shared by the hardware-failure sample generators (gpu_fallen_off_bus.py, ecc_dbe_row_remap.py,
xid13_app_fault.py, nvswitch_sxid_fabric.py, ib_link_flap.py, thermal_shutdown.py).

A Scenario is a normal multi-node training job (boot and runtime kernel noise, NCCL init, checkpoint, step lines)
to which a script adds its failure lines at their true times, then the watchdogs of the ranks left waiting, the
torchrun agents' reports and the Slurm output. Same conventions as common.py: true times in microseconds, node
clocks applied when a line prints a wall-clock stamp, rng() for every random choice, nothing reads the wall clock.
"""
import os

from common import (US, Job, KernelLog, iso_z, kernel_boot_noise, kernel_runtime_noise, rng, syslog_stamp,
                    write_json, write_lines)
from apps import (PY_SITE, RankLog, nccl_line, nccl_stack, torch_prefix, torchrun_failure, torchrun_start,
                  traceback_lines, training_noise, watchdog_timeout)

TRAIN_FRAMES = [("/workspace/train.py", 431, "<module>", "main()"),
                ("/workspace/train.py", 402, "main", "loss = train_step(model, batch, optim, step)")]
BACKWARD_FRAMES = [("/workspace/train.py", 236, "train_step", "loss.backward()"),
                   (f"{PY_SITE}/torch/_tensor.py", 581, "backward", "torch.autograd.backward("),
                   (f"{PY_SITE}/torch/autograd/__init__.py", 347, "backward", "_engine_run_backward("),
                   (f"{PY_SITE}/torch/autograd/graph.py", 825, "_engine_run_backward",
                    "return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass")]
ITEM_FRAMES = [("/workspace/train.py", 244, "train_step", 'stats["loss"] += loss.detach().float().item()')]
ALLREDUCE_FRAMES = [("/workspace/train.py", 251, "train_step", "dist.all_reduce(grad_norm, group=dp_group)"),
                    (f"{PY_SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
                    (f"{PY_SITE}/torch/distributed/distributed_c10d.py", 2501, "all_reduce", "work.wait()")]
NCCL_FRAMES = ["transport/net.cc:1302", "proxy.cc:698", "proxy.cc:878"]
SOCKET_FRAMES = ["misc/socket.cc:529", "misc/socket.cc:752", "proxy.cc:1442"]


def syslog_line(node, t, ident, msg):
    """A daemon line as rsyslog writes it to /var/log/syslog (RFC 3164, node clock)."""
    return f"{syslog_stamp(node.clock(t))} {node.name} {ident}: {msg}"


class Scenario:
    def __init__(self, seed, job_id, nodes, job_start, training, comm_id, stop, kernel_end, master=None):
        """stop: true time the normal step lines end (the hung collective's enqueue time); kernel_end: when the
        runtime kernel noise ends. Both can be overridden per node/rank with stop_at / kernel_until."""
        self.seed, self.job, self.start, self.training = seed, Job(job_id, nodes), job_start, training
        self.comm_id, self.stop, self.kernel_end = comm_id, stop, kernel_end
        self.master = master or nodes[0].name
        self.kernel, self.logs, self.files, self.agents = {}, {}, {}, {}
        self.fired, self.stop_at, self.kernel_until = {}, {}, {}

    def node(self, name):
        return next(n for n in self.job.nodes if n.name == name)

    # ------------------------------------------------------------ normal activity
    def build_normal(self):
        for node in self.job.nodes:
            r = rng(self.seed, "kernel", node.name)
            k = KernelLog(node)
            for up, msg in kernel_boot_noise(node, r):
                k.add_uptime(up, msg)
            for t, msg in kernel_runtime_noise(node, r, self.start, self.kernel_until.get(node.name, self.kernel_end)):
                k.add(t, msg)
            self.kernel[node.name] = k
        for rank in range(self.job.nranks):
            r = rng(self.seed, "rank", rank)
            self.logs[rank] = RankLog(self.job, rank)
            training_noise(self.logs[rank], r, self.training, self.start + 2 * US, self.stop_at.get(rank, self.stop),
                           f"0x55{r.getrandbits(16):04x}a0", self.comm_id)

    def kadd(self, node_name, t, msg):
        self.kernel[node_name].add(t, msg)

    # ------------------------------------------------------------ application failure lines
    def step_at(self, t):
        """The training step in progress at true time t (a rank stuck in a collective stays in that step)."""
        s = self.training.resume + 1
        while self.training.step_end(s) < t:
            s += 1
        return s

    def crash(self, rank, t, frames, exc_lines, announce=True, gpu=None):
        log = self.logs[rank]
        gpu = self.job.local(rank) if gpu is None else gpu
        if announce:
            log.log(t, "ERROR", "train.py:405", f"step {self.step_at(self.stop_at.get(rank, self.stop))} failed on cuda:{gpu}, aborting")
        log.add(t + 900, traceback_lines(TRAIN_FRAMES + frames, exc_lines, torch_prefix(rank)), "err")

    def nccl_warn(self, rank, t, msg, src, frames, rc, thread, tid=156):
        self.logs[rank].add(t, [nccl_line(self.job, rank, msg, "WARN", src, tid)]
                            + nccl_stack(self.job, rank, frames, rc, tid, thread))

    def ib_error(self, rank, t, peer_ip, status=12, vendor=129, direction="Recv", gids=True, old_shape=False):
        """NET/IB completion error naming the peer address (RoCE GIDs embed the IPv4 address)."""
        local = self.job.node_of(rank).ip(self.job.local(rank))
        if old_shape:
            msg = f"NET/IB : Got completion from peer {peer_ip}<{40000 + rank * 7}> with error {status}, opcode 0, len 0, vendor err {vendor}"
        else:
            msg = (f"NET/IB : Got completion from peer {peer_ip}<{40000 + rank * 7}> with status={status} opcode=0 len=0 "
                   f"vendor err {vendor} ({direction})")
            if gids:
                msg += f" localGid ::ffff:{local} remoteGids::ffff:{peer_ip}"
        self.nccl_warn(rank, t, msg, "transport/net_ib.cc:1295", NCCL_FRAMES, 6, "Progress Thread")
        return msg

    def dist_error(self, rank, t, kind, last_error, frames=ALLREDUCE_FRAMES):
        """The DistBackendError the main thread raises after an NCCL error (async error handling)."""
        head = {"remote": ("remote process exited or there was a network error",
                           "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."),
                "system": ("unhandled system error (run with NCCL_DEBUG=INFO for details)",
                           "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ")}[kind]
        exc = [f"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, {head[0]}, NCCL version 2.21.5",
               head[1], "Last error:", last_error]
        self.logs[rank].add(t, traceback_lines(TRAIN_FRAMES + frames, exc, torch_prefix(rank)), "err")

    def sigterm_note(self, rank, t):
        self.logs[rank].log(t, "WARNING", "train.py:47", "received SIGTERM, exiting")

    # ------------------------------------------------------------ cascade
    def watchdogs(self, ranks, enq, seq, op, numel, timeout_ms, old=()):
        for rank in ranks:
            node = self.job.node_of(rank)
            r = rng(self.seed, "watchdog", rank)
            e = enq + r.randrange(800, 22_000)
            t = e + timeout_ms * 1000 + r.randrange(8_000, 96_000)
            lines = watchdog_timeout(rank, node.clock(t), r, seq, op, numel, timeout_ms, (t - e) // 1000, seq + 1,
                                     seq - 1, old=rank in old)
            self.logs[rank].add(t, lines, "err", step=40)
            self.fired[rank] = t
        return self.fired

    def agent(self, node_name, first, others=(), sigterm=None, failed=None):
        """torchrun's report on a node: first = (rank, exitcode, true time) of its root-cause worker."""
        node = self.node(node_name)
        failed = failed if failed is not None else first[2] + 300_000
        sigterm = sigterm if sigterm is not None else failed - 250_000
        gone = {first[0]} | {o[0] for o in others}
        term = [rk for rk in self.job.ranks_on(node) if rk not in gone]
        wall = lambda f: (f[0], f[1], node.clock(f[2]))  # noqa: E731
        self.agents[node_name] = (torchrun_failure(self.job, node, node.clock(sigterm), node.clock(failed),
                                                   wall(first), term, [wall(o) for o in others]), failed)

    def add_file(self, rel_path, lines):
        self.files[rel_path] = lines

    # ------------------------------------------------------------ output
    def write(self, out_dir, slurm_lines, platform, attempt=0):
        times = []
        for node in self.job.nodes:
            d = os.path.join(out_dir, "nodes", node.name)
            k = self.kernel[node.name]
            write_lines(os.path.join(d, node.kernel_file), k.render())
            times += k.times()
            start = torchrun_start(self.job, node, node.clock(self.start + 2 * US + 118_000), master=self.master)
            lines, failed = self.agents.get(node.name, ([], None))
            write_lines(os.path.join(d, "torchrun.log"), start + lines)
            times += [failed] if failed else []
            for rank in self.job.ranks_on(node):
                write_lines(os.path.join(d, f"rank-{rank:02d}.log"), self.logs[rank].render())
                times += self.logs[rank].times()
        for rel, lines in self.files.items():
            write_lines(os.path.join(out_dir, rel), lines)
        write_lines(os.path.join(out_dir, f"slurm-{self.job.id}.out"), slurm_lines)
        write_json(os.path.join(out_dir, "workload.json"), {
            "id": self.job.id, "scheduler": "slurm", "attempt": attempt, "platform": platform,
            "start": iso_z(self.start), "end": iso_z((max(times) // US + 2) * US),
            "nodes": [n.name for n in self.job.nodes]})


def report(out_dir, keys):
    """Prints file:line of every line containing one of `keys` (for checking a regenerated bundle)."""
    for root, _, files in sorted(os.walk(out_dir)):
        for f in sorted(files):
            p = os.path.join(root, f)
            with open(p, encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    if any(k in line for k in keys):
                        print(f"{os.path.relpath(p, out_dir)}:{i}: {line.rstrip()[:170]}")
