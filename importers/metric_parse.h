// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: Prometheus exposition lines and metric CSV cells (DCGM exporter, node_exporter, nvidia-smi csv).
#pragma once

#include "engine/model.h"

#include <map>
#include <string>
#include <string_view>

namespace attrib::importers::detail {

/// One sample of the exposition format: `name{label="value",...} value [timestamp_ms]`.
struct PromSample {
    std::string name;
    std::map<std::string, std::string> labels;
    double value = 0;
    engine::TimeNs time = engine::NoTime;
};

/// Parses one sample line; false for comments, blank lines and anything malformed.
bool parsePrometheusLine(std::string_view line, PromSample& out);

/// A number at the start of a cell ("85", "85 %", "1.5e3", " 12 W"); false for "[N/A]", "", text.
bool parseNumberCell(std::string_view cell, double& value);

/// A time cell: ISO 8601, nvidia-smi `2026/04/22 21:34:20.123`, or epoch seconds / milliseconds / microseconds
/// / nanoseconds (chosen by magnitude). NoTime when unusable.
engine::TimeNs parseTimeCell(std::string_view cell);

}  // namespace attrib::importers::detail
