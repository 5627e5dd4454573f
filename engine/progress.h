// SPDX-License-Identifier: GPL-3.0-or-later
// How the engine talks outward while it works: progress by stage, and cancellation.
#pragma once

#include <atomic>
#include <cstdint>

namespace attrib::engine {

/// The stages that report progress; toString gives the text a front end may show.
enum class ProgressStage : std::uint8_t {
    ReadingFiles,  ///< importers: bytes of the bundle read and extracted
    Correlating,   ///< importers: the correlation phases started
    ClockSkew,     ///< engine: clock offsets estimated from anchor events (done/total: phase k of PhaseCount)
    EarlyRules,    ///< engine: early event rules (bursts, peers)
    Symptoms,      ///< engine: per-node symptoms built and scrubbed
    Refine,        ///< engine: job-wide merge and refinement
    Priority,      ///< engine: the platform priority table
    Outcome,       ///< engine: terminal state, sub-domain and root cause
    Leads,         ///< importers: no rule explains the failure; files read again for their first error lines
    Verdict,       ///< importers: the verdict is ready
    Replay,        ///< corpus impact: bundles replayed
    Regex,         ///< store: files searched by a regular expression
    Index,         ///< store: lines indexed
};
const char* toString(ProgressStage stage);
/// The engine's correlation phases report as ClockSkew..Outcome with done = 1..EnginePhaseCount.
inline constexpr std::uint64_t EnginePhaseCount = 6;

/// Receives progress: a stage plus done and total units (bytes, files or steps).
class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    virtual void progress(ProgressStage stage, std::uint64_t done, std::uint64_t total) = 0;
};

/// Set by a front end to stop an analysis; the engine polls it between lines and phases.
using CancelFlag = std::atomic<bool>;

}  // namespace attrib::engine
