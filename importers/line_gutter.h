// SPDX-License-Identifier: GPL-3.0-or-later
// Line numbers a viewer or editor put before every line of a copy (`cat -n`, `nl`, a web log viewer's gutter,
// `   10 | text`): not the log. A file whose lines nearly all carry one, counting up by one, has them taken off before
// it is sniffed and read; a table whose first column happens to hold a number on some rows keeps it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers::detail {

/// A line-number gutter: blanks, 1-7 digits, then a tab, a bar with the blanks around it, or one or more blanks
/// before the text.
struct Gutter {
    std::size_t length = 0;  ///< 0: the line has none
    std::uint64_t number = 0;
    bool marked = false;  ///< the number ends in a tab or a bar (not just blanks)
};
Gutter gutterOf(std::string_view line);

/// Whether the lines of `head` carry a gutter, each line numbered one more than the numbered line before it: at
/// least 4 such lines and nine in ten or more of the non-empty lines; or a short excerpt whose every line is
/// numbered so from 1 with a tab or a bar (`    1 | RuntimeError: ...`).
bool hasLineNumberGutter(std::string_view head);

/// The whole lines of a file's `head`, at most `limit`, without their line ends; the head's last line, which the
/// head may have cut, is left out.
std::vector<std::string_view> headLines(std::string_view head, std::size_t limit);

/// `head` with every line's gutter taken off.
std::string withoutGutters(std::string_view head);

}  // namespace attrib::importers::detail
