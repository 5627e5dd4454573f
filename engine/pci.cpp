// SPDX-License-Identifier: GPL-3.0-or-later
// PCI address normalization shared by importers and rules.
#include "engine/pci.h"

#include <cctype>
#include <vector>

namespace attrib::engine {

std::string normalizePci(std::string_view pci)
{
    std::string s;
    for (char c : pci)
        s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s.rfind("pci:", 0) == 0)
        s = s.substr(4);
    if (auto dot = s.find('.'); dot != std::string::npos)
        s = s.substr(0, dot);
    // split into fields by ':'
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == ':') {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    if (parts.size() == 2)
        parts.insert(parts.begin(), "0");
    if (parts.size() != 3)
        return s;
    std::string domain = parts[0];
    if (domain.size() > 4)
        domain = domain.substr(domain.size() - 4);
    while (domain.size() < 4)
        domain = "0" + domain;
    auto two = [](std::string v) {
        while (v.size() < 2)
            v = "0" + v;
        return v.substr(v.size() - 2);
    };
    return domain + ":" + two(parts[1]) + ":" + two(parts[2]);
}

std::string pciFromNcclBusId(std::string_view busId)
{
    // NCCL prints the bus id as hex digits domain|bus(2)|device(2)|function(1), without separators.
    std::string hex(busId);
    if (hex.find(':') != std::string::npos)
        return normalizePci(hex);
    if (hex.size() < 5)
        return {};
    const std::string device = hex.substr(hex.size() - 3, 2);
    const std::string bus = hex.substr(hex.size() - 5, 2);
    const std::string domain = hex.substr(0, hex.size() - 5);
    return normalizePci((domain.empty() ? "0" : domain) + ":" + bus + ":" + device);
}

}  // namespace attrib::engine
