// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: lines of one form found inside another: a kernel or syslog line among an application's (behind its
// stamp, a platform's prefix or a quote), a grep hit with its file name, a kernel line quoted in a message.
#pragma once

#include "importers/format_prefix.h"
#include "importers/line_format.h"

#include <string_view>

namespace attrib::importers::detail {

/// A kernel line inside an application log or job output, after the line's stamp: `kernel: msg`, `host kernel: msg`,
/// a syslog export's `[UTC] kern.err [host] kernel: msg`, a whole syslog kernel line behind a platform's prefix, or a
/// dmesg line (`[Mon Dec  1 10:11:12 2026] msg`, `[ 1234.567890] msg`). Makes `out` a kernel record (tag and forwarded
/// uptime removed, as the syslog reader does); false when the text is none of these.
bool takeKernelLine(ParsedLine& out);

/// The message of a syslog or journal line from a program other than the kernel (`header` split from the line): the
/// record keeps `tag[pid]: ` before the message so rules can tell programs apart; a tag with a process id is one
/// stream of the host (its tracebacks are joined as in the program's own file), and a launcher's prefixes and quote
/// markers after the tag come off as they do on the program's own lines (`srun[4321]: 3: Killed`,
/// `python3[1234]: [rank3]: ValueError: ...`), the tag staying before the rest (ParsedLine::programTag). A message
/// that opens with a free-form prefix (a pdsh `name: `, a bracketed logger name, a poster's prose) keeps its text
/// whole.
void takeProgramMessage(const SyslogHeader& header, ParsedLine& out);

/// A whole syslog daemon line behind a platform's prefix (`Dec  1 10:11:12 gpu-node-7 nvidia-persistenced[812]: msg`):
/// a syslog record of the host it names, its `tag[pid]: msg` kept; false when the text is none.
bool takeSyslogLine(ParsedLine& out);

/// The line after a grep file-name prefix (`name:` or `name:123:`, a name without blanks), "" when there is none.
std::string_view afterGrepFileName(std::string_view line);

/// A syslog kernel line quoted inside another message (an alert, a chat or ticket paste): the quoted line from its
/// stamp on, "" when there is none.
std::string_view quotedKernelLine(std::string_view line);

}  // namespace attrib::importers::detail
