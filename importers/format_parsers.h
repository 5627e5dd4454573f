// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: one LineParser per sniffed format family; makeFormatParser() picks among them.
#pragma once

#include "importers/line_format.h"

#include <memory>

namespace attrib::importers::detail {

/// The parser of `format`:
/// - DmesgRaw, DmesgT: dmesg raw `[secs.micro]` and `dmesg -T` lines (either shape, optional `<N>` priority);
/// - Rfc3164, Iso8601: RFC 3164 and ISO 8601 / journal short-iso syslog lines: `stamp host tag: body`;
/// - App: per-rank application logs: launcher prefixes, glog / Python logging stamps, NCCL prefixes;
/// - SlurmOut: job stdout/stderr: srun / slurmstepd lines, everything else as application output;
/// - SlurmDaemon: slurmctld / slurmd / slurmdbd logs: `[ISO] msg`;
/// - FabricManager: nvidia-fabricmanager: `[Mmm dd YYYY HH:MM:SS] [LEVEL] [tid N] msg`;
/// - Rfc5424: RFC 5424 syslog: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID SD MSG`;
/// - DmesgIso: `dmesg --time-format iso` lines, `2024-03-04T13:33:58,470412+01:00 msg`;
/// - DmesgReltime: `dmesg -H` / `--reltime`: `[Dec 1 10:00]` minute headers, `[  +0.000123]` deltas added to the
///   last time;
/// - KernelBare: kernel lines without a syslog stamp: `kernel: msg`, `node-07 kernel: [ 12.3] msg`;
/// - Plain: readable text of no known format: each line parsed by the parser of the form it has (any stamp,
///   header or launcher prefix the sniffer knows), else as an application line; lines keep their order;
/// - any other (formats without lines of their own, such as inventory listings): the line as text, no time.
std::unique_ptr<LineParser> makeFormatParser(Format format, const TimeHints& hints);

/// The line format (as the sniffer names it) of one line, Format::None when it has no form the sniffer knows.
Format lineFormatOf(std::string_view line);

}  // namespace attrib::importers::detail
