// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: marks that a ticket's editor adds to pasted log text.
#pragma once

#include <string>

namespace attrib::importers::detail {

/// Drops Markdown's `**strong**` marks from a line pasted into a ticket (`loading shared libraries:
/// **libcudart.so.12**: cannot open`, `**Error:** torch.OutOfMemoryError: ...`), so that a rule's literal reads the
/// words. A pair counts only where Markdown would render it: the opening mark at the start of the line or after a
/// space or an opening bracket or quote, the closing mark after a non-space and before the end, a space or a
/// punctuation mark, neither touching a third `*`. Python's `**kwargs` and `2**31`, and `*** Process received signal
/// ***` stay as they are.
void stripMarkdownStrong(std::string& text);

}  // namespace attrib::importers::detail
