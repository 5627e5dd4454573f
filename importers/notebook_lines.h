// SPDX-License-Identifier: GPL-3.0-or-later
// A Jupyter notebook (.ipynb) attached to a report: JSON whose cells' outputs hold what the job printed, one JSON
// string per printed line (`      "RuntimeError: CUDA error\n",`). Read as the lines it holds, each at its own line of
// the file: a stream's text, an error's traceback, a result's text/plain; the notebook's structure and the cells'
// source code are not evidence and read as blank lines.
#pragma once

#include <string>
#include <string_view>

namespace attrib::importers::detail {

/// Whether `head` opens a Jupyter notebook (a `.ipynb` name, or a JSON object whose first key is `cells` holding
/// `cell_type`s).
bool isNotebook(std::string_view head, std::string_view path);

/// Reads a notebook line by line: what each line of the file holds as evidence.
class NotebookLines {
public:
    /// The text `line` holds: an output line's string unescaped (into `buffer`), or "" for the notebook's structure
    /// and source code.
    std::string_view text(std::string_view line, std::string& buffer);

private:
    bool m_output = false;  ///< inside an output's text, traceback or text/plain list
};

}  // namespace attrib::importers::detail
