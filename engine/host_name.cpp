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

/// A poster's redaction in place of a host name: brackets or stars, which no host name holds, or the letter x
/// three or more times in a row, in any case.
bool isRedactedHost(std::string_view host)
{
    if (host.find_first_of("<>{}*") != std::string_view::npos)
        return true;
    std::size_t run = 0;
    for (const char c : host) {
        run = (c == 'x' || c == 'X') ? run + 1 : 0;
        if (run >= 3)
            return true;
    }
    return false;
}

/// Digits alone, no dot: no host name (RFC 1123 2.1 keeps a name from looking numeric), no address either. A
/// syslog header whose host field is a number is a shifted or foreign format (a sequence number, a year).
bool isBareNumber(std::string_view host)
{
    return !host.empty() && host.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

std::string shortHost(std::string_view host)
{
    if ((!host.empty() && host.front() == '-') || isRedactedHost(host) || isBareNumber(host))
        return {};
    std::string s(isAddress(host) ? host : host.substr(0, host.find('.')));
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace attrib::engine
