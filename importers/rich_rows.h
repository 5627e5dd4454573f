// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: records written by Python Rich's log handler (RichHandler), a console table of time, level, message and
// the caller's `file:line`:
//
//   [12/03/24 14:22:05] ERROR    Step failed with an unhandled exception: CUDA      base.py:1206
//                                error: an illegal memory access was encountered
//                       WARNING  Retrying in 5 seconds                               llms.py:44
//
// The message column wraps at the console width onto rows indented to it, so a message's words are split over rows
// and no rule's literal spans them; the time column is blank when the second repeats (or absent), the level is
// padded to eight columns, and only the first row carries the location.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attrib::importers::detail {

/// The message column of a Rich record's first row (time column or blank, level, message, `file:line` at the end),
/// 0 when `row` is not one. `location` gets the row's `file:line`.
std::size_t richMessageColumn(std::string_view row, std::string_view& location);

/// A row that goes on with the message of a Rich record whose message starts at `column`: blank up to the column
/// (or further: an indented line of the message), text after it.
bool continuesRichRecord(std::string_view row, std::size_t column);

/// Drops a first row's `file:line` (and the padding before it) from the end of the record's text.
void dropRichLocation(std::string& text, std::string_view location);

}  // namespace attrib::importers::detail
