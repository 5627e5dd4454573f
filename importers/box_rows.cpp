// SPDX-License-Identifier: GPL-3.0-or-later
#include "importers/box_rows.h"

#include <algorithm>

namespace attrib::importers::detail {

namespace {

/// Characters a cell's interior spends on padding: one on the left, two on the right (dcgmi's CommandOutputController
/// writes `| ` + value + ` |` with the value cut one short of the column).
constexpr std::size_t BoxPadding = 3;

std::size_t widthOf(const BoxCell& cell)
{
    return cell.interior > BoxPadding ? cell.interior - BoxPadding : 0;
}

}  // namespace

BoxCell boxCell(std::string_view row)
{
    BoxCell cell;
    if (row.size() < 5 || row.front() != '|')
        return cell;
    const std::size_t second = row.find('|', 1);
    if (second == std::string_view::npos || second < 2 || second + 2 > row.size() || row[second + 1] != ' ')
        return cell;
    const std::size_t third = row.find('|', second + 1);
    if (third != std::string_view::npos &&
        (third + 1 != row.size() && row.find_first_not_of(" \t\r", third + 1) != std::string_view::npos))
        return cell;  // a third column, or text after the border: another kind of table
    const std::string_view label = row.substr(1, second - 1);
    cell.row = true;
    cell.blankLabel = label.find_first_not_of(' ') == std::string_view::npos;
    cell.interior = third == std::string_view::npos ? 0 : third - second - 1;
    const std::size_t start = second + 2;
    std::string_view value = row.substr(start, (third == std::string_view::npos ? row.size() : third) - start);
    const std::size_t last = value.find_last_not_of(" \t\r");
    value = last == std::string_view::npos ? std::string_view() : value.substr(0, last + 1);
    cell.piece = value;
    cell.length = value.size();
    cell.end = start + value.size();
    return cell;
}

bool fillsBoxWidth(const BoxCell& cell)
{
    const std::size_t width = widthOf(cell);
    return cell.row && width > 0 && cell.length + 1 >= width;
}

BoxCell lastPiece(const BoxCell& cell, std::size_t interior)
{
    BoxCell kept = cell;
    kept.piece = {};
    if (kept.interior == 0)
        kept.interior = interior;
    return kept;
}

BoxJoin boxJoin(const BoxCell& previous, const BoxCell& next)
{
    if (!fillsBoxWidth(previous) || !next.row || !next.blankLabel || next.piece.empty() ||
        (next.interior != 0 && next.interior != previous.interior))
        return BoxJoin::None;
    return previous.length >= widthOf(previous) ? BoxJoin::Direct : BoxJoin::Space;
}

}  // namespace attrib::importers::detail
