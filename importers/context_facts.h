// SPDX-License-Identifier: GPL-3.0-or-later
// A file's context facts stated again (issue 13, memory): NCCL prints a communicator's line at Init START and again
// at Init COMPLETE, so every rank's GPU identity and communicator facts came twice, a quarter of the events of a
// large job. Within one file, an event that raises no symptom and equals an earlier one in everything a rule reads
// (type, rule, node, GPU, rank, link, time and its source, fields) joins that event as one more observation and one
// more folded event (Event::folded, as a repeated line folds) instead of becoming an event of its own: rules see the
// same facts and the same counts, and the line stays evidence.
#pragma once

#include "engine/model.h"

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace attrib::importers::detail {

class ContextFacts {
public:
    /// Facts remembered per file; a file of endless distinct facts keeps its further ones as events of their own.
    static constexpr std::size_t MaxFacts = 1 << 20;
    static constexpr std::size_t None = static_cast<std::size_t>(-1);

    /// The index in `events` of an earlier fact equal to `e`, or None (then `e`, to be pushed at `events.size()`,
    /// is remembered).
    std::size_t sameAs(const engine::Event& e, const std::vector<engine::Event>& events);

private:
    std::unordered_multimap<std::size_t, std::size_t> m_byHash;
};

}  // namespace attrib::importers::detail
