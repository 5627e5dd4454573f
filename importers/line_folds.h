// SPDX-License-Identifier: GPL-3.0-or-later
// Folding repeated matched lines (issue 13, log storms): within one file, a line whose matches repeat an earlier
// line's exactly (same collector kind, node, rank, GPU, labels, and the same extractor rules with the same
// captures) adds nothing a rule can see but its time and position. The first `Kept` such lines stay whole; after
// them a tail observation (and its events) stands for the lines less than `Window` after its first one: it holds
// the latest of them and counts the others (`Observation::folded`, `Event::folded`). A line further away starts
// the next tail, so a gap between lines of `Window` or more stays visible to the rules' time windows (bursts,
// occurrences), counts, first/last times and the shown evidence stay, and memory grows with the storm's duration
// (one tail per signature and second at most), not with its lines.
#pragma once

#include "engine/extractor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attrib::importers::detail {

class LineFolds {
public:
    /// Lines of one signature kept whole before folding starts (at least the evidence lines a verdict lists).
    static constexpr std::uint32_t Kept = 32;
    /// Signatures tracked per file; lines of further signatures are kept whole (a file of all-different lines
    /// must not grow a table beside its observations).
    static constexpr std::size_t MaxSignatures = 4096;
    /// How far in time the lines folded into one tail may be from its first line (exclusive: lines a dmesg second
    /// apart never fold).
    static constexpr engine::TimeNs Window = engine::NsPerSec;

    struct Slot {
        std::uint32_t seen = 0;                 ///< lines of this signature kept whole so far (the tail included)
        std::size_t observation = 0;            ///< the tail's index in the file's observations
        std::size_t firstEvent = 0;             ///< the tail's first event in the file's events
        engine::TimeNs since = engine::NoTime;  ///< time of the tail's first line

        /// Whether a line at `t` folds into the tail (both untimed, or less than Window from its first line).
        bool folds(engine::TimeNs t) const
        {
            if (t == engine::NoTime || since == engine::NoTime)
                return t == since;
            return (t > since ? t - since : since - t) < Window;
        }
    };

    /// The slot of a signature (new slots start unseen); nullptr when the table is full and it is new.
    Slot* find(std::string signature);
    void clear() { m_slots.clear(); }

private:
    std::unordered_map<std::string, Slot> m_slots;
};

/// What makes two matched lines the same to the rules: everything but time, position and text.
std::string lineSignature(const engine::Observation& obs, const std::vector<engine::LineMatch>& matches);

}  // namespace attrib::importers::detail
