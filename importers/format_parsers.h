// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: one LineParser per sniffed format family; makeParser() picks among them.
#pragma once

#include "importers/line_format.h"

#include <memory>

namespace attrib::importers::detail {

/// dmesg raw `[secs.micro]` and `dmesg -T` lines (either shape, optional `<N>` priority).
std::unique_ptr<LineParser> makeKernelRingParser(const TimeHints& hints);
/// RFC 3164 and ISO 8601 / journal short-iso syslog lines: `stamp host tag: body`.
std::unique_ptr<LineParser> makeSyslogParser(const TimeHints& hints);
/// Per-rank application logs: launcher prefixes, glog / Python logging stamps, NCCL prefixes.
std::unique_ptr<LineParser> makeAppParser(const TimeHints& hints);
/// Job stdout/stderr: srun / slurmstepd lines, everything else as application output.
std::unique_ptr<LineParser> makeSlurmOutParser(const TimeHints& hints);
/// slurmctld / slurmd / slurmdbd logs: `[ISO] msg`.
std::unique_ptr<LineParser> makeSlurmDaemonParser();
/// nvidia-fabricmanager: `[Mmm dd YYYY HH:MM:SS] [LEVEL] [tid N] msg`.
std::unique_ptr<LineParser> makeFabricManagerParser();
/// RFC 5424 syslog: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD MSG`.
std::unique_ptr<LineParser> makeRfc5424Parser();
/// `dmesg -H` / `--reltime`: `[Dec 1 10:00]` minute headers, `[  +0.000123]` deltas added to the last time.
std::unique_ptr<LineParser> makeDmesgReltimeParser(const TimeHints& hints);
/// Kernel lines without a syslog stamp: `kernel: msg`, `node-07 kernel: [ 12.3] msg`.
std::unique_ptr<LineParser> makeKernelBareParser();
/// Readable text of no known format: each line parsed by the parser of the form it has (any stamp, header or
/// launcher prefix the sniffer knows), else as an application line; lines keep their order.
std::unique_ptr<LineParser> makePlainTextParser(const TimeHints& hints);
/// Formats without lines of their own (inventory listings): the line as text, no time.
std::unique_ptr<LineParser> makePlainParser();

/// The line format (as the sniffer names it) of one line, "" when the line has no form the sniffer knows.
std::string_view lineFormatOf(std::string_view line);

}  // namespace attrib::importers::detail
