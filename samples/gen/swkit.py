"""Scaffolding for the software/scheduler sample bundles (nccl-hang, cuda-oom, host-oom-cgroup, user-code-traceback,
bad-container-arg, nccl-socket-ifname, storage-full, preemption, time-limit, user-cancel).

Builds on common.py and apps.py (same conventions: true times in microseconds, node clocks applied when a stamp is
printed, rng() for randomness) and adds what those scenarios share: a Scenario holding the job, per-rank logs, kernel
logs, torchrun agent output and the Slurm job output, plus writers for the lines only these scenarios print
(faulthandler dumps, torchrun's SIGTERM shutdown, NCCL teardown errors, OOM killer, slurmstepd/srun endings).
"""
import os

from common import (US, Job, KernelLog, Node, compress_ranges, iso_z, kernel_boot_noise, kernel_runtime_noise, rng,
                    slurm_stamp, srun_task_error, write_json, write_lines)
from apps import (ELASTIC, PY_SITE, RankLog, elastic_line, nccl_line, nccl_stack, torch_prefix, torchrun_failure,
                  torchrun_start, traceback_lines, training_noise, watchdog_timeout)

FORMS = [("kern.log", "kern.log"), ("dmesg-T", "dmesg.txt"), ("journal", "journal-kernel.log"), ("raw", "dmesg-raw.txt")]
PREFIXES = ["torch", "srun", "torch", "ompi"]


def make_nodes(names, start, seed, skews=None, prefixes=None):
    """Nodes booted a while before the job, each with its own kernel capture form and launcher prefix."""
    r = rng(seed, "nodes")
    out = []
    for i, name in enumerate(names):
        form, fname = FORMS[i % len(FORMS)]
        boot = start - r.randrange(20 * 60, 50 * 60) * US - r.randrange(US)
        skew = (skews or {}).get(name, r.randrange(-30_000, 30_000))
        prefix = (prefixes or PREFIXES)[i % len(prefixes or PREFIXES)]
        out.append(Node(name, i + 1, boot, skew, 40_000 + 1_700 * i + r.randrange(300), form, fname, prefix))
    return out


