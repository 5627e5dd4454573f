// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/analysis_data.h"

#include "engine/catalog.h"

#include <algorithm>

namespace attrib::views {

using namespace attrib::engine;

EvidenceRole roleOf(const Symptom& symptom, bool rootCause)
{
    if (rootCause)
        return EvidenceRole::RootCause;
    switch (symptom.status) {
    case SymptomStatus::Active: return EvidenceRole::Active;
    case SymptomStatus::Demoted: return symptom.interesting ? EvidenceRole::Interesting : EvidenceRole::Demoted;
    case SymptomStatus::Scrubbed: return EvidenceRole::Scrubbed;
    }
    return EvidenceRole::Context;
}

namespace {

void raise(EvidenceRole& target, EvidenceRole role)
{
    target = std::max(target, role);
}

void indexSymptoms(AnalysisData& d)
{
    const AnalysisResult& r = *d.result;
    if (r.verdict.rootCause)
        d.rootCauseSymptom = d.symptomIndex(r.verdict.rootCause->symptomId);
    d.eventSymptom.assign(r.events.size(), -1);
    d.symptomRole.resize(r.symptoms.size());
    for (std::size_t s = 0; s < r.symptoms.size(); ++s) {
        const Symptom& symptom = r.symptoms[s];
        const EvidenceRole role = roleOf(symptom, static_cast<int>(s) == d.rootCauseSymptom);
        d.symptomRole[s] = role;
        for (std::uint64_t id : symptom.events) {
            const int e = d.eventIndex(id);
            if (e >= 0 && (d.eventSymptom[e] < 0 || d.symptomRole[d.eventSymptom[e]] < role))
                d.eventSymptom[e] = static_cast<int>(s);
        }
        for (std::uint64_t id : symptom.evidence) {
            const int o = d.observationIndex(id);
            if (o >= 0)
                raise(d.observationRole[o], role);
        }
    }
}

void indexObservations(AnalysisData& d)
{
    const AnalysisResult& r = *d.result;
    d.observationRole.assign(r.observations.size(), EvidenceRole::Context);
    d.observationEvents.assign(r.observations.size(), {});
    d.fileObservations.assign(r.files.size(), {});
    for (std::size_t e = 0; e < r.events.size(); ++e) {
        for (std::uint64_t id : r.events[e].observations) {
            const int o = d.observationIndex(id);
            if (o >= 0)
                d.observationEvents[o].push_back(static_cast<std::uint32_t>(e));
        }
    }
    for (std::size_t o = 0; o < r.observations.size(); ++o) {
        const auto file = r.observations[o].source.file;
        if (file < d.fileObservations.size())
            d.fileObservations[file].push_back(static_cast<std::uint32_t>(o));
    }
    for (auto& list : d.fileObservations) {
        std::stable_sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
            return r.observations[a].source.line < r.observations[b].source.line;
        });
    }
}

}  // namespace

std::shared_ptr<const AnalysisData> AnalysisData::build(AnalysisSnapshot result, const engine::Catalog* catalog)
{
    auto d = std::make_shared<AnalysisData>();
    d->result = result ? std::move(result) : std::make_shared<const AnalysisResult>();
    d->m_complete = !d->result->engine.version.empty();
    indexObservations(*d);
    indexSymptoms(*d);
    d->symptomDescription.resize(d->result->symptoms.size());
    for (std::size_t s = 0; catalog && s < d->result->symptoms.size(); ++s) {
        if (const engine::SymptomDef* def = catalog->symptom(d->result->symptoms[s].name))
            d->symptomDescription[s] = def->description;
    }
    return d;
}

int AnalysisData::eventIndex(std::uint64_t id) const
{
    const auto& events = result->events;
    auto it =
        std::lower_bound(events.begin(), events.end(), id, [](const Event& e, std::uint64_t v) { return e.id < v; });
    return it != events.end() && it->id == id ? static_cast<int>(it - events.begin()) : -1;
}

int AnalysisData::observationIndex(std::uint64_t id) const
{
    const auto* o = result->observation(id);
    return o ? static_cast<int>(o - result->observations.data()) : -1;
}

int AnalysisData::fileIndex(const std::string& path) const
{
    const auto& files = result->files;
    const auto it = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.path == path; });
    return it == files.end() ? -1 : static_cast<int>(it - files.begin());
}

int AnalysisData::symptomIndex(const std::string& id) const
{
    const auto* s = result->symptom(id);
    return s ? static_cast<int>(s - result->symptoms.data()) : -1;
}

std::span<const std::uint32_t> AnalysisData::observationsAt(std::uint32_t file, std::uint64_t line) const
{
    if (file >= fileObservations.size())
        return {};
    const auto& list = fileObservations[file];
    const auto& obs = result->observations;
    auto lo = std::lower_bound(list.begin(), list.end(), line,
                               [&](std::uint32_t o, std::uint64_t v) { return obs[o].source.line < v; });
    auto hi = lo;
    while (hi != list.end() && obs[*hi].source.line == line)
        ++hi;
    return {list.data() + (lo - list.begin()), static_cast<std::size_t>(hi - lo)};
}

EvidenceRole AnalysisData::eventRole(int event) const
{
    if (event < 0 || event >= static_cast<int>(eventSymptom.size()) || eventSymptom[event] < 0)
        return EvidenceRole::Context;
    return symptomRole[eventSymptom[event]];
}

int AnalysisData::primaryObservation(int symptom) const
{
    if (symptom < 0 || symptom >= static_cast<int>(result->symptoms.size()))
        return -1;
    if (symptom == rootCauseSymptom) {
        const int decisive = observationIndex(result->verdict.rootCause->decisiveObservation);
        if (decisive >= 0)
            return decisive;
    }
    const auto& evidence = result->symptoms[symptom].evidence;
    return evidence.empty() ? -1 : observationIndex(evidence.front());
}

}  // namespace attrib::views
