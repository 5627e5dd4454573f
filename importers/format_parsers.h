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
/// Unknown formats: the line as text, no time.
std::unique_ptr<LineParser> makePlainParser();

}  // namespace attrib::importers::detail
