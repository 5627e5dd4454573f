// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib gen`: the healthy part of a generated job (kernel noise, training logs, Slurm output, workload.json);
// gen_faults.cpp adds the planted failure. Nodes are written in parallel; every node's lines come from its own
// random stream, so the bytes do not depend on the number of threads.
#include "app/cli/gen_bundle.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;

namespace attrib::cli::gen {

namespace {

constexpr Ms JobStart = 1'777'888'800'000;  // 2026-05-04T10:00:00Z
constexpr const char* Months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr const char* Days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
enum class KernelForm { DmesgT, Syslog, Journal };

std::tm utc(Ms t)
{
    const std::time_t secs = static_cast<std::time_t>(t / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm;
}

/// A file written through one buffer; counts its bytes.
class Out {
public:
    explicit Out(const fs::path& path)
        : m_file(std::fopen(path.c_str(), "wb"))
    {
        m_buffer.reserve(1 << 20);
    }
    ~Out() { close(); }
    Out(const Out&) = delete;
    Out& operator=(const Out&) = delete;
    bool ok() const { return m_file != nullptr && !m_failed; }
    void line(std::string_view text)
    {
        m_buffer.append(text);
        m_buffer.push_back('\n');
        if (m_buffer.size() >= (1 << 20))
            flush();
    }
    std::uint64_t close()
    {
        if (m_file) {
            flush();
            m_failed = std::fclose(m_file) != 0 || m_failed;
            m_file = nullptr;
        }
        return m_bytes;
    }

private:
    void flush()
    {
        if (m_file && !m_buffer.empty())
            m_failed = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size() || m_failed;
        m_bytes += m_buffer.size();
        m_buffer.clear();
    }
    std::FILE* m_file;
    std::string m_buffer;
    std::uint64_t m_bytes = 0;
    bool m_failed = false;
};

template <typename... Args> std::string format(const char* fmt, Args... args)
{
    char buffer[1024];
    const int n = std::snprintf(buffer, sizeof buffer, fmt, args...);
    return std::string(buffer, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof buffer) - 1)));
}

std::string hostName(int index, int nodes)
{
    const int width = std::max(2, static_cast<int>(std::to_string(nodes).size()));
    return format("node-%0*d", width, index + 1);
}