class Scenario:
    def __init__(self, seed, job_id, job_name, start, nodes, platform, gpn=8):
        self.seed, self.job_name, self.start, self.platform = seed, job_name, start, platform
        self.job = Job(job_id, nodes, gpn)
        self.logs = {rank: RankLog(self.job, rank) for rank in range(self.job.nranks)}
        self.kernel = {n.name: KernelLog(n) for n in nodes}
        self.agents = {}        # node name -> torchrun lines (None: no torchrun.log for that node)
        self.slurm = []         # lines of slurm-<id>.out
        self.extra = {}         # relative path -> lines
        self.times = [start]

    def node(self, name):
        return next(n for n in self.job.nodes if n.name == name)

    # ------------------------------------------------------------ normal noise
    def train(self, tr, stop, comm_id="0x7f3a9c1e2b4d5e6f"):
        """Start-up, NCCL init, checkpoint load and step lines on every rank until stop (int or {rank: t})."""
        for rank in range(self.job.nranks):
            r = rng(self.seed, "rank", rank)
            comm = f"0x55{r.getrandbits(16):04x}a0"
            t_stop = stop[rank] if isinstance(stop, dict) else stop
            training_noise(self.logs[rank], r, tr, self.start + 2 * US, t_stop, comm, comm_id)

    def kernel_noise(self, until):
        for node in self.job.nodes:
            r = rng(self.seed, "kernel", node.name)
            for up, msg in kernel_boot_noise(node, r):
                self.kernel[node.name].add_uptime(up, msg)
            for t, msg in kernel_runtime_noise(node, r, self.start, until):
                self.kernel[node.name].add(t, msg)

    # ------------------------------------------------------------ torchrun
    def agent(self, node, extra_lines=None):
        lines = torchrun_start(self.job, node, node.clock(self.start + 2 * US + 118_000))
        self.agents[node.name] = lines + (extra_lines or [])

    def agent_failure(self, node, sigterm, failed, first, others=()):
        """first/others: (rank, exitcode, true time). Every other local rank gets the agent's SIGTERM."""
        gone = {first[0]} | {o[0] for o in others}
        term = [rk for rk in self.job.ranks_on(node) if rk not in gone]
        wall = lambda f: (f[0], f[1], node.clock(f[2]))  # noqa: E731
        self.agent(node, torchrun_failure(self.job, node, node.clock(sigterm), node.clock(failed), wall(first), term,
                                          [wall(o) for o in others]))
        self.times.append(failed)

    def agent_signalled(self, node, t, signum=15):
        """torchrun itself got SIGTERM from Slurm (cancel, time limit, preemption) and shuts its workers down."""
        self.agent(node, torchrun_shutdown(self.job, node, t, signum))
        self.times.append(t + 2 * US)

    # ------------------------------------------------------------ output
    def write(self, out, slurm_name=None, workload_extra=None):
        for node in self.job.nodes:
            d = os.path.join(out, "nodes", node.name)
            k = self.kernel[node.name]
            write_lines(os.path.join(d, node.kernel_file), k.render())
            self.times += k.times()
            if self.agents.get(node.name):
                write_lines(os.path.join(d, "torchrun.log"), self.agents[node.name])
            for rank in self.job.ranks_on(node):
                if self.logs[rank].entries:
                    write_lines(os.path.join(d, f"rank-{rank:02d}.log"), self.logs[rank].render())
                    self.times += self.logs[rank].times()
        if self.slurm:
            write_lines(os.path.join(out, slurm_name or f"slurm-{self.job.id}.out"), self.slurm)
        for rel, lines in self.extra.items():
            write_lines(os.path.join(out, rel), lines)
        end = (max(self.times) // US + 2) * US
        wl = {"id": self.job.id, "scheduler": "slurm", "attempt": 0, "platform": self.platform,
              "start": iso_z(self.start), "end": iso_z(end), "nodes": [n.name for n in self.job.nodes]}
        wl.update(workload_extra or {})
        write_json(os.path.join(out, "workload.json"), wl)


# ---------------------------------------------------------------- Slurm output
def slurm_header(sc, command, env_lines=(), image=None):
    nodes = sc.job.nodes
    names = f"{nodes[0].name.rsplit('-', 1)[0]}-[{nodes[0].name.rsplit('-', 1)[1]}-{nodes[-1].name.rsplit('-', 1)[1]}]"
    out = [f"job {sc.job.id} ({sc.job_name}) on {len(nodes)} nodes: {names}, {sc.job.nranks} GPUs ({sc.platform})",
           f"MASTER_ADDR={nodes[0].name} MASTER_PORT=29500 WORLD_SIZE={sc.job.nranks}"]
    out += list(env_lines)
    if image:
        out += [f"pyxis: importing docker image: {image}", f"pyxis: imported docker image: {image}"]
    return out + [f"launching: {command}"]


def step_banner(job_id, step, node, wall, reason=None, daemon="slurmstepd"):
    what = f"JOB {job_id}" if step is None else f"STEP {job_id}.{step}"
    due = f" DUE TO {reason}" if reason else ""
    return f"{daemon}: error: *** {what} ON {node.name} CANCELLED AT {slurm_stamp(wall)}{due} ***"


def srun_teardown(sc, node_tasks, what="Terminated", kill_wait=32):
    """srun's lines when a step is being killed: abort notice, per-node task state, force termination."""
    out = [f"srun: Job step aborted: Waiting up to {kill_wait} seconds for job step to finish.", "srun: got SIGCONT",
           "srun: forcing job termination"]
    for node in sc.job.nodes:
        out.append(srun_task_error(node, node_tasks.get(node.name, sc.job.ranks_on(node)), what))
    return out


def slurmctld_line(wall_us, msg):
    return f"[{slurm_stamp(wall_us)}.{wall_us % US // 1000:03d}] {msg}"


# ---------------------------------------------------------------- application lines
def faulthandler_dump(timeout_s, threads):
    """Python faulthandler.dump_traceback_later output: threads = [(ident, [(file, line, func)])], most recent first."""
    out = [f"Timeout (0:{timeout_s // 60:02d}:{timeout_s % 60:02d})!"]
    for ident, frames in threads:
        out.append(f"Thread 0x{ident:016x} (most recent call first):")
        out += [f'  File "{f}", line {n} in {fn}' for f, n, fn in frames]
        out.append("")
    return out[:-1]


def torchrun_shutdown(job, node, t, signum=15):
    """torchrun receiving SIGTERM/SIGINT from Slurm: forwards it to the workers and dies of SignalException."""
    api, name = f"{ELASTIC}.multiprocessing.api", {15: "SIGTERM", 2: "SIGINT"}[signum]
    out = [elastic_line(node.clock(t), f"{ELASTIC}.agent.server.api", "INFO",
                        f"Received Signals.{name} death signal, shutting down workers")]
    out += [elastic_line(node.clock(t + 1_000 + i * 900), api, "WARNING", f"Sending process {job.pid(rk)} closing signal {name}")
            for i, rk in enumerate(job.ranks_on(node))]
    out += traceback_lines([
        ("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"),
        (f"{PY_SITE}/torch/distributed/run.py", 910, "run", "elastic_launch("),
        (f"{PY_SITE}/torch/distributed/launcher/api.py", 260, "launch_agent", "result = agent.run()"),
        (f"{PY_SITE}/torch/distributed/elastic/agent/server/api.py", 835, "_invoke_run", "time.sleep(monitor_interval)"),
        (f"{PY_SITE}/torch/distributed/elastic/multiprocessing/api.py", 79, "_terminate_process_handler",
         'raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)'),
    ], [f"{api}.SignalException: Process {node.pid_base - 17} got signal: {signum}"])
    return out


def nccl_peer_closed(job, rank, peer_rank, tid_off=131):
    """What a surviving rank's proxy thread prints when the peer process is gone."""
    peer = job.node_of(peer_rank)
    msg = f"Net : Connection closed by remote peer {peer.name}.cluster<{40_000 + peer_rank * 7}>"
    return [nccl_line(job, rank, msg, "WARN", "misc/socket.cc:538", tid_off)] + nccl_stack(
        job, rank, ["misc/socket.cc:546", "transport/net_socket.cc:350", "proxy.cc:1442"], 6, tid_off, f"Proxy Service {rank}")


def nccl_peer_reset(job, rank, peer_rank, tid_off=131):
    peer = job.node_of(peer_rank)
    msg = f"socketProgressOpt: Call to recv from {peer.ip(job.local(peer_rank))}<{52_000 + peer_rank}> failed : Connection reset by peer"
    return [nccl_line(job, rank, msg, "WARN", "misc/socket.cc:538", tid_off)] + nccl_stack(
        job, rank, ["misc/socket.cc:546", "transport/net_socket.cc:350", "proxy.cc:1442"], 6, tid_off, f"Proxy Service {rank}")


def dist_backend_remote(rank, frames, where="ProcessGroupNCCL.cpp:1970", version="2.21.5", last=None):
    """The traceback a rank prints when its collective fails because a peer died."""
    exc = [f"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/{where}, "
           f"remote process exited or there was a network error, NCCL version {version}",
           "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."]
    if last:
        exc += ["Last error:", last]
    return traceback_lines(frames, exc, torch_prefix(rank))


def sigterm_exit(log, t, src="train.py:47"):
    log.log(t, "WARNING", src, "received SIGTERM, exiting")


def train_frames(step_call="loss = train_step(model, batch, optim, step)"):
    return [("/workspace/train.py", 431, "<module>", "main()"), ("/workspace/train.py", 402, "main", step_call)]


def watchdog(sc, rank, t, seq, op, numel, timeout_ms, last_enq, last_done, old=False):
    """Watchdog timeout lines of one rank at true time t (the collective started timeout_ms earlier)."""
    node, r = sc.job.node_of(rank), rng(sc.seed, "watchdog", rank, seq)
    ran = timeout_ms + (t // 1000) % 97 + 3
    lines = watchdog_timeout(rank, node.clock(t), r, seq, op, numel, timeout_ms, ran, last_enq, last_done, old=old)
    sc.logs[rank].add(t, lines, "err", step=40)


def ranks_text(ranks):
    return compress_ranges(ranks)
