// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: scheduler history as records (sacct rows, Kubernetes events, Kueue workload conditions). Each
// becomes one line of text that scheduler_history extractors match, plus labels the analyzer uses to fill the
// ExecutionContext when workload.json is absent:
//   context.scheduler, context.job, context.start, context.end (ISO), context.nodes (comma list).
#pragma once

#include "importers/json_spans.h"
#include "importers/records.h"

#include <string>
#include <vector>

namespace attrib::importers::detail {

/// One sacct row, from --parsable2 columns or --json fields.
struct SacctRow {
    std::string jobId, name, state, exitCode, derivedExitCode, nodeList, start, end, elapsed, timeLimit, reason;
    TimeNs startTime = engine::NoTime;
    TimeNs endTime = engine::NoTime;
};

/// `sacct job 5 state=TIMEOUT exit=0:0 ... name=timeout` (or `sacct step 5.batch ...`) with context labels.
void sacctRecord(const SacctRow& row, Record& out);

/// Expands a Slurm hostlist: `gpu[01-03,07],login1` -> gpu01 gpu02 gpu03 gpu07 login1 (at most `cap` names).
std::vector<std::string> expandHostlist(std::string_view list, std::size_t cap = 4096);

/// sacct / Slurm time: ISO without zone (taken as UTC), "Unknown"/"None" -> NoTime.
TimeNs slurmTime(std::string_view s);

/// Records of one element of a Kubernetes events list / Kueue workload list (already parsed), with the
/// element's span for source positions. Returns false when the sink stopped.
bool kubeEventRecords(const nlohmann::json& event, const Record& base, const RecordSink& sink, ReaderStats& stats);
bool kueueWorkloadRecords(const nlohmann::json& workload, std::string_view text, std::size_t begin, std::size_t end,
                          const LineIndex& lines, const RecordSink& sink, ReaderStats& stats);

/// Records of one sacct --json job (the job row, then its steps).
bool sacctJsonRecords(const nlohmann::json& job, std::string_view text, std::size_t begin, std::size_t end,
                      const LineIndex& lines, const RecordSink& sink, ReaderStats& stats);

}  // namespace attrib::importers::detail
