// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's data model (BRIEF §3): context, observations, events, symptoms, coverage.
#pragma once

#include "engine/attr_map.h"
#include "engine/compact_fields.h"
#include "engine/name.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attrib::engine {

/// Nanoseconds since the Unix epoch, UTC. `NoTime` marks "unknown".
using TimeNs = std::int64_t;
inline constexpr TimeNs NoTime = INT64_MIN;
inline constexpr TimeNs NsPerMs = 1'000'000;
inline constexpr TimeNs NsPerSec = 1'000'000'000;

/// How an observation's timestamp was derived; lower confidence further down the list.
enum class TimeSource : std::uint8_t { Absolute, YearInferred, BootRelative, Inherited, None };

/// The kind of collector (file format family) an observation came from.
enum class SourceKind : std::uint8_t {
    Kernel,         ///< dmesg (raw / -T), kern.log, journal kernel lines
    Syslog,         ///< syslog lines from daemons (RFC 3164 / 5424 / ISO)
    App,            ///< per-rank application logs (NCCL, PyTorch, torchrun, Python)
    FabricManager,  ///< nvidia-fabricmanager log
    Slurm,          ///< job stdout/stderr with srun/slurmstepd lines, slurm daemon logs
    Accounting,     ///< sacct / scontrol / Kubernetes events / Kueue workloads
    Metrics,        ///< DCGM / Prometheus metric samples
    Inventory,      ///< nvidia-smi listings, bug reports: topology and identity facts
    Text,           ///< readable text of no recognised format: read as plain lines, every extractor applies
    Unknown
};
inline constexpr int SourceKindCount = static_cast<int>(SourceKind::Unknown) + 1;

const char* toString(SourceKind kind);
std::optional<SourceKind> sourceKindFromString(const std::string& name);
const char* toString(TimeSource source);

/// Where a line came from: a bundle file and a position in it. Evidence text is re-read by offset.
struct SourceRef {
    std::uint32_t file = 0;    ///< index into Bundle::files
    std::uint32_t length = 0;  ///< bytes of the (possibly joined) record
    /// 1-based line that says what the observation's text says: a joined Python traceback's exception line, which
    /// is below the record's first line (`Traceback (most recent call last):`, where `offset` points).
    std::uint64_t line = 0;
    std::uint64_t offset = 0;  ///< byte offset of the record's first line
};

/// One normalized piece of evidence: a log record or a metric sample.
struct Observation {
    std::uint64_t id = 0;
    SourceRef source;
    TimeNs time = NoTime;
    /// Earlier lines just like this one (same matches, node, rank, GPU) counted but not kept: a storm's repeats
    /// fold into one observation that shows the latest line (importers/line_folds.h). It stands for 1 + folded lines.
    std::uint64_t folded = 0;
    Name node;
    std::string text;  ///< message body after prefixes (kept only for matched lines)
    int rank = -1;
    int gpu = -1;  ///< local device index when the line names one (NCCL `[n]`)
    SourceKind kind = SourceKind::Unknown;
    TimeSource timeSource = TimeSource::None;
    SampleBox sample;  ///< a metric sample's metric, value and labels (a log line has none)
};

/// A significant fact extracted from observations by a rule.
struct Event {
    std::uint64_t id = 0;
    Name type;     ///< e.g. "xid", "nccl_warn", "watchdog_timeout"
    Name rule;     ///< id of the rule that emitted it
    Name symptom;  ///< registered symptom this event raises ("" = context only)
    Name node;
    Name link;
    TimeNs time = NoTime;
    int gpu = -1;
    int rank = -1;
    TimeSource timeSource = TimeSource::None;
    bool sympathetic = false;  ///< a follow-up of another fault (Xid 45, 154, ...)
    AttrMap attrs;             ///< decoded fields, sorted for determinism
    ObservationIds observations;
    std::uint64_t folded = 0;  ///< repeats of its line folded into it: the event stands for 1 + folded events
};

/// Makes `e` the job's rather than one place's (a job cancel, a launch fault, a fact the nodes disagree on with
/// no majority): no node, GPU or rank, and none to be inferred later (`job_wide`).
void makeJobWide(Event& e);

enum class SymptomStatus { Active, Demoted, Scrubbed };
const char* toString(SymptomStatus status);

