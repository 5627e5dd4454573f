"""Application-side writers: per-rank logs (launcher prefixes, python logging, NCCL, tracebacks, PyTorch
watchdog), torchrun agent output, and the normal-training noise every rank prints. Same conventions as
common.py: true times in microseconds, node clocks applied when a timestamp is printed, rng() for randomness.
"""
import math

from common import PY_SITE, US, elastic_stamp, glog_stamp, nccl_busid, nic_ifname, py_stamp


# ---------------------------------------------------------------- application (rank) logs
class RankLog:
    """Lines of one rank's output file. Each entry has a true time used only for ordering; the text already
    holds whatever timestamp the producer prints (or none, e.g. NCCL). Launcher prefixes are added on render."""

    def __init__(self, job, rank):
        self.job, self.rank, self.node, self.entries = job, rank, job.node_of(rank), []

    def add(self, t, lines, stream="out", step=1):
        for i, text in enumerate([lines] if isinstance(lines, str) else lines):
            self.entries.append((t + i * step, len(self.entries), stream, text))

    def log(self, t, level, src, msg, stream="out"):
        self.add(t, py_line(self.node.clock(t), level, src, msg), stream)

    def render(self):
        return [launcher_prefix(self.node, self.rank, self.job.nranks, stream) + text
                for _, _, stream, text in sorted(self.entries)]

    def times(self):
        return [t for t, _, _, _ in self.entries]


def launcher_prefix(node, rank, nranks, stream):
    if node.prefix == "srun":   # srun --label pads the task id to the width of the largest one
        return f"{rank:>{len(str(nranks - 1))}}: "
    if node.prefix == "ompi":   # mpirun --tag-output
        return f"[1,{rank}]<{'stdout' if stream == 'out' else 'stderr'}>:"
    return ""


def torch_prefix(rank):
    """What torchrun (>= 2.2) puts before lines that torch itself writes."""
    return f"[rank{rank}]:"


def py_line(wall, level, src, msg):
    return f"[{py_stamp(wall)}] {level} {src} {msg}"


def nccl_line(job, rank, msg, level="INFO", src=None, tid_off=0):
    node, pid = job.node_of(rank), job.pid(rank)
    where = f"{src} " if src else ""
    return f"{node.name}:{pid}:{pid + tid_off} [{job.local(rank)}] {where}NCCL {level} {msg}"


def nccl_stack(job, rank, frames, rc, tid_off, thread=None):
    """The 'NCCL INFO file.cc:line -> rc' lines NCCL prints after a WARN."""
    out = [nccl_line(job, rank, f"{f} -> {rc}", tid_off=tid_off) for f in frames]
    if thread:
        out[-1] += f" [{thread}]"
    return out


