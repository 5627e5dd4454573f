// SPDX-License-Identifier: GPL-3.0-or-later
// Node names as the evidence spells hosts.
#include "engine/host_name.h"

#include <algorithm>
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

bool lowerEquals(std::string_view a, std::string_view lower)
{
    if (a.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != lower[i])
            return false;
    return true;
}

/// A word a poster writes in place of the name, in any case, as a part of it (`gpu-REDACTED`, `hostname`).
bool isPlaceholderWord(std::string_view part)
{
    for (const std::string_view word : {"redacted", "masked", "hidden", "anonymized", "hostname", "nodename"})
        if (lowerEquals(part, word))
            return true;
    return false;
}

/// A part of a name written in capitals the way a template names a variable (`HOST`, `PRIVATE_IP`, `MASTER_ADDR`):
/// counted only where every part of the name is in capitals.
bool isVariableWord(std::string_view part)
{
    for (const std::string_view word : {"HOST", "NODE", "IP", "ADDR", "ADDRESS", "SERVER", "MASTER", "HOSTNAME"})
        if (part == word)
            return true;
    return false;
}

bool allCapitals(std::string_view host)
{
    return !host.empty() && host.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_-.") == std::string_view::npos;
}

}  // namespace

bool isRedactedHost(std::string_view host)
{
    if (host.find_first_of("<>{}*") != std::string_view::npos)
        return true;
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        // `[HOST]`, `[node]`: a template's variable in brackets, in any case.
        const std::string_view inner = host.substr(1, host.size() - 2);
        for (const std::string_view word : {"host", "node", "ip", "addr", "address", "server", "hostname", "nodename"})
            if (lowerEquals(inner, word))
                return true;
        return inner.empty() || isRedactedHost(inner);
    }
    if (!host.empty() && host.find_first_not_of(".\xe2\x80\xa6") == std::string_view::npos)
        return true;  // `...` or `\u2026` where the name was cut out
    std::size_t run = 0;
    for (const char c : host) {
        run = (c == 'x' || c == 'X') ? run + 1 : 0;
        if (run >= 3)
            return true;
    }
    // Split at `-`, `.` and `_`: a part of only x (two or more) or a placeholder word, and no part with a digit.
    const bool capitals = allCapitals(host);
    bool masked = false;
    bool allX = true;  // every part the letter x (`x.x.x.x`, `x-x`): an address or name masked letter by letter
    std::size_t parts = 0;
    for (std::size_t start = 0; start <= host.size();) {
        const std::size_t end = std::min(host.find_first_of("-._", start), host.size());
        const std::string_view part = host.substr(start, end - start);
        if (part.find_first_of("0123456789") != std::string_view::npos)
            return false;
        const bool onlyX = !part.empty() && part.find_first_not_of("xX") == std::string_view::npos;
        allX = allX && onlyX;
        ++parts;
        masked = masked || (part.size() >= 2 && onlyX) || isPlaceholderWord(part) || (capitals && isVariableWord(part));
        start = end + 1;
    }
    return masked || (allX && parts >= 2);
}

namespace {

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
