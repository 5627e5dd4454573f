// SPDX-License-Identifier: GPL-3.0-or-later
// ResolveNcclPeers: the rank that reports an NCCL IB completion error or a socket reset is usually the survivor;
// this rule turns the peer address it names into the peer's node and raises a symptom there.
#pragma once

#include "engine/catalog.h"

#include <string>
#include <string_view>

namespace attrib::rules {

/// A peer as NCCL prints it, in a form that can be looked up: IPv4-mapped GIDs (`::ffff:10.1.2.3`) lose the
/// prefix, link-local scopes (`%ib0`) are dropped, host names are shortened to the first label, lower case.
std::string normalizePeerAddress(std::string_view peer);

std::unique_ptr<engine::CodeRule> makeResolveNcclPeers(const nlohmann::json& config);

}  // namespace attrib::rules
