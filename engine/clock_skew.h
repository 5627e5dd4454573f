// SPDX-License-Identifier: GPL-3.0-or-later
// Per-node clock offsets from anchor events that must coincide across nodes (BRIEF §4, domain.md §1.3).
#pragma once

#include "engine/model.h"
#include "engine/trace.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace attrib::engine {

/// Offsets smaller than this are within the anchors' own jitter and are reported but not applied.
inline constexpr TimeNs ClockApplyThreshold = 1 * NsPerSec;

/// One kind of anchor (catalog data `clock_anchors`): events of type `event` that share the values of the `key`
/// attributes happened at one instant on every node, within `jitter`.
struct ClockAnchor {
    std::string event;
    std::vector<std::string> key;
    std::string label;  ///< template over the key attributes, e.g. "watchdog SeqNum {seq} {op}"
    TimeNs jitter = 100 * NsPerMs;
};

/// The anchors listed in the catalog's `clock_anchors` data document (none when it is absent).
std::vector<ClockAnchor> clockAnchors(const nlohmann::json* data);

/// Estimates each node's offset (to add to its times) from anchor events: ranks meet an anchor within its
/// jitter of each other, whatever node they run on, so a node's median against the median over nodes is its offset.
std::vector<ClockOffset> estimateClockOffsets(const std::vector<Event>& events, const std::vector<ClockAnchor>& anchors,
                                              TraceSink& trace);

/// Shifts the events of each node by its applied offset (evidence lines keep the time they were written with).
void applyClockOffsets(std::vector<Event>& events, const std::vector<ClockOffset>& offsets);

}  // namespace attrib::engine
