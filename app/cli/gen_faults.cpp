// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib gen`: the planted failure. Each kind writes the lines its sample's cascade shows (the culprit's
// kernel or application lines, the other ranks' downstream NCCL errors or watchdog timeouts, the Slurm
// teardown), with the generated job's hosts, ranks, GPUs and times.
#include "app/cli/gen_bundle.h"

#include <array>
#include <cstdio>

namespace attrib::cli::gen {

namespace {

struct FaultInfo {
    Fault fault;
    std::string_view name;
    const char* terminalState;
    const char* subDomain;
    bool nodeCause;  ///< the verdict names the culprit node
    bool gpuCause;   ///< ... and its GPU
};

constexpr std::array<FaultInfo, 14> Faults = {{
    {Fault::None, "none", "unknown", "unknown", false, false},
    {Fault::NvlinkXid149, "nvlink-xid149", "hardware_failure", "nvlink", true, true},
    {Fault::GpuFallenOffBus, "gpu-fallen-off-bus", "hardware_failure", "gpu", true, true},
    {Fault::EccDbeRowRemap, "ecc-dbe-row-remap", "hardware_failure", "gpu_memory", true, true},
    {Fault::NvswitchSxid, "nvswitch-sxid-fabric", "hardware_failure", "nvswitch", true, false},
    {Fault::IbLinkFlap, "ib-link-flap", "infrastructure_failure", "network", true, false},
    {Fault::ThermalShutdown, "thermal-shutdown", "hardware_failure", "power_thermal", true, false},
    {Fault::CudaOom, "cuda-oom", "application_failure", "oom", true, false},
    {Fault::HostOomCgroup, "host-oom-cgroup", "application_failure", "oom", true, false},
    {Fault::UserCodeTraceback, "user-code-traceback", "application_failure", "application", true, false},
    {Fault::StorageFull, "storage-full", "infrastructure_failure", "storage", false, false},
    {Fault::Preemption, "preemption", "preempted", "scheduler", false, false},
    {Fault::TimeLimit, "time-limit", "timeout", "scheduler", false, false},
    {Fault::UserCancel, "user-cancel", "cancelled", "scheduler", false, false},
}};

const FaultInfo& info(Fault f)
{
    for (const auto& i : Faults)
        if (i.fault == f)
            return i;
    return Faults.front();
}

template <typename... Args> std::string format(const char* fmt, Args... args)
{
    char buffer[1024];
    const int n = std::snprintf(buffer, sizeof buffer, fmt, args...);
    return std::string(buffer, static_cast<std::size_t>(n < 0 ? 0 : std::min<int>(n, sizeof buffer - 1)));
}

bool isGpuHardware(Fault f)
{
    return f == Fault::NvlinkXid149 || f == Fault::GpuFallenOffBus || f == Fault::EccDbeRowRemap;
}

bool isHardware(Fault f)
{
    return isGpuHardware(f) || f == Fault::NvswitchSxid || f == Fault::IbLinkFlap || f == Fault::ThermalShutdown;
}

bool isScheduler(Fault f)
{
    return f == Fault::Preemption || f == Fault::TimeLimit || f == Fault::UserCancel;
}

std::string rankPrefix(int rank)
{
    return format("[rank%d]: ", rank);
}

std::vector<std::string> traceback(int rank, const char* call, const std::vector<std::string>& exception)
{
    const std::string p = rankPrefix(rank);
    std::vector<std::string> out = {
        p + "Traceback (most recent call last):", p + "  File \"/workspace/train.py\", line 431, in <module>",
        p + "    main()", p + "  File \"/workspace/train.py\", line 402, in main", p + "    " + call};
    for (const auto& e : exception)
        out.push_back(p + e);
    return out;
}

std::vector<std::string> cudaError(int rank, const char* what)
{
    return traceback(rank, "loss = train_step(model, batch, optim, step)",
                     {std::string("RuntimeError: CUDA error: ") + what,
                      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace "
                      "below might be incorrect.",
                      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1"});
}

std::vector<std::string> watchdog(const Job& job, int rank)
{
    const Ms t = job.fault + 600'000 + rank % 997;
    const std::string head = rankPrefix(rank).substr(0, rankPrefix(rank).size() - 1) + "[" + glogStamp(t, 'E');
    const std::string what = format("[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4211, "
                                    "OpType=ALLREDUCE, NumelIn=26214400, NumelOut=26214400, Timeout(ms)=600000) ran "
                                    "for %d milliseconds before timing out.",
                                    rank, 600'000 + rank % 997);
    return {head + " ProcessGroupNCCL.cpp:607] " + what,
            head +
                format(" ProcessGroupNCCL.cpp:1664] [PG 0 Rank %d] Exception (either an error or timeout) detected "
                       "by watchdog at work: 4211, last enqueued NCCL work: 4212, last completed NCCL work: 4210.",
                       rank),
            head +
                format(" ProcessGroupNCCL.cpp:627] [Rank %d] To avoid data inconsistency, we are taking the entire "
                       "process down.",
                       rank)};
}

}  // namespace

std::string connectionClosed(const Job& job, int node, int gpu, int port)
{
    return format("%s:%d:%d [%d] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer %s.cluster<%d>",
                  job.hosts[node].c_str(), job.pidOf(node, gpu), job.pidOf(node, gpu) + 131, gpu,
                  job.hosts[job.culpritNode].c_str(), port);
}

std::uint64_t stormShare(const Job& job, int node, int gpu)
{
    const std::uint64_t storm = job.options.stormLines;
    const int rank = job.rankOf(node, gpu);
    const int culprit = job.rankOf(job.culpritNode, job.culpritGpu);
    const auto others = static_cast<std::uint64_t>(job.ranks() - 1);
    if (storm == 0 || others == 0 || rank == culprit)
        return 0;
    const auto index = static_cast<std::uint64_t>(rank < culprit ? rank : rank - 1);
    return storm / others + (index < storm % others ? 1 : 0);
}

namespace {

/// A rank that lost its peer: the NCCL socket error, then the DistBackendError it raises.
std::vector<std::string> peerGone(const Job& job, int node, int gpu)
{
    const int rank = job.rankOf(node, gpu);
    std::vector<std::string> out;
    if (gpu == job.culpritGpu)
        out.push_back(connectionClosed(job, node, gpu, 40000 + rank % 200));
    for (auto& l : traceback(rank, "dist.all_reduce(grads, group=dp_group)",
                             {"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
                              "ProcessGroupNCCL.cpp:1970, remote process exited or there was a network error, NCCL "
                              "version 2.21.5",
                              "ncclRemoteError: A call failed possibly due to a network error or a remote process "
                              "exiting prematurely."}))
        out.push_back(std::move(l));
    return out;
}

std::vector<std::string> culpritApplication(const Job& job, int rank)
{
    switch (job.options.fault) {
    case Fault::NvlinkXid149: return cudaError(rank, "uncorrectable NVLink error detected during the execution");
    case Fault::EccDbeRowRemap: return cudaError(rank, "uncorrectable ECC error encountered");
    case Fault::CudaOom:
        return traceback(rank, "loss = pipeline.step(batch)",
                         {format("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU %d has a "
                                 "total capacity of 79.10 GiB of which 2.55 GiB is free. Including non-PyTorch memory, "
                                 "this process has 76.54 GiB memory in use.",
                                 job.culpritGpu)});
    case Fault::UserCodeTraceback:
        return traceback(rank, "batch = next(data_iter)",
                         {"IndexError: Caught IndexError in DataLoader worker process 3.",
                          "Original Traceback (most recent call last):",
                          "  File \"/workspace/data/packing.py\", line 88, in collate",
                          "    labels[i, pos:pos + n] = doc_labels[:n]",
                          "IndexError: index 4096 is out of bounds for dimension 0 with size 4096"});
    default: return {};
    }
}

std::string taskList(int first, int last)
{
    return first == last ? format("task %d", first) : format("tasks %d-%d", first, last);
}

}  // namespace

std::optional<Fault> faultFromName(std::string_view name)
{
    for (const auto& i : Faults)
        if (i.name == name)
            return i.fault;
    return std::nullopt;
}

std::string_view faultName(Fault fault)
{
    return info(fault).name;
}

std::vector<Fault> allFaults()
{
    std::vector<Fault> out;
    out.reserve(std::size(Faults));
    for (const auto& i : Faults)
        out.push_back(i.fault);
    return out;
}

std::string faultPlatform(Fault fault)
{
    return fault == Fault::NvlinkXid149 ? "b200" : "h100";
}

Planted expectedVerdict(const Job& job)
{
    const FaultInfo& i = info(job.options.fault);
    Planted p;
    p.terminalState = i.terminalState;
    p.subDomain = i.subDomain;
    if (i.nodeCause)
        p.node = job.hosts[job.culpritNode];
    if (i.gpuCause)
        p.gpu = job.culpritGpu;
    return p;
}

std::vector<TimedLine> faultKernelLines(const Job& job, int node)
{
    if (node != job.culpritNode)
        return {};
    const Ms t = job.fault;
    const std::string pci = gpuPci(job.culpritGpu);
    const int pid = job.pidOf(node, job.culpritGpu);
    switch (job.options.fault) {
    case Fault::NvlinkXid149:
        return {{t,
                 "NVRM: Xid (PCI:" + pci +
                     "): 149, NETIR_LINK_EVT  Fatal   XC0 i0 Link 07 (0x02b425c6 0x00000000 "
                     "0x00000000 0x00000000 0x00000000 0x00000000)"},
                {t + 283, format("NVRM: Xid (PCI:%s): 45, pid=%d, name=python3, Ch 00000010", pci.c_str(), pid)},
                {t + 404,
                 "NVRM: Xid (PCI:" + pci +
                     "): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU "
                     "Reset Required)"}};
    case Fault::GpuFallenOffBus:
        return {{t, "NVRM: Xid (PCI:" + pci + "): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."},
                {t, "NVRM: GPU " + pci + ".0: GPU has fallen off the bus."}};
    case Fault::EccDbeRowRemap:
        return {{t,
                 "NVRM: Xid (PCI:" + pci +
                     "): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error "
                     "(DBE) has been detected on GPU in the framebuffer at physAddr 0x1f6a3c40 "
                     "partition 11, subpartition 2"},
                {t + 20,
                 "NVRM: Xid (PCI:" + pci +
                     "): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row "
                     "(0x000000001f6a3c40) marked for remapping, reset gpu to activate."},
                {t + 40,
                 "NVRM: Xid (PCI:" + pci +
                     "): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: "
                     "No, D-RST: No"}};
    case Fault::NvswitchSxid:
        return {{t, "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Fatal, Link 30 LTSSM Fault Up"},
                {t,
                 "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Severity 1 Engine instance 30 Sub-engine "
                 "instance 00"}};
    case Fault::IbLinkFlap: {
        const int bus = 0x1a + job.culpritGpu * 0x1d;
        return {{t, format("mlx5_core 0000:%02x:00.0 enp%dnp0: Link down", bus, bus)},
                {t + 10'000, format("mlx5_core 0000:%02x:00.0 enp%dnp0: Link up", bus, bus)}};
    }
    case Fault::ThermalShutdown:
        return {{t - 60'000, "CPU71: Package temperature above threshold, cpu clock throttled (total events = 30)"},
                {t, "thermal thermal_zone0: acpitz: critical temperature reached, shutting down"},
                {t, "reboot: HARDWARE PROTECTION shutdown (Temperature too high)"}};
    case Fault::HostOomCgroup:
        return {{t,
                 format("oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,oom_memcg=/"
                        "slurm/uid_1000/job_%s,task_memcg=/slurm/uid_1000/job_%s/step_0/task_%d,task=python3,pid=%d,"
                        "uid=1000",
                        job.jobId.c_str(), job.jobId.c_str(), job.culpritGpu, pid)},
                {t,
                 format("Memory cgroup out of memory: Killed process %d (python3) total-vm:133122212kB, "
                        "anon-rss:97520884kB, file-rss:212044kB, shmem-rss:8388608kB, UID:1000 pgtables:191212kB "
                        "oom_score_adj:0",
                        pid)}};
    default: return {};
    }
}

std::vector<std::string> faultRankTail(const Job& job, int node, int gpu)
{
    const Fault f = job.options.fault;
    const int rank = job.rankOf(node, gpu);
    const bool culprit = node == job.culpritNode && gpu == job.culpritGpu;
    if (f == Fault::None)
        return {};
    const std::string sigterm =
        "[" + pyStamp(job.fault + 800 + gpu) + "] WARNING train.py:47 received SIGTERM, exiting";
    if (isScheduler(f))
        return {sigterm};
    if (f == Fault::StorageFull) {
        if (gpu == 0 && node < 3)
            return traceback(
                rank, "save_checkpoint(model, optim, step)",
                {format("OSError: [Errno 28] No space left on device: '/lustre/llm/run42/ckpt/step_0006000/"
                        "optim_%d.bin'",
                        rank)});
        return peerGone(job, node, gpu);
    }
    if (culprit)
        return culpritApplication(job, rank);
    if (node == job.culpritNode)
        return f == Fault::ThermalShutdown ? std::vector<std::string>{} : std::vector<std::string>{sigterm};
    if (!isHardware(f))
        return peerGone(job, node, gpu);
    auto out = watchdog(job, rank);
    if (f == Fault::IbLinkFlap && gpu == job.culpritGpu && node % 4 == (job.culpritNode + 1) % 4)
        out.insert(out.begin(),
                   format("%s:%d:%d [%d] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from "
                          "peer 10.16.%d.%d<40147> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
                          job.hosts[node].c_str(), job.pidOf(node, gpu), job.pidOf(node, gpu) + 156, gpu,
                          job.culpritNode / 200 + 1, job.culpritNode % 200 + 10));
    return out;
}

std::vector<std::string> faultSlurmTail(const Job& job)
{
    const Fault f = job.options.fault;
    const std::string& first = job.hosts.front();
    const std::string at = isoSeconds(job.end);
    const int g = job.options.gpusPerNode;
    if (f == Fault::None)
        return {};
    if (isScheduler(f)) {
        const char* why = f == Fault::Preemption ? " DUE TO PREEMPTION"
            : f == Fault::TimeLimit              ? " DUE TO TIME LIMIT"
                                                 : "";
        return {format("slurmstepd: error: *** JOB %s ON %s CANCELLED AT %s%s ***", job.jobId.c_str(), first.c_str(),
                       at.c_str(), why),
                format("slurmstepd: error: *** STEP %s.0 ON %s CANCELLED AT %s%s ***", job.jobId.c_str(), first.c_str(),
                       at.c_str(), why),
                "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                "srun: forcing job termination"};
    }
    std::vector<std::string> out;
    const std::string& culprit = job.hosts[job.culpritNode];
    const int rank = job.rankOf(job.culpritNode, job.culpritGpu);
    if (f == Fault::ThermalShutdown) {
        out.push_back("srun: error: Node failure on " + culprit);
        out.push_back(
            format("slurmstepd: error: *** JOB %s ON %s CANCELLED AT %s DUE TO NODE FAILURE, SEE SLURMCTLD LOG "
                   "FOR DETAILS ***",
                   job.jobId.c_str(), first.c_str(), at.c_str()));
    } else if (f == Fault::HostOomCgroup) {
        out.push_back(format("slurmstepd-%s: error: Detected 1 oom_kill event in StepId=%s.0. Some of the step tasks "
                             "have been OOM Killed.",
                             culprit.c_str(), job.jobId.c_str()));
        out.push_back(format("srun: error: %s: task %d: Out Of Memory", culprit.c_str(), rank));
    } else {
        out.push_back(format("srun: error: %s: task %d: Exited with exit code 1", culprit.c_str(), rank));
    }
    if (f != Fault::ThermalShutdown)
        out.push_back(format("slurmstepd: error: *** STEP %s.0 ON %s CANCELLED AT %s DUE TO TASK FAILURE ***",
                             job.jobId.c_str(), first.c_str(), at.c_str()));
    for (int n = 0; n < job.options.nodes; ++n)
        if (n != job.culpritNode)
            out.push_back(format("srun: error: %s: %s: Exited with exit code 1", job.hosts[n].c_str(),
                                 taskList(n * g, n * g + g - 1).c_str()));
    return out;
}

}  // namespace attrib::cli::gen