def nccl_init(job, rank, comm, comm_id, version="2.21.5", cuda="12.4"):
    """Untimestamped NCCL INFO lines from ncclCommInitRank of the default process group."""
    node, k, n = job.node_of(rank), job.local(rank), job.nranks
    ip, tid = node.ip(k), 170 + k
    nic_list = " ".join(f"[{i}]mlx5_{i}:1/RoCE" for i in range(job.gpn))
    nxt, prv = job.peer(rank, 1), job.peer(rank, -1)
    child = rank + 1 if k < job.gpn - 1 else -1
    parent = rank - 1 if k > 0 else prv
    ln = lambda msg, t=tid: nccl_line(job, rank, msg, tid_off=t)  # noqa: E731
    out = [ln(f"NCCL version {version}+cuda{cuda}", 0)] if rank == 0 else []
    out += [
        ln("cudaDriverVersion 12080", 0),
        ln(f"Bootstrap : Using {nic_ifname(k)}:{ip}<0>", 0),
        ln("NET/Plugin: No plugin found (libnccl-net.so)"),
        ln("NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so"),
        ln("NET/Plugin: Using internal network plugin."),
        ln(f"NET/IB : Using {nic_list} [RO]; OOB {nic_ifname(k)}:{ip}<0>"),
        ln("Using non-device net plugin version 0"),
        ln("Using network IB"),
        ln(f"ncclCommInitRank comm {comm} rank {rank} nranks {n} cudaDev {k} nvmlDev {k} busId {nccl_busid(k)} commId {comm_id} - Init START"),
        ln(f"Setting affinity for GPU {k} to {'ffffffff,ffffffff,ffffffff' if k < 4 else 'ffffffff,ffffffff,ffffffff,00000000,00000000,00000000'}"),
        ln(f"NVLS multicast support is available on dev {k}"),
        ln(f"comm {comm} rank {rank} nRanks {n} nNodes {len(job.nodes)} localRanks {job.gpn} localRank {k} MNNVL 0"),
        ln(f"Trees [0] {child}/-1/-1->{rank}->{parent} [1] {child}/-1/-1->{rank}->{parent}"),
        ln("P2P Chunksize set to 131072"),
        ln(f"Channel {k:02d}/0 : {prv}[{k}] -> {rank}[{k}] [receive] via NET/IB/{k}/GDRDMA"),
        ln(f"Channel {k + 8:02d}/0 : {prv}[{k}] -> {rank}[{k}] [receive] via NET/IB/{k}/GDRDMA"),
        ln(f"Channel {k:02d}/0 : {rank}[{k}] -> {nxt}[{k}] [send] via NET/IB/{k}/GDRDMA"),
        ln(f"Channel {k + 8:02d}/0 : {rank}[{k}] -> {nxt}[{k}] [send] via NET/IB/{k}/GDRDMA"),
    ]
    for c in range(0, 24, 8):
        peer = rank + 1 if k < job.gpn - 1 else rank - k
        out.append(ln(f"Channel {c + (k + 1) % 8:02d}/0 : {rank}[{k}] -> {peer}[{job.local(peer)}] via P2P/CUMEM/read"))
    out += [
        ln("Connected all rings"),
        ln("Connected all trees"),
        ln(f"NVLS comm {comm} headRank {k} nHeads {job.gpn} buffSize 1048576 memSize 2097152 nvlsPerRankSize 201326592 nvlsTotalSize 1610612736"),
        ln("threadThresholds 8/8/64 | 256/8/64 | 512 | 512"),
        ln("24 coll channels, 24 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer"),
        ln("TUNER/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-tuner.so"),
        ln("TUNER/Plugin: Using internal tuner plugin."),
        ln("ncclCommInitRank comm {} rank {} nranks {} cudaDev {} nvmlDev {} busId {} commId {} - Init COMPLETE".format(
            comm, rank, n, k, k, nccl_busid(k), comm_id)),
    ]
    return out


def traceback_lines(frames, exc_lines, prefix=""):
    """frames: [(file, line, func, code)], exc_lines: final 'Type: msg' line and any continuation lines."""
    out = ["Traceback (most recent call last):"]
    for f, n, fn, code in frames:
        out += [f'  File "{f}", line {n}, in {fn}', f"    {code}"]
    return [prefix + " " + x if prefix else x for x in out + exc_lines]


def cuda_error_lines(msg):
    return [f"RuntimeError: CUDA error: {msg}",
            "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
            "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."]


# ---------------------------------------------------------------- PyTorch watchdog
def work_desc(seq, op, numel, timeout_ms):
    return f"WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)={timeout_ms})"


