// SPDX-License-Identifier: GPL-3.0-or-later
// Stamps that launchers, loggers and collectors write before application text (glog, Python logging, ISO, Unix
// time, BMC event-log rows): each taker sets the line's time and, for the strip* ones, removes the stamp.
#pragma once

#include "importers/format_prefix.h"

#include <string_view>

namespace attrib::importers::detail {

/// `[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] `, `[E1111 17:10:53] ` or `[E ProcessGroupNCCL.cpp:737] `.
bool stripGlogBracket(std::string_view& s, YearTracker& years, ParsedLine& out);
/// Newer torch elastic: `E0325 20:57:27.620000 2606 site-packages/.../api.py:869] msg`.
bool stripBareGlog(std::string_view& s, YearTracker& years, ParsedLine& out);
/// `[2026-04-22 21:34:20,123] ` (Python logging, `marks` gets MarkPyLog) or `[2026-04-29T23:36:37.809] ` (MarkIso).
bool stripBracketIso(std::string_view& s, ParsedLine& out, unsigned& marks);
/// UCX's `[1701292112.829711] ` Unix-time stamp.
bool stripEpochBracket(std::string_view& s, ParsedLine& out);
/// A bare ISO stamp added by a log collector, followed by a space.
bool stripBareIso(std::string_view& s, ParsedLine& out);
/// Go's log package stamp `2009/11/10 23:00:00[.000000] ` (year first, slashes), followed by a space.
bool stripGoLogStamp(std::string_view& s, ParsedLine& out);
/// Python logging's `%(name)s %(levelname)s (%(asctime)s) - %(message)s` (submitit): takes the stamp, keeps the line.
void takeLoggerStamp(std::string_view s, ParsedLine& out);
/// A slash-dated line (`[12/03/24 14:22:05] ERROR ...` from Python Rich, `21/01/15 18:40:27 WARN ...` from Spark's
/// log4j, `06/18/2024 10:22:33;0008;PBS_Server...` from a PBS daemon log): takes the stamp, keeps the line.
void takeSlashStamp(std::string_view s, ParsedLine& out);
/// A BMC event-log row (`ipmitool sel list`, FreeIPMI `ipmi-sel`): takes the date and time columns, keeps the row.
void takeSelStamp(std::string_view s, ParsedLine& out);

}  // namespace attrib::importers::detail
