// SPDX-License-Identifier: GPL-3.0-or-later
// Closed vocabularies and lookups over an analysis result.
#include "engine/verdict.h"

#include <algorithm>

namespace attrib::engine {

const std::vector<std::string> TerminalStates = {"completed",
                                                 "hardware_failure",
                                                 "infrastructure_failure",
                                                 "application_failure",
                                                 "user_error",
                                                 "timeout",
                                                 "cancelled",
                                                 "preempted",
                                                 "ambiguous",
                                                 "unknown"};

const std::vector<std::string> SubDomains = {
    "gpu",       "gpu_memory",    "nvlink",      "nvswitch", "network",       "host",         "storage", "scheduler",
    "container", "power_thermal", "application", "oom",      "configuration", "comm_library", "unknown"};

const char* engineVersion()
{
    return ATTRIB_VERSION;
}

bool candidatesAreReadings(const Verdict& v)
{
    return v.rootCause && !v.candidates.empty() &&
        std::all_of(v.candidates.begin(), v.candidates.end(),
                    [&](const Candidate& c) { return c.symptomId == v.rootCause->symptomId; });
}

const Observation* AnalysisResult::observation(std::uint64_t id) const
{
    auto it = std::lower_bound(observations.begin(), observations.end(), id,
                               [](const Observation& o, std::uint64_t v) { return o.id < v; });
    return it != observations.end() && it->id == id ? &*it : nullptr;
}

std::uint64_t AnalysisResult::evidenceLines(const Symptom& symptom) const
{
    std::uint64_t lines = 0;
    for (const std::uint64_t id : symptom.evidence) {
        const Observation* o = observation(id);
        lines += 1 + (o ? o->folded : 0);
    }
    return lines;
}

const Symptom* AnalysisResult::symptom(const std::string& id) const
{
    auto it = std::lower_bound(symptoms.begin(), symptoms.end(), id,
                               [](const Symptom& s, const std::string& v) { return s.id < v; });
    return it != symptoms.end() && it->id == id ? &*it : nullptr;
}

TimeSource AnalysisResult::timeSourceOf(const std::string& symptomId) const
{
    const Symptom* s = symptom(symptomId);
    return s ? s->timeSource : TimeSource::Absolute;
}

const Event* AnalysisResult::event(std::uint64_t id) const
{
    auto it =
        std::lower_bound(events.begin(), events.end(), id, [](const Event& e, std::uint64_t v) { return e.id < v; });
    return it != events.end() && it->id == id ? &*it : nullptr;
}

}  // namespace attrib::engine