def watchdog_timeout(rank, wall, r, seq, op, numel, timeout_ms, ran_ms, last_enq, last_done, old=False):
    """Lines ProcessGroupNCCL writes when a collective times out and it takes the process down.
    wall = node-clock time of the first line. old=True: PyTorch <= 2.1 shape, no [rankN]: and no date."""
    what = f"[Rank {rank}] Watchdog caught collective operation timeout: {work_desc(seq, op, numel, timeout_ms)} ran for {ran_ms} milliseconds before timing out."
    if old:
        return [f"[E ProcessGroupNCCL.cpp:475] {what}",
                "[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
                "[E ProcessGroupNCCL.cpp:495] To avoid data inconsistency, we are taking the entire process down.",
                f"[E ProcessGroupNCCL.cpp:916] [Rank {rank}] NCCL watchdog thread terminated with exception: {what}",
                "terminate called after throwing an instance of 'std::runtime_error'",
                f"  what():  [Rank {rank}] NCCL watchdog thread terminated with exception: {what}"]
    p, pg = torch_prefix(rank), f"[PG 0 Rank {rank}]"
    g = lambda dt, src, msg: f"{p}[{glog_stamp(wall + dt, 'E', r.randrange(1000))} {src}] {msg}"  # noqa: E731
    work = f"work: {seq}, last enqueued NCCL work: {last_enq}, last completed NCCL work: {last_done}."
    lib = f"{PY_SITE}/torch/lib"
    base = 0x7f0000000000 + r.randrange(0x100, 0xff0) * 0x100000000
    frames = ["c10::Error::Error(c10::SourceLocation, std::string) + 0x96 ({:#x} in %s/libc10.so)" % lib,
              "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x282 ({:#x} in %s/libtorch_cuda.so)" % lib,
              "c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 ({:#x} in %s/libtorch_cuda.so)" % lib,
              "c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d ({:#x} in %s/libtorch_cuda.so)" % lib,
              "<unknown function> + 0xdc253 ({:#x} in /lib/x86_64-linux-gnu/libstdc++.so.6)",
              "<unknown function> + 0x94ac3 ({:#x} in /lib/x86_64-linux-gnu/libc.so.6)",
              "<unknown function> + 0x126850 ({:#x} in /lib/x86_64-linux-gnu/libc.so.6)"]
    out = [g(0, "ProcessGroupNCCL.cpp:607", what),
           g(270, "ProcessGroupNCCL.cpp:1664", f"{pg} Exception (either an error or timeout) detected by watchdog at {work}"),
           g(310, "ProcessGroupNCCL.cpp:1709", f"{pg} Timeout at NCCL {work}"),
           g(330, "ProcessGroupNCCL.cpp:621", f"[Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."),
           g(350, "ProcessGroupNCCL.cpp:627", f"[Rank {rank}] To avoid data inconsistency, we are taking the entire process down."),
           g(1900, "ProcessGroupNCCL.cpp:1515", f"{pg} Process group watchdog thread terminated with exception: {what}"),
           f"{p}Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):"]
    out += [f"{p}frame #{i}: " + fr.format(base + r.randrange(0x100000, 0xfffffff)) for i, fr in enumerate(frames)]
    out += [p, f"{p}terminate called after throwing an instance of 'c10::DistBackendError'",
            f"{p}  what():  {pg} Process group watchdog thread terminated with exception: {what}"]
    return out


# ---------------------------------------------------------------- torchrun agent (one per node)
ELASTIC = "torch.distributed.elastic"


def elastic_line(wall, logger, level, msg):
    return f"[{py_stamp(wall)}] {logger}: [{level}] {msg}"


