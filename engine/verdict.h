// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict (BRIEF §6) and the full analysis result that front ends display.
#pragma once

#include "engine/model.h"
#include "engine/trace.h"

#include <memory>
#include <string>
#include <vector>

namespace attrib::engine {

/// Closed vocabularies read by downstream tools instead of logs.
extern const std::vector<std::string> TerminalStates;
extern const std::vector<std::string> SubDomains;

struct RootCause {
    std::string symptomId;
    std::string symptom;
    std::string node;
    int gpu = -1;
    int rank = -1;
    std::string link;
    TimeNs time = NoTime;
    std::string summary;
    std::string rule;                       ///< rule that chose it
    std::uint64_t decisiveObservation = 0;  ///< 0 = none
};

/// A competing explanation when the verdict is ambiguous.
struct Candidate {
    std::string symptomId;
    std::string symptom;
    std::string node;
    int gpu = -1;
    TimeNs time = NoTime;
    std::string terminalState;
    std::string subDomain;
    std::string summary;
    std::string separatedBy;  ///< what evidence would tell the candidates apart
};

struct RecommendedAction {
    std::string action;
    std::string target;
    std::string why;
};

struct EngineInfo {
    std::string version;
    std::string catalogVersion;
    std::string catalogHash;
};

/// A line worth reading first when no rule explained the failure: an early error-level line of one file.
struct Lead {
    std::string file;  ///< path relative to the bundle root
    std::uint64_t line = 0;
    std::string text;
};

struct Verdict {
    std::string terminalState = "unknown";
    std::string subDomain = "unknown";
    std::optional<RootCause> rootCause;
    std::vector<Candidate> candidates;
    std::vector<std::string> affectedNodes;
    RecommendedAction action;
    std::string explanation;  ///< one paragraph for humans
    std::vector<Lead> leads;  ///< only when the verdict is unknown: the earliest error-level lines per file
};

/// The candidates are the readings of the root cause's one finding (a symptom whose terminal state is `ambiguous`:
/// the same lines read as a fault or as a design), not rival symptoms or nodes.
bool candidatesAreReadings(const Verdict& v);

/// A bundle file as the engine knows it (path relative to the bundle root).
struct BundleFile {
    std::string path;
    std::string absolutePath;   ///< where to re-read evidence (empty inside archives)
    std::string archiveMember;  ///< member name when the file lives inside an archive
    std::uint64_t size = 0;
};

/// Everything one analysis produced: an immutable snapshot shared with views.
struct AnalysisResult {
    std::string bundlePath;
    ExecutionContext context;
    std::vector<BundleFile> files;
    std::vector<Observation> observations;  ///< matched observations only, sorted by id
    std::vector<Event> events;
    std::vector<Symptom> symptoms;  ///< final job-wide set, sorted by id
    std::vector<FileCoverage> fileCoverage;
    std::vector<CollectorCoverage> coverage;
    std::vector<ClockOffset> clockOffsets;
    std::vector<TraceStep> trace;
    Verdict verdict;
    EngineInfo engine;
    std::vector<std::string> diagnostics;  ///< catalog problems seen while loading

    const Observation* observation(std::uint64_t id) const;
    const Symptom* symptom(const std::string& id) const;
    /// How the time of the symptom with this id is known (a root cause or candidate carries the symptom's time, and a
    /// boot-relative time must not print as a 1970 date); Absolute when there is no such symptom.
    TimeSource timeSourceOf(const std::string& symptomId) const;
    const Event* event(std::uint64_t id) const;
    /// The evidence lines of a symptom, the folded repeats of its observations included (>= evidence.size()).
    std::uint64_t evidenceLines(const Symptom& symptom) const;
};

/// The engine's version string.
const char* engineVersion();

using AnalysisSnapshot = std::shared_ptr<const AnalysisResult>;

}  // namespace attrib::engine
