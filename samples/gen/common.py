"""Shared helpers for synthetic evidence bundles (python3, stdlib only, deterministic).

Conventions
- Every time is an int: microseconds since the Unix epoch, UTC, as "true" time. A Node turns true time into
  what its own clock prints (Node.clock adds the node's skew) and into boot-relative seconds (Node.boot).
- Randomness only through rng(seed, *names): a random.Random seeded from a string (sha512-based, so stable
  across runs and Python processes). No wall clock is read anywhere.
- Writers return lists of lines; a scenario script decides what happens when and where the files go.
"""
import calendar
import json
import os
import random
from dataclasses import dataclass
from datetime import datetime, timezone

US = 1_000_000
MS = 1_000
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
WEEKDAYS = "Mon Tue Wed Thu Fri Sat Sun".split()

# Typical HGX baseboard: PCI bus of GPU 0..7, and of the rail NIC next to each GPU.
GPU_BUSES = ["1b", "43", "52", "61", "9d", "c3", "d1", "df"]
NIC_BUSES = ["1a", "40", "51", "5f", "9c", "c0", "d0", "de"]
DRIVER = "570.158.01"
PY_SITE = "/usr/local/lib/python3.10/dist-packages"


def rng(seed, *names):
    return random.Random(":".join([str(seed)] + [str(n) for n in names]))


# ---------------------------------------------------------------- time formatting
def us(iso):
    """'2026-04-22T21:34:20.118251Z' -> microseconds since epoch."""
    main, _, frac = iso.rstrip("Z").partition(".")
    dt = datetime.strptime(main, "%Y-%m-%dT%H:%M:%S")
    return calendar.timegm(dt.timetuple()) * US + int((frac + "000000")[:6])


