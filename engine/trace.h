// SPDX-License-Identifier: GPL-3.0-or-later
// The trace: an ordered record of every rule step, replayed by the debugger.
#pragma once

#include "engine/model.h"

#include <map>
#include <string>
#include <vector>

namespace attrib::engine {

/// How one step changed a symptom.
struct SymptomChange {
    enum class Kind { Added, Demoted, Promoted, Scrubbed, Updated };
    Kind kind = Kind::Added;
    std::string symptom;  ///< symptom id
    SymptomStatus from = SymptomStatus::Active;
    SymptomStatus to = SymptomStatus::Active;
    std::string reason;
};
const char* toString(SymptomChange::Kind kind);

/// One rule step: what it looked at, what it bound, what it changed.
struct TraceStep {
    std::uint32_t index = 0;
    std::string phase;   ///< scope, collect, extract, early, symptoms, scrub, merge, refine, priority, outcome
    std::string rule;    ///< rule id ("" for engine-internal steps)
    std::string action;  ///< what kind of step: match, burst, decode, emit, evaluate, demote, select, ...
    bool fired = true;   ///< false for recorded non-firing evaluations (why-not)
    std::string summary;
    std::string node;
    int gpu = -1;
    std::string link;
    TimeNs windowStart = NoTime;
    TimeNs windowEnd = NoTime;
    std::map<std::string, std::string> details;  ///< captures and condition values
    std::vector<std::uint64_t> events;           ///< events involved
    std::vector<SymptomChange> changes;
};

/// Receives steps as they happen. Rules (data or C++) report through this one API.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void record(TraceStep step) = 0;
};

/// The default sink: keeps every step in order and numbers them.
class Trace final : public TraceSink {
public:
    void record(TraceStep step) override;
    const std::vector<TraceStep>& steps() const { return m_steps; }
    std::vector<TraceStep> take() { return std::move(m_steps); }

private:
    std::vector<TraceStep> m_steps;
};

}  // namespace attrib::engine