/// A named condition on one node (or GPU) derived from events.
struct Symptom {
    std::string id;  ///< "name@node" or "name@node/gpuN"; stable across runs
    std::string name;
    std::string domain;
    int priority = 0;
    std::string node;
    int gpu = -1;
    int rank = -1;
    std::string link;
    TimeNs firstSeen = NoTime;
    TimeNs lastSeen = NoTime;
    TimeNs origin = NoTime;                    ///< estimated start of the fault (first_seen minus timeouts)
    TimeSource timeSource = TimeSource::None;  ///< least certain source among its events
    std::uint32_t count = 0;
    SymptomStatus status = SymptomStatus::Active;
    std::string statusRule;
    std::string statusReason;
    std::string causedBy;  ///< symptom id that explains this one (demotion / scrub source)
    bool interesting = false;
    bool sympathetic = false;
    AttrMap attrs;
    std::vector<std::uint64_t> events;
    std::vector<std::uint64_t> evidence;  ///< observation ids, in time order
    /// The bundle file of its first evidence line ("" = unknown) and that line's observation id: observation ids
    /// follow file then line order, so two untimed symptoms whose first lines share a file are in line order.
    std::string firstFile;
    std::uint64_t firstObservation = 0;
};

enum class CoverageStatus { Ok, Partial, Errored, Missing, Skipped };
const char* toString(CoverageStatus status);

/// What a bundle file is to the analysis; set by the importers, read by coverage summaries and views.
enum class FileRole {
    Evidence,  ///< a log, record or metric file read (or tried) as evidence; `status` says how that went
    Metadata,  ///< a sample's expected verdict, lesson or source note: listed, neither evidence nor skipped
    Workload   ///< workload.json: the job description, read into the execution context, not into events
};
inline constexpr int FileRoleCount = static_cast<int>(FileRole::Workload) + 1;
const char* toString(FileRole role);

/// One bundle file as read: what it was sniffed as, what was read, what went wrong.
struct FileCoverage {
    std::string path;  ///< path relative to the bundle root
    SourceKind kind = SourceKind::Unknown;
    FileRole role = FileRole::Evidence;
    std::string format;  ///< display name of the finer format, e.g. "dmesg-T", "rfc3164"; never compared
    std::string node;
    std::uint64_t lines = 0;
    std::uint64_t skipped = 0;  ///< lines that could not be used (no parse, binary, ...)
    TimeNs first = NoTime;
    TimeNs last = NoTime;
    CoverageStatus status = CoverageStatus::Ok;
    std::vector<std::string> errors;  ///< "file:line: reason"
};

/// Per collector kind: which files, nodes and time span it covered.
struct CollectorCoverage {
    SourceKind kind = SourceKind::Unknown;
    std::vector<std::string> files;
    std::vector<std::string> nodes;
    TimeNs first = NoTime;
    TimeNs last = NoTime;
    std::uint64_t lines = 0;
    std::uint64_t skipped = 0;
    CoverageStatus status = CoverageStatus::Ok;
    std::vector<std::string> errors;
};

/// Per-node clock offset estimated from anchor events (added to that node's times).
struct ClockOffset {
    std::string node;
    TimeNs offset = 0;
    TimeNs uncertainty = 0;
    std::string anchor;
    bool applied = false;  ///< false when within the anchors' jitter
};

/// Where one bundle file's observations start: observation ids follow file then line order, so the observations
/// of one file are one run of ids.
struct FileRun {
    std::uint64_t firstObservation = 0;
    std::string path;
};

/// The scope of one workload attempt.
struct ExecutionContext {
    std::string workloadId;
    std::string scheduler = "none";  ///< slurm | kueue | none
    int attempt = 0;
    std::string platform;  ///< gb200 | h100 | a100 | "" (unknown)
    TimeNs start = NoTime;
    TimeNs end = NoTime;
    std::vector<std::string> nodes;
    std::map<int, std::pair<std::string, int>> rankMap;  ///< rank -> (node, local gpu)
    /// node -> PCI address ("0009:01:00") -> GPU index, learned from evidence
    std::map<std::string, std::map<std::string, int>> pciToGpu;
    std::string source;  ///< where the context came from (workload.json, inferred, ...)
    /// node -> source kinds that delivered evidence for it (to name missing evidence)
    std::map<std::string, std::vector<std::string>> collected;
    /// node -> uncertainty of its corrected clock (widens tie windows)
    std::map<std::string, TimeNs> clockUncertainty;
    /// The files of the matched observations, by first observation id: places untimed symptoms in line order
    std::vector<FileRun> fileRuns;
};

}  // namespace attrib::engine
