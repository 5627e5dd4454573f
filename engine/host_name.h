// SPDX-License-Identifier: GPL-3.0-or-later
// Node names as the evidence spells hosts: one short, lower-case form for every source.
#pragma once

#include <string>
#include <string_view>

namespace attrib::engine {

/// Short host name, lower case: a fully qualified name up to its first dot (`gpu-n07.cluster.local` ->
/// `gpu-n07`); an IPv4 address is kept whole (`10.1.2.3`), as are IPv6 addresses.
std::string shortHost(std::string_view host);

}  // namespace attrib::engine
