// SPDX-License-Identifier: GPL-3.0-or-later
// HandleXidBurstEvents: groups Xid bursts per GPU, decodes error words, marks sympathetic Xids.
#pragma once

#include "engine/catalog.h"

#include <cstdint>
#include <optional>

namespace attrib::rules {

/// Largest link and Xid numbers accepted from a log line; larger ones are reported as unreadable.
inline constexpr int MaxLink = 1023;
inline constexpr int MaxXid = 65535;

/// The NVLink5 (Xid 144-150) tail: `SUBCODE Fatal XC0 i0 Link 07 (0x... 0x... ...)`.
struct NvlinkTail {
    std::string subcode;
    bool fatal = false;
    int crossContain = 0;
    bool injected = false;
    int link = -1;
    std::uint32_t intrInfo = 0;
    std::uint32_t errorStatus = 0;
};
/// std::nullopt when the tail is absent, or (with `problem` set) when one of its numbers is malformed or absurd.
std::optional<NvlinkTail> parseNvlinkTail(std::string_view detail, std::string& problem);

/// Xid 149 link-down reason: bits 25:20 of intrInfo.
inline int xid149Reason(std::uint32_t intrInfo)
{
    return static_cast<int>((intrInfo >> 20) & 0x3F);
}

/// The seven Xid 74 words and link: `link 14(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)`.
struct Xid74Words {
    int link = -1;
    std::vector<std::uint32_t> words;
};
/// std::nullopt when absent, or (with `problem` set) when the link or a word is malformed or out of range.
std::optional<Xid74Words> parseXid74(std::string_view detail, std::string& problem);

std::unique_ptr<engine::CodeRule> makeHandleXidBurstEvents(const nlohmann::json& config);

}  // namespace attrib::rules