def torchrun_start(job, node, wall, entry="train.py", master="node-01", port=29500):
    w = lambda dt, lg, lvl, m: elastic_line(wall + dt, lg, lvl, m)  # noqa: E731
    ranks = job.ranks_on(node)
    stars = "*" * 41
    out = [w(0, "torch.distributed.run", "WARNING", ""),
           w(0, "torch.distributed.run", "WARNING", stars),
           w(0, "torch.distributed.run", "WARNING", "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "),
           w(0, "torch.distributed.run", "WARNING", stars),
           w(742_000, f"{ELASTIC}.agent.server.api", "INFO", "[default] starting workers for entrypoint: python3"),
           w(2_851_000, f"{ELASTIC}.agent.server.api", "INFO", "[default] Rendezvous complete for workers. Result:"),
           f"  restart_count=0\n  master_addr={master}\n  master_port={port}\n  group_rank={job.nodes.index(node)}",
           f"  group_world_size={len(job.nodes)}\n  local_ranks={list(range(job.gpn))}\n  role_ranks={ranks}\n  global_ranks={ranks}",
           f"  role_world_sizes={[job.nranks] * job.gpn}\n  global_world_sizes={[job.nranks] * job.gpn}",
           "",
           w(2_860_000, f"{ELASTIC}.agent.server.api", "INFO", "[default] Starting worker group"),
           w(2_874_000, f"{ELASTIC}.multiprocessing", "INFO", f"Setting worker{{0..{job.gpn - 1}}} reply file to: /tmp/torchelastic_{node.name}_{job.id}/attempt_0/<n>/error.json"),
           ]
    return "\n".join(out).split("\n")


def torchrun_failure(job, node, wall_sigterm, wall_failed, first, terminated, failures, entry="train.py"):
    """first/failures: (rank, exitcode, wall) of the first observed failure and any others.
    terminated: ranks the agent sent SIGTERM to."""
    api = f"{ELASTIC}.multiprocessing.api"
    out = [elastic_line(wall_sigterm + i * 1_100, api, "WARNING", f"Sending process {job.pid(rk)} closing signal SIGTERM")
           for i, rk in enumerate(terminated)]
    rk, code, _ = first
    out.append(elastic_line(wall_failed, api, "ERROR", f"failed (exitcode: {code}) local_rank: {job.local(rk)} (pid: {job.pid(rk)}) of binary: /usr/bin/python3"))
    out += traceback_lines([
        ("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"),
        (f"{PY_SITE}/torch/distributed/elastic/multiprocessing/errors/__init__.py", 355, "wrapper", "return f(*args, **kwargs)"),
        (f"{PY_SITE}/torch/distributed/run.py", 919, "main", "run(args)"),
        (f"{PY_SITE}/torch/distributed/run.py", 910, "run", "elastic_launch("),
        (f"{PY_SITE}/torch/distributed/launcher/api.py", 138, "__call__", "return launch_agent(self._config, self._entrypoint, list(args))"),
        (f"{PY_SITE}/torch/distributed/launcher/api.py", 269, "launch_agent", "raise ChildFailedError("),
    ], [f"{ELASTIC}.multiprocessing.errors.ChildFailedError: "])
    bar, dash = "=" * 60, "-" * 60
    out += [bar, f"{entry} FAILED", dash, "Failures:"]
    for i, f in enumerate(failures):
        out += _failure_entry(job, node, i + 1, f)
    if not failures:
        out.append("  <NO_OTHER_FAILURES>")
    out += [dash, "Root Cause (first observed failure):"] + _failure_entry(job, node, 0, first) + [bar]
    return out


def _failure_entry(job, node, idx, failure):
    rk, code, wall = failure
    tb = (f"Signal {-code} ({ {6: 'SIGABRT', 9: 'SIGKILL', 15: 'SIGTERM', 11: 'SIGSEGV'}[-code] }) received by PID {job.pid(rk)}"
          if code < 0 else "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html")
    return [f"[{idx}]:", f"  time      : {elastic_stamp(wall)}", f"  host      : {node.name}",
            f"  rank      : {rk} (local_rank: {job.local(rk)})", f"  exitcode  : {code} (pid: {job.pid(rk)})",
            "  error_file: <N/A>", f"  traceback : {tb}"]


# ---------------------------------------------------------------- normal training noise
class Training:
    """A steady training run resumed from a checkpoint: step s ends at step_end(s) (true time)."""

    def __init__(self, resume_step, first_wall, step_us, ckpt_step, ckpt_pause_us, log_interval, ckpt_dir):
        self.resume, self.t1, self.dt = resume_step, first_wall, step_us
        self.ckpt_step, self.ckpt_pause, self.every, self.ckpt_dir = ckpt_step, ckpt_pause_us, log_interval, ckpt_dir

    def step_end(self, s):
        return self.t1 + (s - self.resume) * self.dt + (self.ckpt_pause if s > self.ckpt_step else 0)


