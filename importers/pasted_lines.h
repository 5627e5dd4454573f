// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: a pasted log whose line breaks were lost on the way into a ticket.
#pragma once

#include <string_view>
#include <vector>

namespace attrib::importers::detail {

/// The lines a line holds when a chat client or a web form joined a pasted log's lines with blanks (`Traceback (most
/// recent call last):   File "train.py", line 9, in <module>     main()   RuntimeError: CUDA error: ...`,
/// `[rank3]: Traceback ... [rank3]:   File ...`, `May 1 10:00:01 gpu7 kernel: NVRM: Xid ... May 1 10:00:02 gpu7 ...`):
/// the line cut at each record start it holds after a blank. Record starts are a Python traceback's header and
/// chaining sentences, its frames (`File "x.py", line N, in f`, cut again after the function's name, where the
/// source line follows), the exception line after a frame, a `Killed` that ends the line, and every form of line
/// prefix that starts at least three records of the line (ISO, syslog, glog and dmesg stamps, `[rankN]:`, NCCL's
/// `host:pid:tid [dev] NCCL`). A cut that would leave a piece of only a prefix (`[rank3]:`, `0:`, a stamp) is not
/// made. Only a line of at least 160 bytes with at least two cuts is split, never a JSON record or a line holding
/// escaped breaks (splitEscapedLines reads those); false, with `pieces` untouched, for any other line.
bool splitJoinedPaste(std::string_view line, std::vector<std::string_view>& pieces);

}  // namespace attrib::importers::detail