def _dt(t):
    return datetime.fromtimestamp(t // US, tz=timezone.utc)


def py_stamp(t):        # python logging default: 2026-04-22 21:34:18,004
    return f"{_dt(t):%Y-%m-%d %H:%M:%S},{t % US // MS:03d}"


def glog_stamp(t, sev="E", ns=0):  # c10 logging: E422 21:44:20.412298746 (month unpadded)
    d = _dt(t)
    return f"{sev}{d.month}{d.day:02d} {d:%H:%M:%S}.{t % US * 1000 + ns:09d}"


def ctime_stamp(t):     # dmesg -T: Wed Apr 22 21:34:20 2026
    d = _dt(t)
    return f"{WEEKDAYS[d.weekday()]} {MONTHS[d.month - 1]} {d.day:2d} {d:%H:%M:%S} {d.year}"


def syslog_stamp(t):    # RFC 3164: Apr 22 21:34:20
    d = _dt(t)
    return f"{MONTHS[d.month - 1]} {d.day:2d} {d:%H:%M:%S}"


def iso_us_stamp(t):    # journalctl short-iso-precise: 2026-04-22T21:34:20.118251+0000
    return f"{_dt(t):%Y-%m-%dT%H:%M:%S}.{t % US:06d}+0000"


def iso_z(t):
    return f"{_dt(t):%Y-%m-%dT%H:%M:%S}Z"


def slurm_stamp(t):
    return f"{_dt(t):%Y-%m-%dT%H:%M:%S}"


def elastic_stamp(t):   # torchrun failure summary: 2026-04-22_21:44:21
    return f"{_dt(t):%Y-%m-%d_%H:%M:%S}"


def uptime_stamp(up):   # printk: [ 3260.118251]
    return f"[{up // US:5d}.{up % US:06d}]"


# ---------------------------------------------------------------- layout
@dataclass
class Node:
    name: str
    index: int          # 1-based, used in IP addresses
    boot: int           # true boot time (us)
    skew: int           # this node's clock minus true time (us)
    pid_base: int       # pid of local rank 0; local rank k has pid_base + k
    kernel_form: str    # "kern.log" | "dmesg-T" | "journal" | "raw"
    kernel_file: str
    prefix: str         # launcher prefix on rank logs: "torch" | "srun" | "ompi"

    def clock(self, t):
        return t + self.skew

    def ip(self, rail):
        return f"10.16.{self.index}.{11 + rail}"

    def mgmt_ip(self):
        return f"10.15.{self.index}.10"


class Job:
    def __init__(self, job_id, nodes, gpus_per_node=8):
        self.id, self.nodes, self.gpn = job_id, nodes, gpus_per_node
        self.nranks = len(nodes) * gpus_per_node

    def node_of(self, rank):
        return self.nodes[rank // self.gpn]

    def local(self, rank):
        return rank % self.gpn

    def pid(self, rank):
        return self.node_of(rank).pid_base + self.local(rank)

    def ranks_on(self, node):
        i = self.nodes.index(node)
        return list(range(i * self.gpn, (i + 1) * self.gpn))

    def peer(self, rank, node_step):
        """Same-rail rank on the node node_step positions away (rail-optimized rings)."""
        i = (self.nodes.index(self.node_of(rank)) + node_step) % len(self.nodes)
        return i * self.gpn + self.local(rank)


def gpu_pci(local):
    return f"0000:{GPU_BUSES[local]}:00"


def nccl_busid(local):
    """NCCL prints busId as %lx of the hex digits of '0000:61:00.0' -> '61000'."""
    return f"{int('0000' + GPU_BUSES[local] + '000', 16):x}"


def nic_pci(rail):
    return f"0000:{NIC_BUSES[rail]}:00.0"


def nic_ifname(rail):
    return f"enp{int(NIC_BUSES[rail], 16)}s0np0"


def gpu_uuid(r):
    h = f"{r.getrandbits(128):032x}"
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def compress_ranges(nums):
    """[0,1,2,5,7,8] -> '0-2,5,7-8' (Slurm task lists)."""
    nums, out, i = sorted(nums), [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}-{nums[j]}")
        i = j + 1
    return ",".join(out)


# ---------------------------------------------------------------- kernel logs
class KernelLog:
    """Kernel messages of one node, rendered in that node's capture form."""

    def __init__(self, node):
        self.node, self.entries = node, []

    def add(self, t, msg):
        self.entries.append((t, len(self.entries), msg))

    def add_uptime(self, up, msg):
        self.add(self.node.boot + up, msg)

    def times(self):
        return [t for t, _, _ in self.entries]

    def render(self):
        lines = []
        for t, _, msg in sorted(self.entries):
            line = kernel_line(self.node, t, msg)
            if line is not None:
                lines.append(line)
        return lines


def kernel_line(node, t, msg):
    up, wall, form = uptime_stamp(t - node.boot), node.clock(t), node.kernel_form
    ident, body = "kernel", msg
    if msg.startswith("systemd[1]: "):  # userspace writes to kmsg during early boot
        ident, body = "systemd[1]", msg[len("systemd[1]: "):]
    if form == "raw":
        return f"{up} {msg}"
    if form == "dmesg-T":
        return f"[{ctime_stamp(wall)}] {msg}"
    if form == "kern.log":   # rsyslog kern.* only: no systemd lines, printk time kept
        return None if ident != "kernel" else f"{syslog_stamp(wall)} {node.name} kernel: {up} {msg}"
    if form == "journal":
        return f"{iso_us_stamp(wall)} {node.name} {ident}: {body}"
    raise ValueError(form)


def _audit(node, up, serial, text):
    wall = node.clock(node.boot + up)
    return f"audit: type=1400 audit({wall // US}.{wall % US // MS:03d}:{serial}): {text}"


def kernel_boot_noise(node, r):
    """(uptime_us, msg) pairs for a normal boot of an HGX node, driver load and GPU->PCI mapping lines."""
    s = lambda sec: int(sec * US)  # noqa: E731  (jitter is added in _spread)
    rtc = node.clock(node.boot + s(2.6)) // US
    root = f"{r.getrandbits(128):032x}"
    root = f"{root[:8]}-{root[8:12]}-{root[12:16]}-{root[16:20]}-{root[20:]}"
    ev = [
        (0, "Linux version 6.8.0-60-generic (buildd@lcy02-amd64-098) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #63-Ubuntu SMP PREEMPT_DYNAMIC Tue Apr 15 19:04:15 UTC 2025 (Ubuntu 6.8.0-60.63-generic 6.8.12)"),
        (0, f"Command line: BOOT_IMAGE=/vmlinuz-6.8.0-60-generic root=UUID={root} ro iommu=pt pci=realloc=off console=ttyS0,115200n8"),
        (0, "BIOS-provided physical RAM map:"),
        (0, "DMI: Example Systems HGX-B200-8GPU/SYS-B200-8, BIOS 2.1a 02/11/2025"),
        (0, "tsc: Detected 2100.000 MHz processor"),
        (s(0.01), "smpboot: Allowing 224 CPUs, 0 hotplug CPUs"),
        (s(0.4), "Memory: 2110392544K/2147087308K available (20480K kernel code, 4419K rwdata, 14476K rodata, 4764K init, 17604K bss, 36694764K reserved, 0K cma-reserved)"),
        (s(1.2), "PCI: Using configuration type 1 for base access"),
        (s(1.9), "iommu: Default domain type: Passthrough (set via kernel command line)"),
        (s(2.6), f"rtc_cmos 00:00: setting system clock to {iso_z(rtc * US)[:-1]} UTC ({rtc})"),
        (s(3.1), "Freeing unused kernel image (initmem) memory: 4764K"),
        (s(3.2), "Run /init as init process"),
        (s(4.0), "nvme nvme0: pci function 0000:8a:00.0"),
        (s(4.1), "nvme nvme0: 64/0/0 default/read/poll queues"),
        (s(4.2), " nvme0n1: p1 p2"),
    ]
    for k in range(8):
        ev.append((s(4.4 + 0.05 * k), f"mlx5_core {nic_pci(k)}: firmware version: 28.43.2026"))
        ev.append((s(4.5 + 0.05 * k), f"mlx5_core {nic_pci(k)}: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"))
    ev += [
        (s(5.8), f"EXT4-fs (nvme0n1p2): mounted filesystem {root} ro with ordered data mode. Quota mode: none."),
        (s(6.3), "systemd[1]: systemd 255.4-1ubuntu8.6 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT +QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)"),
        (s(6.3), "systemd[1]: Detected architecture x86-64."),
        (s(6.3), f"systemd[1]: Hostname set to <{node.name}>."),
        (s(6.9), "systemd[1]: Queued start job for default target graphical.target."),
        (s(7.1), f"EXT4-fs (nvme0n1p2): re-mounted {root} r/w. Quota mode: none."),
        (s(7.4), "systemd[1]: Started systemd-journald.service - Journal Service."),
        (s(8.0), _audit(node, s(8.0) + 1_000, 2, 'apparmor="STATUS" operation="profile_load" profile="unconfined" name="lsb_release" pid=1290 comm="apparmor_parser"')),
        (s(8.0), _audit(node, s(8.0) + 2_000, 3, 'apparmor="STATUS" operation="profile_load" profile="unconfined" name="nvidia_modprobe" pid=1291 comm="apparmor_parser"')),
        (s(8.1), _audit(node, s(8.1) + 3_000, 4, 'apparmor="STATUS" operation="profile_load" profile="unconfined" name="/usr/sbin/chronyd" pid=1295 comm="apparmor_parser"')),
        (s(9.0), "nvidia: loading out-of-tree module taints kernel."),
        (s(9.0), "nvidia: module license 'NVIDIA' taints kernel."),
        (s(9.0), "Disabling lock debugging due to kernel taint"),
        (s(9.0), "nvidia: module verification failed: signature and/or required key missing - tainting kernel"),
        (s(9.1), "nvidia-nvlink: Nvlink Core is being initialized, major device number 508"),
        (s(9.4), f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Mon Jun  2 21:28:20 UTC 2025"),
        (s(9.6), f"nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {DRIVER}  Mon Jun  2 20:52:36 UTC 2025"),
        (s(9.8), "nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint."),
        (s(10.0), "nvidia-uvm: Loaded the UVM driver, major device number 506."),
    ]
    for k in range(8):
        ev.append((s(10.5 + 0.01 * k), f"mlx5_core {nic_pci(k)} {nic_ifname(k)}: renamed from eth{k}"))
        ev.append((s(12.6 + 0.01 * k), f"mlx5_core {nic_pci(k)} {nic_ifname(k)}: Link up"))
    ev += [
        (s(11.2), "ice 0000:2a:00.0 eno1np0: NIC Link is up 100 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, Autoneg Advertised: On, Autoneg Negotiated: False, Flow Control: None"),
        (s(11.3), "IPv6: ADDRCONF(NETDEV_CHANGE): eno1np0: link becomes ready"),
        (s(13.0), "NET: Registered PF_PACKET protocol family"),
        (s(14.2), "NFS: Registering the id_resolver key type"),
        (s(14.2), "Key type id_resolver registered"),
        (s(16.8), "LNet: HW NUMA nodes: 2, HW CPU cores: 224, npartitions: 2"),
        (s(17.0), f"LNet: Added LNI {node.mgmt_ip()}@tcp [8/256/0/180]"),
        (s(17.4), "Lustre: Lustre: Build Version: 2.15.5"),
    ]
    return _spread(ev, r) + nvrm_gpu_map(r, s(24.0))


def _spread(ev, r):
    """Sort by nominal uptime (stable) and add jitter that keeps that order; time-zero lines stay at 0."""
    out, prev = [], 0
    for up, msg in sorted(ev, key=lambda e: e[0]):
        t = up if up == 0 else max(up + r.randrange(0, 60_000), prev + r.randrange(5, 900))
        out.append((t, msg))
        prev = t
    return out


def nvrm_gpu_map(r, up):
    """The driver's PCI -> GPU UUID / serial lines, printed when persistence mode brings each GPU up."""
    ev = []
    for k in range(8):
        t = up + k * 310_000 + r.randrange(0, 40_000)
        ev.append((t, f"NVRM: GPU at PCI:{gpu_pci(k)}: {gpu_uuid(r)}"))
        ev.append((t, f"NVRM: GPU Board Serial Number: 1654925{r.randrange(10**6):06d}"))
    return ev


def kernel_runtime_noise(node, r, t_from, t_to):
    """(true_us, msg) benign lines while a job runs: container mount, mlx5 register-read failures, perf."""
    ev = [
        (t_from + 1_400_000, f"EXT4-fs (nvme1n1): mounted filesystem {r.getrandbits(32):08x}-5e1c-4a9b-9d1e-7c2f{r.getrandbits(32):08x} r/w with ordered data mode. Quota mode: none."),
        (t_from + 2_100_000, "overlayfs: fs on '/raid/enroot/data/user-1000' does not support file handles, falling back to xino=off."),
        (t_from + r.randrange(600, 1200) * US, "perf: interrupt took too long (2504 > 2500), lowering kernel.perf_event_max_sample_rate to 79750"),
    ]
    t = t_from + r.randrange(120, 300) * US
    while t < t_to:
        rail = r.randrange(8)
        ev.append((t, f"mlx5_core {nic_pci(rail)}: mlx5_cmd_out_err:838:(pid {r.randrange(3900, 4400)}): ACCESS_REG(0x805) op_mod(0x1) failed, status bad parameter(0x3), syndrome (0x15c356), err(-22)"))
        t += r.randrange(300, 560) * US + r.randrange(US)
    return ev


# ---------------------------------------------------------------- Slurm
def srun_task_error(node, tasks, what):
    tasks = sorted(tasks)
    word = "task" if len(tasks) == 1 else "tasks"
    return f"srun: error: {node.name}: {word} {compress_ranges(tasks)}: {what}"


def step_cancelled(job_id, step, node, wall, reason="TASK FAILURE"):
    return f"slurmstepd: error: *** STEP {job_id}.{step} ON {node.name} CANCELLED AT {slurm_stamp(wall)} DUE TO {reason} ***"


# ---------------------------------------------------------------- output
def write_lines(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def noisy_kernel_log(node, seed, t_from, t_to):
    """A node's kernel log with boot noise and runtime noise between t_from and t_to; add the failure to it."""
    r = rng(seed, "kernel", node.name)
    k = KernelLog(node)
    for up, msg in kernel_boot_noise(node, r):
        k.add_uptime(up, msg)
    for t, msg in kernel_runtime_noise(node, r, t_from, t_to):
        k.add(t, msg)
    return k
