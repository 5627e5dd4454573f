// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: a log line that wraps another program's message. Container runtimes, log shippers and log platforms
// store each line a job printed as a record: Docker's json-file (`{"log":"...\n","stream":"stderr","time":...}`),
// a CloudWatch or Cloud Logging export, a structured logger's JSON line, torchelastic's error file, fluent-bit's
// stdout record (`[0] tag: [1733047872.345, {"log"=>"..."}]`), a pretty-printed `"message": "...",` member, a
// logfmt line of logrus, slog or go-kit (`time="..." level=error msg="..." error="..."`).
// Rules are written for the message as the program printed it, so the message is taken out: JSON-unescaped, split
// into the lines it holds, with the record's time and host kept for lines that carry none of their own.
#pragma once

#include "engine/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers::detail {

struct Envelope {
    std::vector<std::string> lines;  ///< the message as printed, one entry per line, terminal codes removed
    engine::TimeNs time = engine::NoTime;
    std::string host;  ///< the node the record names (a host, hostname or node-name field), may be empty
};

/// Unix time in seconds, milliseconds, microseconds or nanoseconds, told apart by magnitude (each names a date between
/// 2001 and 2286 in its own unit); NoTime for any other number.
engine::TimeNs unixTime(double value);

/// Appends the lines `text` holds to `out.lines` (split at `\n`, `\r` before it and trailing newlines dropped,
/// terminal codes removed, at most 2000 lines): a message as the job printed it.
void appendMessageLines(std::string_view text, Envelope& out);

/// Cheap test run on every line before unwrapEnvelope: its first non-blank byte opens a JSON object, a JSON
/// member or a fluent-bit record, or it opens with a logfmt time or level key (`time=`, `ts=`, `level=`, ...).
bool mayBeEnvelope(std::string_view line);

/// Whether `line` is a record wrapping a message; fills `out` (cleared first). A JSON object without a message
/// member, invalid JSON or an empty message is not one: the line is then read as it is.
bool unwrapEnvelope(std::string_view line, Envelope& out);

}  // namespace attrib::importers::detail
