// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/line_order.h"

#include "engine/pipeline.h"

#include <algorithm>

namespace attrib::engine {

bool usableTime(const Symptom& s)
{
    return s.origin != NoTime && s.timeSource != TimeSource::BootRelative && s.timeSource != TimeSource::None;
}

void placeFirstLines(std::vector<Symptom>& symptoms, const std::vector<FileRun>& fileRuns)
{
    for (auto& s : symptoms) {
        s.firstFile.clear();
        s.firstObservation = 0;
        if (s.evidence.empty() || fileRuns.empty())
            continue;
        const std::uint64_t first = *std::min_element(s.evidence.begin(), s.evidence.end());
        // The last run starting at or before `first` holds it.
        auto run = std::upper_bound(fileRuns.begin(), fileRuns.end(), first,
                                    [](std::uint64_t id, const FileRun& r) { return id < r.firstObservation; });
        if (run == fileRuns.begin())
            continue;
        --run;
        s.firstFile = run->path;
        s.firstObservation = first;
    }
}

bool lineOrdered(const Symptom& a, const Symptom& b)
{
    return !usableTime(a) && !usableTime(b) && !a.firstFile.empty() && a.firstFile == b.firstFile &&
        a.firstObservation != 0 && b.firstObservation != 0;
}

std::string lineOrderDetail(const Symptom& s)
{
    return "line order in " + s.firstFile;
}

std::string untimedOrderNote(const Catalog& catalog, const PriorityTable* table, const Symptom& root,
                             const std::vector<Symptom>& symptoms)
{
    const int rootPriority = effectivePriority(catalog, table, root);
    std::size_t explained = 0;
    std::size_t untimed = 0;
    std::size_t byLine = 0;  // untimed symptoms placed against the root by line order
    bool rootByLine = true;  // every symptom the root explains is in line order with it
    for (const auto& s : symptoms) {
        if (s.causedBy != root.id || s.status != SymptomStatus::Demoted)
            continue;
        ++explained;
        // In order by line only when written after the root cause: one written before it that a rule still
        // demoted (its window has room before the cause) counted as co-occurring.
        const bool ordered = lineOrdered(root, s) && s.firstObservation >= root.firstObservation;
        rootByLine = rootByLine && ordered;
        if (!usableTime(s) && effectivePriority(catalog, table, s) >= rootPriority) {
            ++untimed;
            byLine += ordered ? 1 : 0;
        }
    }
    if (!usableTime(root) && explained > 0) {
        ++untimed;
        byLine += rootByLine ? 1 : 0;
    }
    if (untimed == 0)
        return {};
    const std::string count = std::to_string(untimed) + " of the symptoms involved " + (untimed == 1 ? "has" : "have") +
        " no usable timestamp";
    if (byLine == untimed)
        return " The order of events was read from the line order of " + root.firstFile + ": " + count +
            ", and the lines of one file were written in the order they happened.";
    return " The order of events could not be checked: " + count +
        ", and untimed symptoms of one bundle are taken as co-occurring.";
}

}  // namespace attrib::engine
