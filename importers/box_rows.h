// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: rows of a two-column box table whose value column wraps at a fixed width, as DCGM's dcgmi prints its
// diagnostic and health results:
//
//   | Warning                   | GPU 0 Thermal violations totaling 13.3 second  |
//   |                           | s started at 9.7 seconds into the test for GP  |
//   |                           | U 0 Verify that the cooling on this machine i  |
//
// The value is cut every (cell width - 3) characters, inside words, onto rows whose first column is blank. A piece
// that fills the width goes on in the next row without a space; one a character short ended on a space (the row's
// padding swallowed it) and goes on after one; a shorter piece ends the value, and a blank-label row after it is a
// value of its own (`Fail - GPU: 0` under `Pass - GPUs: 1, 2`). A paste may cut the last row before its border.
#pragma once

#include <cstddef>
#include <string_view>

namespace attrib::importers::detail {

struct BoxCell {
    std::size_t interior = 0;  ///< characters between the value column's borders; 0 when the row was cut short
    bool blankLabel = false;
    std::string_view piece;  ///< the value without its one-character left padding and its trailing blanks
    std::size_t length = 0;  ///< piece's length (kept when the row it points into is gone)
    std::size_t end = 0;     ///< where `piece` ends in the row
    bool row = false;        ///< the row is a box row at all
};

enum class BoxJoin { None, Direct, Space };

/// The value cell of a `| label | value |` row (exactly two columns).
BoxCell boxCell(std::string_view row);

/// Whether a box row's value fills its width, so the value may go on in the next row.
bool fillsBoxWidth(const BoxCell& cell);

/// `cell` kept past its row: its piece's length without the piece, and `interior` for a row cut before its border.
BoxCell lastPiece(const BoxCell& cell, std::size_t interior);

/// How `next` goes on with the value whose last piece is `previous` (its width known): not at all, directly, or
/// after a space.
BoxJoin boxJoin(const BoxCell& previous, const BoxCell& next);

}  // namespace attrib::importers::detail