def lr_str(lr):
    m, e = f"{lr:.1e}".split("e")
    return f"{m}e{int(e)}"


def training_noise(log, r, tr, t_launch, t_stop, comm, comm_id):
    """Start-up, NCCL init, checkpoint load, step lines every log_interval steps until t_stop, one checkpoint save."""
    job, rank, node = log.job, log.rank, log.node
    k, n, pid = job.local(rank), job.nranks, job.pid(rank)
    t = t_launch + 2_100_000 + r.randrange(0, 400_000)
    log.log(t, "INFO", "train.py:61", f"rank {rank}/{n} local_rank {k} on {node.name} (pid {pid}) starting")
    log.log(t + 48_000, "INFO", "train.py:74", "torch 2.5.1+cu124, CUDA 12.4, NCCL 2.21.5, 8 visible GPUs")
    log.log(t + 310_000, "INFO", "train.py:97", "init_process_group(backend='nccl', timeout=0:10:00)")
    log.add(t + 1_200_000, nccl_init(job, rank, comm, comm_id), step=900)
    log.log(t + 4_600_000, "INFO", "train.py:118", "model: decoder-only 70B, FSDP FULL_SHARD, bf16, 2.19B params/rank")
    shard = f"shard {rank}/{n}"
    log.log(t + 5_000_000, "INFO", "checkpoint.py:52", f"loading {tr.ckpt_dir}/step_{tr.resume:07d} ({shard})")
    load_s = 21.0 + r.random() * 4
    log.log(t + 5_000_000 + int(load_s * US), "INFO", "checkpoint.py:61", f"loaded step {tr.resume} in {load_s:.1f}s")
    t_data = t + 5_100_000 + int(load_s * US)
    log.log(t_data, "INFO", "data.py:58", f"dataloader: 8 workers, prefetch_factor=4, {shard}, {r.randrange(400, 420)} files")
    if r.random() < 0.4:
        log.add(t_data + 9_000, [f"{PY_SITE}/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will create 8 worker processes in total. Our suggested max number of worker in current system is 7, which is smaller than what this DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.",
                                 "  warnings.warn("], "err")
    log.log(t_data + 40_000, "INFO", "train.py:171", f"resuming at step {tr.resume + 1}, log_interval={tr.every}")
    slow = set(r.sample(range(tr.resume + 1, tr.resume + 1000), 2))
    s = tr.resume + tr.every
    while tr.step_end(s) < t_stop:
        _step_line(log, r, tr, s)
        if s in slow:
            log.log(tr.step_end(s) - 700_000, "WARNING", "data.py:141", f"slow batch fetch: {1.6 + r.random():.2f}s (worker {r.randrange(8)})")
        if s == tr.ckpt_step:
            te = tr.step_end(s) + 30_000
            log.log(te, "INFO", "checkpoint.py:88", f"saving step {s} -> {tr.ckpt_dir}/step_{s:07d}")
            took = tr.ckpt_pause - 1_500_000 - r.randrange(2_500_000)
            log.log(te + took, "INFO", "checkpoint.py:97",
                    f"saved {shard} ({4.0 + r.random() * 0.3:.2f} GiB) in {took / US:.1f}s")
        s += tr.every


def _step_line(log, r, tr, s):
    loss = 2.05 + 1.15 * math.exp(-s / 900) + r.uniform(-0.06, 0.06)
    lr = 3.0e-4 * 0.5 * (1 + math.cos(math.pi * s / 20000))
    tps = 48000 + r.randrange(-650, 650)
    log.log(tr.step_end(s) + r.randrange(200, 25_000), "INFO", "train.py:212",
            f"step={s} loss={loss:.4f} lr={lr_str(lr)} tokens/s={tps}")
