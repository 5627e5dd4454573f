// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: content sniffing of the structured formats (JSON documents and lines, tables, metrics, journal
// export, nvidia-bug-report). sniff() asks these before looking at line shapes.
#pragma once

#include "importers/line_format.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers::detail {

/// nvidia-bug-report logs and `journalctl -o export` (which may hold binary fields).
std::optional<Sniffed> sniffStructuredText(std::string_view head);
/// JSON: journalctl -o json, sacct --json, Kubernetes events, Kueue workloads, observations.jsonl.
std::optional<Sniffed> sniffJson(std::string_view head);
/// Tables: sacct --parsable2, Prometheus / DCGM exporter text, metric CSV.
std::optional<Sniffed> sniffTable(std::string_view head);

/// Splits a CSV line (RFC 4180 quotes, `""` escapes) into trimmed fields.
std::vector<std::string> splitCsv(std::string_view line, char separator = ',');
/// ASCII lower case (column names, keys).
std::string lower(std::string_view s);

}  // namespace attrib::importers::detail
