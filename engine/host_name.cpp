// SPDX-License-Identifier: GPL-3.0-or-later
// Node names as the evidence spells hosts.
#include "engine/host_name.h"

#include <cctype>

namespace attrib::engine {

namespace {

bool isAddress(std::string_view host)
{
    if (host.empty())
        return false;
    if (host.find(':') != std::string_view::npos)  // IPv6 (NCCL prints `[fe80::1]` or bare)
        return host.find_first_not_of("0123456789abcdefABCDEF:.[]") == std::string_view::npos;
    return host.find_first_not_of("0123456789.") == std::string_view::npos;
}

}  // namespace

std::string shortHost(std::string_view host)
{
    if (!host.empty() && host.front() == '-')
        return {};
    std::string s(isAddress(host) ? host : host.substr(0, host.find('.')));
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace attrib::engine
