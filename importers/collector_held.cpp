// SPDX-License-Identifier: GPL-3.0-or-later
// Matches held for a later line (a rule with an `after` pattern): the record's observation is kept aside until the
// later line or the end of the file decides, and the decided events join the file's events in record order.
#include "importers/collector.h"

#include <algorithm>
#include <tuple>

namespace attrib::importers::detail {

using namespace attrib::engine;

/// A record with matches held for a later line: its observation as it stands now (its own place and time), and
/// the observation it already has when other rules matched it at once.
void Collector::holdRecord(Record& r, SourceKind kind, const std::string& node, std::size_t kept, FileState& fs)
{
    fs.held[fs.records] = {observe(r, kind, node, fs), kept};
}

/// Held matches a later line (or the end of the file) decided become events of their own record's observation,
/// which the record gains now if it had none; they join the shard's events in record order at the end of the file.
void Collector::takeDecided(FileState& fs)
{
    FileShard& shard = *fs.shard;
    for (auto& p : fs.context.takeResolved()) {
        const auto it = fs.held.find(p.tag);
        if (it == fs.held.end())
            continue;
        FileState::Held& held = it->second;
        Observation obs = held.obs;
        if (held.kept == NotKept) {
            if (fs.lateObservations >= MaxLateObservations) {
                ++fs.lateDropped;
                continue;
            }
            ++fs.lateObservations;
            held.kept = shard.observations.size();
            held.obs.id = shard.observations.size() + 1;
            shard.observations.push_back(held.obs);
        }
        obs.id = shard.observations[held.kept].id;
        fs.late.push_back({p.tag, p.order, makeEvent(p.match, obs)});
    }
}

/// The decided events join the shard's in record order, after the events their record had at once: as if they
/// had matched with their own line (the observations are put in file order when the analysis renumbers them).
void Collector::mergeLate(FileState& fs)
{
    if (fs.late.empty())
        return;
    std::stable_sort(fs.late.begin(), fs.late.end(), [](const auto& a, const auto& b) {
        return std::tie(a.record, a.order) < std::tie(b.record, b.order);
    });
    auto& events = fs.shard->events;
    std::vector<Event> merged;
    merged.reserve(events.size() + fs.late.size());
    std::size_t i = 0;
    for (auto& late : fs.late) {
        while (i < events.size() && fs.eventRecords[i] <= late.record)
            merged.push_back(std::move(events[i++]));
        merged.push_back(std::move(late.event));
    }
    while (i < events.size())
        merged.push_back(std::move(events[i++]));
    events = std::move(merged);
    fs.late.clear();
}

}  // namespace attrib::importers::detail
