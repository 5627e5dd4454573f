// SPDX-License-Identifier: GPL-3.0-or-later
// Boot-time estimates per node (see boot_times.h for the sources and how they combine).
#include "importers/boot_times.h"

#include "engine/json_util.h"
#include "importers/timestamps.h"

#include <algorithm>

namespace attrib::importers {

namespace {

constexpr TimeNs SameBoot = 60 * engine::NsPerSec;

const char* sourceName(BootClock::Source s)
{
    switch (s) {
    case BootClock::Source::Workload: return "workload.json boot_times";
    case BootClock::Source::Journal: return "the journal (realtime - monotonic)";
    case BootClock::Source::Syslog: return "syslog lines with forwarded printk stamps";
    case BootClock::Source::RtcLine: return "the rtc_cmos clock-setting line";
    case BootClock::Source::Pairing: return "lines also seen with wall-clock stamps";
    }
    return "";
}

}  // namespace

TimeNs BootClock::bootOf(const std::string& node) const
{
    auto it = m_nodes.find(node);
    return it == m_nodes.end() ? engine::NoTime : it->second.boot;
}

std::string BootClock::describe(const std::string& node) const
{
    auto it = m_nodes.find(node);
    if (it == m_nodes.end())
        return {};
    return "boot time " + engine::formatTime(it->second.boot) + " from " + sourceName(it->second.source);
}

void BootClock::setFromWorkload(const std::string& node, TimeNs boot)
{
    m_nodes[node] = Estimate{boot, Source::Workload};
}

void BootClock::merge(const std::string& node, TimeNs boot, Source source)
{
    if (m_nodes.size() >= 100000 && !m_nodes.count(node))
        return;  // bounded, whatever a hostile file names
    auto [it, inserted] = m_nodes.emplace(node, Estimate{boot, source});
    if (inserted)
        return;
    Estimate& e = it->second;
    if (static_cast<int>(source) > static_cast<int>(e.source))
        return;  // a less trusted source never overrides
    if (static_cast<int>(source) < static_cast<int>(e.source) || boot > e.boot + SameBoot ||
        (boot > e.boot && boot - e.boot <= SameBoot))
        e = Estimate{boot, source};
}

void BootClock::offer(const std::string& node, TimeNs wall, TimeNs uptime, Source source)
{
    if (node.empty() || wall == engine::NoTime || uptime == engine::NoTime || uptime < 0 || uptime > wall)
        return;
    merge(node, wall - uptime, source);
}

TimeNs rtcClockSetting(std::string_view text)
{
    constexpr std::string_view marker = "setting system clock to ";
    if (text.find("rtc") == std::string_view::npos)
        return engine::NoTime;
    const std::size_t pos = text.find(marker);
    if (pos == std::string_view::npos)
        return engine::NoTime;
    std::string_view rest = text.substr(pos + marker.size());
    const auto stamp = parseIso8601(rest);
    if (!stamp)
        return engine::NoTime;
    return stamp->time;  // "... UTC": a zone-less stamp is taken as UTC already
}

bool BootClock::offerRtcLine(const std::string& node, std::string_view text, TimeNs uptime)
{
    const TimeNs wall = rtcClockSetting(text);
    if (wall == engine::NoTime || uptime == engine::NoTime)
        return false;
    offer(node, wall, uptime, Source::RtcLine);
    return true;
}

void BootClock::absorb(const BootClock& other)
{
    for (const auto& [node, estimate] : other.m_nodes)
        merge(node, estimate.boot, estimate.source);
}

void BootClock::moveYears(int years)
{
    for (auto& [node, estimate] : m_nodes)
        if (estimate.boot != engine::NoTime)
            estimate.boot = shiftYears(estimate.boot, years);
}

void BootClock::offerPairs(const std::string& node, std::vector<TimeNs> differences)
{
    if (node.empty() || differences.empty())
        return;
    auto mid = differences.begin() + static_cast<std::ptrdiff_t>(differences.size() / 2);
    std::nth_element(differences.begin(), mid, differences.end());
    merge(node, *mid, Source::Pairing);
}

}  // namespace attrib::importers
