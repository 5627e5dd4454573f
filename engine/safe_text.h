// SPDX-License-Identifier: GPL-3.0-or-later
// Strings that came from evidence or names (log lines, file and member names, node names, workload ids) are
// written by the job or by whoever built the bundle. Before they reach a terminal or a document they pass
// through one of these, so no byte of theirs can act as a terminal command, forge a line, or break a format.
//
// Policy (one for every output):
// - C0 controls, DEL and C1 controls are shown as visible escapes: `\n`, `\r`, `\t`, `\x1b`, `\x7f`, `\u{9b}`;
// - Unicode format controls that reorder or hide text (bidi embeddings/overrides/isolates U+202A-202E,
//   U+2066-2069, marks U+200E/200F/061C, zero-width U+200B-200D/2060/FEFF, separators U+2028/2029) are shown
//   as `\u{202e}`;
// - bytes that are not valid UTF-8 are shown as `\xff` (JSON output instead replaces them with U+FFFD, see
//   jsonReplaceInvalid);
// - everything else (printable ASCII, valid UTF-8 text, backslashes) is kept as is.
#pragma once

#include <string>
#include <string_view>

namespace attrib::engine {

/// One line of text safe for a terminal: every control (newlines included) shown as an escape.
std::string terminalSafe(std::string_view s);

/// A multi-line text block safe for a terminal: like terminalSafe but `\n` and `\t` are kept.
std::string terminalSafeBlock(std::string_view s);

/// Markdown prose inside a table cell or list item: terminalSafe, then every character Markdown or HTML would
/// interpret (links, images, emphasis, tags, entities, table pipes, headings) backslash-escaped.
std::string markdownText(std::string_view s);

/// Log text as a Markdown inline code span (a backtick fence longer than any run inside; pipes escaped so a
/// table row stays one row).
std::string markdownCode(std::string_view s);

/// Text for HTML or XML (SVG) content and attribute values: terminalSafe, then & < > " ' as entities. The
/// result never holds a character XML 1.0 forbids.
std::string xmlText(std::string_view s);

/// `line` without its terminal escape sequences (the one place they are removed rather than shown: the importers
/// read log lines this way, and the evidence view shows them so) (colours, cursor moves, OSC hyperlinks and titles): a
/// log captured from a terminal or a CI console (`\x1b[0;31mOutOfMemoryError\x1b[0m: ...`) reads as its plain text.
/// Returns `line` itself when it has no ESC byte, else a view of `buffer`.
std::string_view stripTerminalCodes(std::string_view line, std::string& buffer);

/// Valid UTF-8 with every invalid byte replaced by U+FFFD (the replacement JSON output uses).
std::string jsonReplaceInvalid(std::string_view s);

}  // namespace attrib::engine
