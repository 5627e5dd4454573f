// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: marks that a ticket's editor adds to pasted log text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers::detail {

/// Drops Markdown's `**strong**` marks from a line pasted into a ticket (`loading shared libraries:
/// **libcudart.so.12**: cannot open`, `**Error:** torch.OutOfMemoryError: ...`), so that a rule's literal reads the
/// words. A pair counts only where Markdown would render it: the opening mark at the start of the line or after a
/// space or an opening bracket or quote, the closing mark after a non-space and before the end, a space or a
/// punctuation mark, neither touching a third `*`. Python's `**kwargs` and `2**31`, and `*** Process received signal
/// ***` stay as they are.
void stripMarkdownStrong(std::string& text);

/// Turns the links a chat client or a ticket's editor made of names that look like web addresses back into the
/// names (`Could not resolve host: [github.com](http://github.com/)`, `torch/lib/[libc10.so](http://libc10.so/)`): a
/// Markdown link whose address is its own text after `http://` or `https://` (a trailing `/` allowed). A link to
/// another address is the poster's own and stays.
void stripMarkdownAutolinks(std::string& text);

/// The line a native program wrote to stderr when Windows PowerShell 5.1 wrapped it as an error record
/// (`python : Traceback (most recent call last):`, `python.exe : [rank0]: RuntimeError: ...`, before its `At line:1
/// char:1` and `+ FullyQualifiedErrorId : NativeCommandError` lines): without the `<command> : ` PowerShell put
/// before it. Only a program's `.exe` name or the name of a Python, launcher or package tool a job is run with counts
/// (`python`, `python3`, `py`, `torchrun`, `accelerate`, `deepspeed`, `pip`, `conda`, `uv`); `line` itself otherwise.
std::string_view stripNativeCommandPrefix(std::string_view line);

/// The line a chat client's copy put its message header before: Microsoft Teams' `[5/1/2024 10:42 AM] Jane Doe: `
/// (the date, the time with AM or PM, the sender's name of one to four words) and Discord's `[10:42 AM] ` come off;
/// `line` itself otherwise. A bracketed time without AM or PM stays (a log's own stamp), and so does a "name" that is
/// an exception's (`RuntimeError: `).
std::string_view stripChatHeader(std::string_view line);

/// `line` as the program wrote it when a web page, a chat client or a word processor retyped it on the way into a
/// ticket: no-break, narrow and other Unicode spaces as a space, zero-width characters and byte-order marks
/// dropped, curly quotes and primes as ' and ", hyphen and en-dash forms and the minus sign as -, an ellipsis as
/// three dots, and the HTML entities a page escapes log text with (&quot; &#39; &#x27; &apos; &lt; &gt; &amp;
/// &nbsp;) as their characters. Returns `line` itself when it holds none of them, else a view of `buffer`.
std::string_view plainTypography(std::string_view line, std::string& buffer);

/// The lines a line holds when a program printed a string's escaped form instead of the string: a Python repr or
/// an exception's args (`RuntimeError('Traceback (most recent call last):\n  File ...')`), a JSON value quoted
/// once more, `kubectl describe`'s `message: "...\n..."`. The line is split at each `\n` (`\r\n`, and the
/// doubled `\\n` of a string escaped twice) and each piece loses its escapes (`\"`, `\'`, `\t`, `\\`). Only
/// a line with at least two such breaks and at least two pieces that read as text (a space inside), one of them
/// between two breaks, is split, so a Windows path (`copying C:\Users\nick\new\x.bin to cache`) stays whole. False,
/// with `pieces` untouched, for any other line.
bool splitEscapedLines(std::string_view line, std::vector<std::string>& pieces);

}  // namespace attrib::importers::detail
