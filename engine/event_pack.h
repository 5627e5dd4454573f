// SPDX-License-Identifier: GPL-3.0-or-later
// A compact, exact copy of a vector of events in one byte buffer (integers as varints, strings length-prefixed),
// for an input that is kept only in case it is needed again: the early rules' guard against a rule that throws
// holds its input this way, at a fraction of the live events' size (no struct padding, no per-string and
// per-map-node allocations, deflated), because that copy was the largest item of the analysis' memory peak.
#pragma once

#include "engine/model.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attrib::engine {

class PackedEvents {
public:
    PackedEvents() = default;
    explicit PackedEvents(const std::vector<Event>& events);

    /// The events as they were packed, field for field.
    std::vector<Event> unpack() const;
    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_bytes.size() + m_names.size() * sizeof(Name); }

private:
    std::string m_bytes;        ///< deflated
    std::size_t m_size = 0;     ///< bytes before deflating
    std::vector<Name> m_names;  ///< the distinct names the events hold, by the index the bytes give
    std::size_t m_count = 0;
};

}  // namespace attrib::engine
