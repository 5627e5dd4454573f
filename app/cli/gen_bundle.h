// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib gen`: a deterministic synthetic evidence bundle (the samples' layout: workload.json, a Slurm job
// output, nodes/<host>/ kernel log and per-rank logs) with one planted fault. Same options, same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::cli::gen {

/// The fault kinds, named after the samples they imitate.
enum class Fault {
    None,
    NvlinkXid149,
    GpuFallenOffBus,
    EccDbeRowRemap,
    NvswitchSxid,
    IbLinkFlap,
    ThermalShutdown,
    CudaOom,
    HostOomCgroup,
    UserCodeTraceback,
    StorageFull,
    Preemption,
    TimeLimit,
    UserCancel,
};

std::optional<Fault> faultFromName(std::string_view name);
std::string_view faultName(Fault fault);
std::vector<Fault> allFaults();

struct Options {
    int nodes = 4;
    int gpusPerNode = 8;
    int minutes = 10;  ///< minutes of training before the fault
    Fault fault = Fault::NvlinkXid149;
    std::uint64_t seed = 1;
    std::string out;
    unsigned jobs = 1;  ///< nodes written at once
    /// A log storm: this many extra matching NCCL lines (a peer's connection closed, again and again), spread
    /// over every rank but the culprit's, after the fault. 0: none.
    std::uint64_t stormLines = 0;
};

/// What was planted: the verdict a correct analysis gives. `node` empty: the cause is job-wide.
struct Planted {
    std::string node;
    int gpu = -1;
    std::string terminalState;
    std::string subDomain;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
};

/// Writes the bundle into `options.out` (created; must not exist or be empty). Sets `error` on failure.
Planted generate(const Options& options, std::string& error);

// ---- internals shared by gen_bundle.cpp and gen_faults.cpp

/// Deterministic 64-bit generator (splitmix64): the same stream on every platform and library.
class Rng {
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed)
    {
    }
    Rng(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);
    std::uint64_t next();
    /// Uniform in [0, n) (n > 0).
    std::uint64_t below(std::uint64_t n) { return next() % n; }

private:
    std::uint64_t m_state;
};

/// Milliseconds since the epoch, UTC.
using Ms = std::int64_t;

/// The job everything is generated from.
struct Job {
    Options options;
    std::string jobId;
    std::vector<std::string> hosts;
    Ms start = 0;  ///< job start
    Ms fault = 0;  ///< the planted fault (training steps stop here)
    Ms end = 0;    ///< the step is cancelled
    int culpritNode = 0;
    int culpritGpu = 0;
    int ranks() const { return options.nodes * options.gpusPerNode; }
    int rankOf(int node, int gpu) const { return node * options.gpusPerNode + gpu; }
    int pidOf(int node, int gpu) const { return 40000 + (node * 7919) % 20000 + gpu; }
};

/// One generated line with its time (for files whose lines are sorted by time).
struct TimedLine {
    Ms time;
    std::string text;
};

/// Time stamps in the forms the generated files use.
std::string pyStamp(Ms t);            ///< `2026-05-04 10:00:04,335`
std::string glogStamp(Ms t, char s);  ///< `E504 10:10:19.834000000`
std::string isoSeconds(Ms t);         ///< `2026-05-04T10:00:04`
std::string isoZ(Ms t);               ///< `2026-05-04T10:00:04Z`
std::string gpuPci(int gpu);          ///< `0000:61:00`

/// Lines the fault adds: to a node's kernel log, to the end of a rank's log, to the Slurm output.
std::vector<TimedLine> faultKernelLines(const Job& job, int node);
std::vector<std::string> faultRankTail(const Job& job, int node, int gpu);
std::vector<std::string> faultSlurmTail(const Job& job);
/// A storm line: `host:pid:tid [gpu] ... NCCL WARN Net : Connection closed by remote peer <culprit><port>`.
std::string connectionClosed(const Job& job, int node, int gpu, int port);
/// How many of the storm's lines a rank's log gets.
std::uint64_t stormShare(const Job& job, int node, int gpu);
/// The platform the fault's sample uses (priority tables differ by platform).
std::string faultPlatform(Fault fault);
/// The verdict the planted fault should get.
Planted expectedVerdict(const Job& job);

}  // namespace attrib::cli::gen
