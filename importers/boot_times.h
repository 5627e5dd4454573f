// SPDX-License-Identifier: GPL-3.0-or-later
// Boot times per node, to turn raw dmesg seconds-since-boot into wall time. Sources, most trusted first:
//   1. workload.json "boot_times": {"node-04": "2026-04-22T20:40:00Z"}
//   2. the journal: __REALTIME_TIMESTAMP - __MONOTONIC_TIMESTAMP of the node's entries (the latest boot)
//   3. syslog kernel lines that forward the printk stamp: `Apr 22 21:34:20 node-01 kernel: [3260.1] ...`
//   4. the raw dmesg file itself: `rtc_cmos 00:00: setting system clock to 2026-04-22T20:40:02 UTC (...)`
//   5. pairing: a raw dmesg line whose text also appears, with a wall-clock time, in another kernel log of the
//      same node (median of the differences)
// Estimates of one kind are combined per node: the latest boot wins (a larger estimate more than a minute
// apart is a later boot); within one boot the largest estimate (second-resolution stamps round down).
#pragma once

#include "engine/model.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers {

using engine::TimeNs;

class BootClock {
public:
    enum class Source { Workload, Journal, Syslog, RtcLine, Pairing };

    struct Estimate {
        TimeNs boot = engine::NoTime;
        Source source = Source::Pairing;
    };

    /// Known boot time of a node, or NoTime.
    TimeNs bootOf(const std::string& node) const;
    /// The source of a node's boot time, for coverage notes ("" when unknown).
    std::string describe(const std::string& node) const;

    void setFromWorkload(const std::string& node, TimeNs boot);
    /// A wall-clock record that also carries seconds since boot (journal entry, forwarded printk stamp).
    void offer(const std::string& node, TimeNs wall, TimeNs uptime, Source source);
    /// Looks at a boot-relative kernel line for the rtc_cmos clock-setting message; true when it was one.
    bool offerRtcLine(const std::string& node, std::string_view text, TimeNs uptime);
    /// Median of wall - uptime over paired lines; ignored when `pairs` is empty.
    void offerPairs(const std::string& node, std::vector<TimeNs> differences);
    /// Adds another clock's estimates. The most trusted source wins, then the latest boot, so the result does
    /// not depend on the order in which files (or clocks) were read.
    void absorb(const BootClock& other);
    /// Moves every estimate by whole years (its records' stamps lacked a year and were dated again).
    void moveYears(int years);

private:
    void merge(const std::string& node, TimeNs boot, Source source);
    std::map<std::string, Estimate> m_nodes;
};

/// `rtc_cmos 00:00: setting system clock to 2026-04-22T20:40:02 UTC (1776890402)`: the wall time it names.
TimeNs rtcClockSetting(std::string_view text);

}  // namespace attrib::importers
