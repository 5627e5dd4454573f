// SPDX-License-Identifier: GPL-3.0-or-later
// Cases: stored analyses with the analyst's label. CaseStore is the interface every backend implements
// (SQLite here; a PostgreSQL backend for the Service uses the same schema steps, engine/store/schema.h).
#pragma once

#include "engine/model.h"
#include "engine/store/store_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attrib::store {

/// What the analyst decided the true cause was. Empty fields mean "not stated".
struct CaseLabel {
    std::string terminalState;  ///< from engine::TerminalStates
    std::string subDomain;      ///< from engine::SubDomains
    std::string node;
    std::string notes;
    std::string labeledBy;
    engine::TimeNs labeledAt = engine::NoTime;
};

/// One symptom as the analysis left it.
struct CaseSymptom {
    std::string symptomId;
    std::string name;
    std::string domain;
    std::string node;
    int gpu = -1;
    std::string status;
    std::string statusRule;
    std::string statusReason;
    engine::TimeNs firstSeen = engine::NoTime;
    engine::TimeNs lastSeen = engine::NoTime;
    std::uint32_t count = 0;
    bool interesting = false;
};

/// One evidence line kept with the case (shown when the bundle is gone).
struct CaseEvidence {
    std::uint64_t observationId = 0;
    std::string file;  ///< path relative to the bundle root
    std::uint64_t line = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::string node;
    engine::TimeNs time = engine::NoTime;
    std::string text;
};

/// The columns a case list shows (cheap to read for thousands of cases).
struct CaseSummary {
    std::int64_t id = 0;
    engine::TimeNs createdAt = engine::NoTime;
    std::string bundlePath;
    std::string bundleHash;
    std::string workloadId;
    engine::TimeNs jobStart = engine::NoTime;
    engine::TimeNs jobEnd = engine::NoTime;
    std::string terminalState;
    std::string subDomain;
    std::string rootNode;
    std::string rootSymptom;
    std::string engineVersion;
    std::string catalogVersion;
    std::string catalogHash;
    std::optional<CaseLabel> label;
};

/// A whole case: the summary plus everything needed to show it again without re-running the engine.
struct CaseRecord {
    CaseSummary summary;
    std::string scheduler = "none";
    int attempt = 0;
    std::string contextJson;   ///< ExecutionContext (case_record.h: contextToJson)
    std::string verdictJson;   ///< exactly `attrib analyze --json`
    std::string coverageJson;  ///< per collector and per file
    std::string traceJson;     ///< engine::traceToJson
    std::vector<CaseSymptom> symptoms;
    std::vector<CaseEvidence> evidence;
    /// The observations a Service attribution was computed from, as observations.jsonl text (one JSON object a
    /// line, a context line first); empty for cases analysed from a bundle. Read back with caseObservations().
    std::string observations;
    std::size_t observationCount = 0;
    /// The analysis' events and which symptom each belongs to (case_events.h: eventsToJson); "" for cases saved
    /// before schema step 4, which reopen with one stand-in event per symptom.
    std::string eventsJson;
    std::size_t eventCount = 0;
};

/// Which cases to list; newest first. `beforeId` pages backwards (pass the last id of the previous page).
struct CaseFilter {
    std::string terminalState;
    std::string subDomain;
    std::string node;  ///< root-cause node
    engine::TimeNs since = engine::NoTime;
    std::int64_t beforeId = 0;
    std::size_t limit = 0;  ///< 0 = all
    bool labeledOnly = false;
};

class CaseStore {
public:
    virtual ~CaseStore() = default;
    /// Writes a case in one transaction; returns its id. summary.id is ignored.
    virtual std::int64_t addCase(const CaseRecord& record) = 0;
    /// The case with its symptoms, evidence and label; nullopt when there is none.
    virtual std::optional<CaseRecord> getCase(std::int64_t id) = 0;
    virtual std::vector<CaseSummary> listCases(const CaseFilter& filter = {}) = 0;
    /// Sets (replaces) the label; throws StoreError(NotFound) for an unknown id, Invalid for a bad value.
    virtual void setLabel(std::int64_t id, const CaseLabel& label) = 0;
    virtual void removeLabel(std::int64_t id) = 0;
    virtual std::size_t caseCount() = 0;
    /// The observations kept with a case (CaseRecord::observations); nullopt when there is no such case,
    /// "" when the case kept none.
    virtual std::optional<std::string> caseObservations(std::int64_t id) = 0;
};

/// Checks a label against the closed vocabularies; returns a one-line problem or "".
std::string labelProblem(const CaseLabel& label);

}  // namespace attrib::store
