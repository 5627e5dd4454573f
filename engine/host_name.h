// SPDX-License-Identifier: GPL-3.0-or-later
// Node names as the evidence spells hosts: one short, lower-case form for every source.
#pragma once

#include <string>
#include <string_view>

namespace attrib::engine {

/// Short host name, lower case: a fully qualified name up to its first dot (`gpu-n07.cluster.local` ->
/// `gpu-n07`); an IPv4 address is kept whole (`10.1.2.3`), as are IPv6 addresses. A name that starts with `-` is
/// the tail of a truncated one (`-worker-1` cut from `job-abc-worker-1` in a pasted excerpt; no host name label
/// starts with a hyphen, RFC 1123): "" (no node) rather than a node that does not exist. A poster's redaction
/// of the name (`<cluster_name>`, `{hostname}`, `***`, the letter x three or more times in a row) is no node either,
/// nor is a bare number (`222`: a shifted header field, not a host).
std::string shortHost(std::string_view host);

/// A poster's redaction in place of a host name or address: angle or curly brackets or stars, which no host name
/// holds; a template's variable in square brackets (`[HOST]`, `[node]`); the letter x three or more times in a row,
/// in any case; dots alone (`...`); or, where no part (split at `-`, `.`, `_`) holds a digit, a part of only x
/// (`ip-xx-xx-x-xx`, `xx.xx.xx.xx`), every part a single x (`x.x.x.x`) or a placeholder word (`HOSTNAME`,
/// `gpu-REDACTED`, `PRIVATE_IP`). Such a line names no node: every redacted line of a bundle would otherwise
/// name one made-up node, and the verdict blame it.
bool isRedactedHost(std::string_view host);

}  // namespace attrib::engine