std::string kernelPrefix(KernelForm form, Ms t, Ms boot, const std::string& host)
{
    const std::tm tm = utc(t);
    switch (form) {
    case KernelForm::DmesgT:
        return format("[%s %s %2d %02d:%02d:%02d %d] ", Days[tm.tm_wday], Months[tm.tm_mon], tm.tm_mday, tm.tm_hour,
                      tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
    case KernelForm::Syslog:
        return format("%s %2d %02d:%02d:%02d %s kernel: [%6lld.%06lld] ", Months[tm.tm_mon], tm.tm_mday, tm.tm_hour,
                      tm.tm_min, tm.tm_sec, host.c_str(), static_cast<long long>((t - boot) / 1000),
                      static_cast<long long>((t - boot) % 1000 * 1000 + 417));
    case KernelForm::Journal:
        return format("%s.%03lld417+0000 %s kernel: ", isoSeconds(t).c_str(), static_cast<long long>(t % 1000),
                      host.c_str());
    }
    return {};
}

const char* kernelFile(KernelForm form)
{
    return form == KernelForm::DmesgT ? "dmesg.txt" : form == KernelForm::Syslog ? "kern.log" : "journal-kernel.log";
}

/// A node's kernel log: boot lines, GPU -> PCI lines, runtime noise until the job ends, plus the fault's lines.
std::uint64_t writeKernelLog(const Job& job, int node, const fs::path& dir)
{
    Rng r(job.options.seed, 1, static_cast<std::uint64_t>(node));
    const Ms boot = job.start - 1'800'000 - static_cast<Ms>(r.below(1'800'000));
    std::vector<TimedLine> lines = {
        {boot,
         "Linux version 6.8.0-60-generic (buildd@lcy02-amd64-098) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.3.0) "
         "13.3.0, GNU ld 2.42) #63-Ubuntu SMP PREEMPT_DYNAMIC Tue Apr 15 19:04:15 UTC 2025"},
        {boot, "Command line: BOOT_IMAGE=/vmlinuz-6.8.0-60-generic ro iommu=pt pci=realloc=off console=ttyS0,115200n8"},
        {boot + 10, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs"},
        {boot + 9400, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.158.01  Mon Jun  2 21:28:20 UTC 2025"},
        {boot + 10000, "nvidia-uvm: Loaded the UVM driver, major device number 506."},
    };
    for (int g = 0; g < job.options.gpusPerNode; ++g) {
        lines.push_back(
            {boot + 24000 + Ms{g} * 310,
             format("NVRM: GPU at PCI:%s: GPU-%08llx-c845-46a8-f995-%012llx", gpuPci(g).c_str(),
                    static_cast<unsigned long long>(r.next() >> 32), static_cast<unsigned long long>(r.next() >> 16))});
        lines.push_back({boot + 12600 + Ms{g} * 10,
                         format("mlx5_core 0000:%02x:00.0 enp%dnp0: Link up", 0x1a + g * 0x1d, 0x1a + g * 0x1d)});
    }
    for (Ms t = job.start + static_cast<Ms>(r.below(60'000)); t < job.end;
         t += 20'000 + static_cast<Ms>(r.below(70'000))) {
        switch (r.below(4)) {
        case 0:
            lines.push_back(
                {t,
                 format("mlx5_core 0000:%02x:00.0: mlx5_cmd_out_err:838:(pid %d): ACCESS_REG(0x805) "
                        "op_mod(0x1) failed, status bad parameter(0x3), syndrome (0x15c356), err(-22)",
                        0x1a + static_cast<int>(r.below(8)) * 0x1d, 3900 + static_cast<int>(r.below(500)))});
            break;
        case 1:
            lines.push_back({t,
                             "perf: interrupt took too long (2504 > 2500), lowering kernel.perf_event_max_sample_rate "
                             "to 79750"});
            break;
        case 2:
            lines.push_back({t,
                             format("audit: type=1400 audit(%lld.%03lld:%d): apparmor=\"DENIED\" operation=\"open\" "
                                    "profile=\"snap.lxd\" name=\"/proc/%d/mounts\" pid=%d comm=\"lxd\"",
                                    static_cast<long long>(t / 1000), static_cast<long long>(t % 1000),
                                    static_cast<int>(r.below(9000)), static_cast<int>(r.below(90000)),
                                    static_cast<int>(r.below(90000)))});
            break;
        default:
            lines.push_back({t,
                             "overlayfs: fs on '/raid/enroot/data/user-1000' does not support file handles, falling "
                             "back to xino=off."});
        }
    }
    for (auto& l : faultKernelLines(job, node))
        lines.push_back(std::move(l));
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    const auto form = static_cast<KernelForm>(node % 3);
    Out out(dir / kernelFile(form));
    for (const auto& l : lines)
        out.line(kernelPrefix(form, l.time, boot, job.hosts[node]) + l.text);
    return out.close();
}

void ncclInit(Out& out, const Job& job, int node, int gpu, Rng& r)
{
    const std::string who = format("%s:%d:%d [%d] NCCL INFO ", job.hosts[node].c_str(), job.pidOf(node, gpu),
                                   job.pidOf(node, gpu) + 171, gpu);
    const int rank = job.rankOf(node, gpu);
    const unsigned comm = 0x55000000u + static_cast<unsigned>(r.below(0xffffff));
    const int bus = std::stoi(gpuPci(gpu).substr(5, 2), nullptr, 16);
    out.line(who + "cudaDriverVersion 12080");
    out.line(who + format("Bootstrap : Using enp%dnp0:10.16.%d.%d<0>", 0x5f, node / 200 + 1, node % 200 + 10));
    out.line(who + "NET/Plugin: Using internal network plugin.");
    out.line(who + "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]mlx5_2:1/RoCE [3]mlx5_3:1/RoCE [RO]");
    const std::string init = format("ncclCommInitRank comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId %x000 "
                                    "commId 0x7f3a9c1e2b4d5e6f - Init ",
                                    comm, rank, job.ranks(), gpu, gpu, bus);
    out.line(who + init + "START");
    out.line(who + format("Setting affinity for GPU %d to ffffffff,ffffffff,ffffffff", gpu));
    for (int c = 0; c < 4; ++c)
        out.line(who +
                 format("Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read", c * 8 + gpu, rank, gpu,
                        job.rankOf(node, (gpu + 1) % job.options.gpusPerNode), (gpu + 1) % job.options.gpusPerNode));
    out.line(who + "Connected all rings");
    out.line(who + "Connected all trees");
    out.line(who + init + "COMPLETE");
}

/// One rank's log: start-up, NCCL init, training steps until the fault, then the fault's tail.
std::uint64_t writeRankLog(const Job& job, int node, int gpu, const fs::path& dir)
{
    Rng r(job.options.seed, 2, static_cast<std::uint64_t>(job.rankOf(node, gpu)));
    const int rank = job.rankOf(node, gpu);
    Out out(dir / format("rank-%04d.log", rank));
    Ms t = job.start + 4000 + static_cast<Ms>(r.below(400));
    out.line(format("[%s] INFO train.py:61 rank %d/%d local_rank %d on %s (pid %d) starting", pyStamp(t).c_str(), rank,
                    job.ranks(), gpu, job.hosts[node].c_str(), job.pidOf(node, gpu)));
    out.line(
        format("[%s] INFO train.py:97 init_process_group(backend='nccl', timeout=0:10:00)", pyStamp(t + 300).c_str()));
    ncclInit(out, job, node, gpu, r);
    out.line(format("[%s] INFO data.py:58 dataloader: 8 workers, prefetch_factor=4, shard %d/%d",
                    pyStamp(t + 9000).c_str(), rank, job.ranks()));
    Ms step = job.start + 40'000;  // every rank steps together; the jitter is each rank's own
    for (int n = 1; step < job.fault; ++n, step += 2000) {
        const Ms at = step + static_cast<Ms>(r.below(150));
        out.line(format("[%s] INFO train.py:312 step %d | loss %.4f | lr 3.00e-04 | grad_norm %.3f | tokens/s %d | "
                        "mem %.1f GiB",
                        pyStamp(at).c_str(), n, 2.0 + static_cast<double>(r.below(20000)) / 10000.0,
                        0.5 + static_cast<double>(r.below(900)) / 1000.0, 40000 + static_cast<int>(r.below(3000)),
                        60.0 + static_cast<double>(r.below(40)) / 10.0));
        if (n % 7 == 3)
            out.line(format("[%s] INFO data.py:141 worker %d opened /lustre/data/tok/shard-%05d.bin (1.%02d GiB)",
                            pyStamp(at + 30).c_str(), static_cast<int>(r.below(8)), static_cast<int>(r.below(99999)),
                            static_cast<int>(r.below(100))));
        if (n % 40 == 17)
            out.line(
                format("[%s] WARNING data.py:203 packed micro-batch %d of step %d: 32768 tokens (max_seq_len=32768)",
                       pyStamp(at + 60).c_str(), static_cast<int>(r.below(8)), n));
        if (n % 500 == 0)
            out.line(format("[%s] INFO checkpoint.py:97 saved shard %d/%d (4.20 GiB) in 18.4s",
                            pyStamp(at + 9000).c_str(), rank, job.ranks()));
    }
    for (const auto& l : faultRankTail(job, node, gpu))
        out.line(l);
    const std::uint64_t storm = stormShare(job, node, gpu);
    for (std::uint64_t i = 0; i < storm; ++i)
        out.line(connectionClosed(job, node, gpu, 40000 + static_cast<int>(i % 1000)));
    return out.close();
}

std::uint64_t writeSlurmOutput(const Job& job, const fs::path& dir)
{
    Out out(dir / ("slurm-" + job.jobId + ".out"));
    out.line(format("job %s (llm-pretrain) on %d nodes, %d GPUs", job.jobId.c_str(), job.options.nodes, job.ranks()));
    out.line(format("MASTER_ADDR=%s MASTER_PORT=29500 WORLD_SIZE=%d", job.hosts.front().c_str(), job.ranks()));
    out.line("NCCL_DEBUG=INFO NCCL_IB_GID_INDEX=3 TORCH_NCCL_ASYNC_ERROR_HANDLING=3");
    out.line("pyxis: importing docker image: registry.example.com#llm/train:2026.04");
    out.line("pyxis: imported docker image: registry.example.com#llm/train:2026.04");
    out.line(format("launching: torchrun --nnodes=%d --nproc-per-node=%d train.py --config configs/llm.yaml",
                    job.options.nodes, job.options.gpusPerNode));
    for (const auto& l : faultSlurmTail(job))
        out.line(l);
    return out.close();
}

std::uint64_t writeWorkload(const Job& job, const fs::path& dir)
{
    std::string text = "{\n  \"id\": \"" + job.jobId + "\",\n  \"scheduler\": \"slurm\",\n  \"attempt\": 0,\n" +
        "  \"platform\": \"" + faultPlatform(job.options.fault) + "\",\n  \"start\": \"" + isoZ(job.start) +
        "\",\n  \"end\": \"" + isoZ(job.end) + "\",\n  \"nodes\": [";
    for (std::size_t i = 0; i < job.hosts.size(); ++i)
        text += (i ? ", \"" : "\"") + job.hosts[i] + "\"";
    text += "]\n}\n";
    std::ofstream(dir / "workload.json", std::ios::binary) << text;
    return text.size();
}

Job makeJob(const Options& o)
{
    Job job;
    job.options = o;
    Rng r(o.seed, 0, 0);
    job.jobId = std::to_string(1'000'000 + r.below(9'000'000));
    for (int i = 0; i < o.nodes; ++i)
        job.hosts.push_back(hostName(i, o.nodes));
    job.start = JobStart;
    job.fault = job.start + 60'000LL * o.minutes + 40'000 + static_cast<Ms>(r.below(2000));
    job.end = job.fault + 605'000;
    job.culpritNode = static_cast<int>(r.below(static_cast<std::uint64_t>(o.nodes)));
    job.culpritGpu = static_cast<int>(r.below(static_cast<std::uint64_t>(o.gpusPerNode)));
    return job;
}

}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
    : m_state(seed * 0x9e3779b97f4a7c15ULL ^ (stream << 48) ^ index)
{
    next();
}

std::uint64_t Rng::next()
{
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::string pyStamp(Ms t)
{
    const std::tm tm = utc(t);
    return format("%04d-%02d-%02d %02d:%02d:%02d,%03lld", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec, static_cast<long long>(t % 1000));
}

std::string glogStamp(Ms t, char severity)
{
    const std::tm tm = utc(t);
    return format("%c%d%02d %02d:%02d:%02d.%03lld000000", severity, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                  tm.tm_sec, static_cast<long long>(t % 1000));
}

std::string isoSeconds(Ms t)
{
    const std::tm tm = utc(t);
    return format("%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                  tm.tm_sec);
}

std::string isoZ(Ms t)
{
    return isoSeconds(t) + "Z";
}

std::string gpuPci(int gpu)
{
    static constexpr const char* Buses[] = {"1b", "43", "52", "61", "9d", "c3", "d1", "df"};
    return gpu < 8 ? std::string("0000:") + Buses[gpu] + ":00" : format("0000:%02x:00", 0xe0 + gpu);
}

Planted generate(const Options& o, std::string& error)
{
    const Job job = makeJob(o);
    const fs::path root(o.out);
    std::error_code ec;
    if (fs::exists(root, ec) && !fs::is_empty(root, ec)) {
        error = o.out + ": exists and is not empty";
        return {};
    }
    Planted planted = expectedVerdict(job);
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    auto work = [&] {
        for (int node = next++; node < o.nodes && !failed; node = next++) {
            const fs::path dir = root / "nodes" / job.hosts[node];
            std::error_code made;
            fs::create_directories(dir, made);
            std::uint64_t b = writeKernelLog(job, node, dir);
            for (int g = 0; g < o.gpusPerNode; ++g)
                b += writeRankLog(job, node, g, dir);
            bytes += b;
            failed = failed || made || !fs::exists(dir / format("rank-%04d.log", job.rankOf(node, 0)));
        }
    };
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < std::max(1u, o.jobs); ++i)
        threads.emplace_back(work);
    work();
    for (auto& t : threads)
        t.join();
    if (failed) {
        error = o.out + ": cannot write the bundle";
        return {};
    }
    bytes += writeSlurmOutput(job, root) + writeWorkload(job, root);
    planted.bytes = bytes;
    planted.files = static_cast<std::uint64_t>(o.nodes) * static_cast<std::uint64_t>(o.gpusPerNode + 1) + 2;
    return planted;
}

}  // namespace attrib::cli::gen
