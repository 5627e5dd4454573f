// SPDX-License-Identifier: GPL-3.0-or-later
// Columns a viewer or a tool put before every line of a file, which are not the log: line numbers (`cat -n`, `nl`, a
// web log viewer's gutter, `   10 | text`) and Docker Compose's service column (`trainer    | text`). A file whose
// lines nearly all carry one has it taken off before it is sniffed and read; a table whose first column happens to
// hold a number or a name keeps it.
#pragma once

#include "importers/line_format.h"

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

/// Docker Compose's service column (`fmt.Sprintf("%-"+width+"s | ", name)`, docker/compose cmd/formatter/logs.go):
/// a container name, blanks to the widest name of the project, `| `. Its length, 0 when the line has none; `bar` the
/// column of the bar.
std::size_t composeColumnOf(std::string_view line, std::size_t& bar);

/// stern's `<pod> <container> ` before a pod's line (`{{.PodName}} {{.ContainerName}} {{.Message}}`, stern cmd/cmd.go
/// at v1.34.0, colours gone): a pod name (DNS labels with a `-` in it: `llama-ft-worker-0`), a container name (one
/// label), each followed by one blank. Its length, 0 when the line does not open so.
std::size_t sternColumnOf(std::string_view line);

/// The column nearly every line of `head` carries: line numbers (hasLineNumberGutter), a Compose service column
/// (nine in ten non-empty lines, at least 4, with the bar at one column and few names: a table's first column names
/// a different thing on every row; or a short excerpt whose every line names a replica, `trainer-1  | `), or stern's
/// pod and container (nine in ten non-empty lines, at least 4, at most one pair in two lines: any pod name, where the
/// per-line reading takes only a generated one).
LineColumn lineColumnOf(std::string_view head);

/// The length of `column` at the start of `line` (0 when the line lacks it).
std::size_t columnLength(std::string_view line, LineColumn column);

/// `head` with `column` taken off every line.
std::string withoutColumn(std::string_view head, LineColumn column);

}  // namespace attrib::importers::detail
