// SPDX-License-Identifier: GPL-3.0-or-later
// Per-node clock offsets from anchor events that must coincide across nodes (BRIEF §4, domain.md §1.3).
#pragma once

#include "engine/model.h"
#include "engine/trace.h"

#include <vector>

namespace attrib::engine {

/// Offsets smaller than this are within the anchors' own jitter and are reported but not applied.
inline constexpr TimeNs ClockApplyThreshold = 1 * NsPerSec;

/// Estimates each node's offset (to add to its times) from watchdog timeouts of the same collective:
/// healthy ranks time out for one SeqNum within ~100 ms of each other, whatever node they run on.
std::vector<ClockOffset> estimateClockOffsets(const std::vector<Event>& events, TraceSink& trace);

/// Shifts the events of each node by its applied offset (evidence lines keep the time they were written with).
void applyClockOffsets(std::vector<Event>& events, const std::vector<ClockOffset>& offsets);

}  // namespace attrib::engine
