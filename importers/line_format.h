// SPDX-License-Identifier: GPL-3.0-or-later
// Per-format line parsing: sniff a file's kind from its first bytes, then split each line into
// timestamp, host, rank and message body. Qt-free; depends on engine/model.h only.
#pragma once

#include "engine/model.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace attrib::importers {

using engine::SourceKind;
using engine::TimeNs;
using engine::TimeSource;

/// The formats the sniffer tells apart; toString gives the name coverage shows ("dmesg-T", "rfc3164", ...).
enum class Format : std::uint8_t {
    None,  ///< not recognized (kind Unknown)
    // line formats
    DmesgRaw,
    DmesgT,
    DmesgReltime,
    DmesgIso,  ///< `dmesg --time-format iso`: `2024-03-04T13:33:58,470412+01:00 msg`, no host or tag
    KernelBare,
    Rfc3164,
    Iso8601,
    Rfc5424,
    App,
    SlurmOut,
    SlurmDaemon,
    FabricManager,
    Plain,  ///< readable text of no one known format: each line read by its own form
    // structured formats
    JournalJson,
    JournalExport,
    SacctParsable,
    SacctJson,
    K8sEvents,
    KueueWorkload,
    Prometheus,
    MetricsCsv,
    NvidiaSmiCsv,
    ObservationsJsonl,
    NvidiaBugReport,
};
const char* toString(Format format);
std::optional<Format> formatFrom(std::string_view name);
/// Application-log formats: launcher prefixes taken, terminal wraps and tracebacks joined.
constexpr bool isAppFormat(Format f)
{
    return f == Format::App || f == Format::SlurmOut || f == Format::Plain;
}

/// Line formats: read line by line (readLogLines), so a gutter before each line can be taken off.
constexpr bool readsLineByLine(Format f)
{
    return f != Format::None && f < Format::JournalJson;
}

/// A column a viewer or a tool put before every line (line_gutter.h).
enum class LineColumn : std::uint8_t { None, Numbers, Compose, Stern };

/// What sniffing decided about a file.
struct Sniffed {
    SourceKind kind = SourceKind::Unknown;
    Format format = Format::None;
    std::string reason;                    ///< why it was (not) recognized, for coverage
    LineColumn column = LineColumn::None;  ///< a column before every line (line_gutter.h), taken off when read
    bool notebook = false;                 ///< a Jupyter notebook: read as its outputs' lines (notebook_lines.h)
};

/// Facts a parser needs to turn partial stamps into absolute times.
struct TimeHints {
    int year = 0;                      ///< year for stamps without one (from workload.json or file mtime)
    TimeNs bootTime = engine::NoTime;  ///< wall time of boot for raw dmesg seconds, when known
};

/// One parsed line. Views point into the line passed to parse().
struct ParsedLine {
    TimeNs time = engine::NoTime;
    TimeSource timeSource = TimeSource::None;
    std::string_view host;  ///< host named by the line itself (syslog host, NCCL prefix), may be empty
    int rank = -1;          ///< global rank from launcher prefixes ([rank3]:, [1,2]<stdout>:, "3: ")
    /// The launcher prefixes the line carried (`[1,2]<stderr>:`, `[default0]:`, `[rank3]:`, srun's `3: `, a pod,
    /// a Ray worker's `(Name pid=N)`), as a hash: lines of one process' stream share it, other streams differ;
    /// 0 when the line carried none. Stamps are not part of it.
    std::uint64_t stream = 0;
    /// The line began with a logger's own header (glog, Python logging, NCCL): a message of its own.
    bool logHeader = false;
    int gpu = -1;                    ///< local CUDA device from the NCCL `[n]` field
    std::string_view text;           ///< message body with timestamp / launcher prefixes removed
    TimeNs uptime = engine::NoTime;  ///< seconds since boot the line carries (raw dmesg, forwarded printk stamp)
    bool stamped = false;            ///< the line began with its format's stamp or header (false: a continuation line)
    bool indented = false;           ///< the message body after the stamp/header began with indentation (2+ blanks)
    std::string_view tag;  ///< syslog tag / RFC 5424 app-name (`kernel`, `systemd-networkd[2385]`), may be empty
    /// A syslog program tag with its separator (`python3[1234]: `) that the record's text keeps before `text`: the
    /// launcher prefixes between the two were taken off (takeProgramMessage). Empty when `text` holds the tag itself.
    std::string_view programTag;
    /// The line's own collector kind where it is not the file's (a kernel line pasted into an application log);
    /// Unknown: the file's.
    engine::SourceKind kind = engine::SourceKind::Unknown;
};

/// Parses the lines of one file format. Stateful per file (e.g. remembers the last year seen).
class LineParser {
public:
    virtual ~LineParser() = default;
    /// Returns false when the line is unusable (counted as skipped); `out.text` must still be set when true.
    virtual bool parse(std::string_view line, ParsedLine& out) = 0;
    /// A line of the file carried a stamp with its year (`dated`): later stamps without one take that year.
    virtual void anchorYear(TimeNs dated) { (void)dated; }
};

/// A line quoted by a mail client, Markdown or an issue tracker: `> text`, `>> text`, `> > text` (up to three blanks
/// before the first marker, one after each): the text after the markers; the line itself when it has none, and for
/// Python's `>>> ` prompt. A Markdown list item's marker (`- `, `* `, `+ `) goes too when what follows opens like a
/// pasted log line (a capital letter, a digit, a bracket or parenthesis): `- RuntimeError: ...`, `* [rank3]: ...`;
/// YAML items, diff lines and shell traces (`- name: x`, `+ python train.py`) stay.
std::string_view stripQuoteMarkers(std::string_view line);

/// Looks at the first bytes of a file (and its path, as a hint only) and names its kind and format.
Sniffed sniff(std::string_view head, std::string_view path);

/// Creates the parser for a sniffed format.
std::unique_ptr<LineParser> makeParser(const Sniffed& sniffed, const TimeHints& hints);

}  // namespace attrib::importers
