// SPDX-License-Identifier: GPL-3.0-or-later
// Internal helpers shared by sniffing and the line parsers: launcher prefixes, syslog headers, year inference.
#pragma once

#include "importers/line_format.h"
#include "importers/timestamps.h"

#include <optional>
#include <string_view>

namespace attrib::importers::detail {

/// Which application prefixes stripAppPrefixes() found on a line (bit set).
enum AppMark : unsigned {
    MarkRank = 1u << 0,    ///< `[rank3]:`
    MarkMpi = 1u << 1,     ///< `[1,2]<stdout>:`
    MarkLabel = 1u << 2,   ///< srun --label `3: `
    MarkIso = 1u << 3,     ///< ISO stamp added by a collector, bare or bracketed
    MarkPyLog = 1u << 4,   ///< Python logging `[YYYY-MM-DD HH:MM:SS,mmm]`
    MarkGlog = 1u << 5,    ///< glog / c10 `[E1206 18:44:12.71 File.cpp:607]`
    MarkNccl = 1u << 6,    ///< NCCL `host:pid:tid [dev]`
    MarkRole = 1u << 7,    ///< torchrun / torch elastic local-rank prefix `[default0]:`
    MarkPod = 1u << 8,     ///< `kubectl logs --prefix`: `[pod/trainer-0/pytorch] `
    MarkHost = 1u << 9,    ///< Open MPI `[host:pid] ` (names the host)
    MarkPdsh = 1u << 10,   ///< pdsh / clush `node01: ` (names the host)
    MarkProse = 1u << 11,  ///< a poster's own words in Chinese, Japanese or Korean before the pasted line
    MarkTag = 1u << 12,    ///< a logger's name in brackets before its record's stamp: torchtitan's `[titan] `
};

/// Supplies years to stamps without one; a backward month jump of more than six months (Dec -> Jan)
/// is read as a new year. Year 0 means "unknown": yearFor() then returns 0.
class YearTracker {
public:
    explicit YearTracker(int year)
        : m_year(year)
    {
    }
    int yearFor(int month);
    /// A stamp with its year was met: the months that follow count from its year and month.
    void anchor(TimeNs dated);

private:
    int m_year;
    int m_lastMonth = 0;
};

bool startsWith(std::string_view s, std::string_view prefix);
/// A non-negative decimal of at most `maxDigits` digits at `pos`; `pos` moves past it.
bool readInt(std::string_view s, std::size_t& pos, int& out, std::size_t maxDigits = 9);
/// Whether `s` holds `c` at `pos`.
bool charAt(std::string_view s, std::size_t pos, char c);
/// Whether `s` is one or more ASCII digits.
bool allDigits(std::string_view s);
/// A host name token: letters, digits, `-`, `_`, `.`, with at least one letter.
bool isHostName(std::string_view s);
/// `flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so`, `libnccl.so.2`, `train.py`, `rulebook.cu`: a shared library or
/// a source file, which a loader, Python or a program's own error check names before a colon where a host could stand.
bool isFileName(std::string_view word);
std::string_view skipSpaces(std::string_view s);

/// Keeps the most confident of the stamps a line carries (the first one on ties).
void offerTime(ParsedLine& out, TimeNs time, TimeSource source);

/// NCCL `host:pid:tid [dev]` at the start of `s`.
bool matchNcclPrefix(std::string_view s, std::string_view& host, int& gpu);
/// NCCL `host:pid:tid [dev] NCCL ` further into `s`, behind another program's prefix (Compose, loguru, Python
/// logging, a quote): names the host and device without stripping anything.
bool findEmbeddedNcclPrefix(std::string_view s, std::string_view& host, int& gpu);

/// pdsh / clush `node01: ` (or a bare `node01:`) at the start of `s`: a host name with a digit, not a kernel
/// device name (`ata1:`, `eth0:`) or rank tag; strips it and names the host.
bool stripPdshHost(std::string_view& s, std::string_view& host);

/// Length of a Ray worker's prefix at the start of `s`, `(RayTrainWorker pid=123, ip=10.0.0.1) ` with its one
/// space (the actor name and the ip are optional); 0 when there is none. The prefix stays in the text rules read;
/// only the line's stream and the traceback joiner look past it. `ip`, when given, gets the address the prefix
/// names (empty without one): the record's node.
std::size_t rayPrefixLength(std::string_view s, std::string_view* ip = nullptr);

/// FNV-1a over one part of a line's stream (a launcher prefix, a host, a program tag; blanks around it dropped: srun
/// pads its labels), folded into `hash` (0: nothing folded yet); an empty part changes nothing.
void hashStreamPart(std::uint64_t& hash, std::string_view prefix);

/// Length of a syslog or journal program tag with its process id at the start of `s`, `python3[1234]: ` with its one
/// space (`[\w.-]+\[\d+\]: `, the name at most 64 bytes); 0 when there is none.
std::size_t programTagLength(std::string_view s);

/// Container platforms' prefixes (format_containers.cpp); each strips its prefix from `s`: `kubectl logs --prefix`'s
/// `[pod/name/container] `, Docker Compose's `vllm-1  | `, stern's `<pod> <container> ` (only a generated pod name).
bool stripPod(std::string_view& s);
bool stripComposeService(std::string_view& s);
bool stripSternPod(std::string_view& s);

/// What a container runtime's log file adds after its stamp: CRI's stream and full/partial tag (`stderr F `).
bool stripCriStream(std::string_view& s);
/// A stamp that a transport put before every line it carried, not the program: a CI runner's
/// (`2024-05-01T10:00:00.1234567Z `: GitHub Actions' and Azure Pipelines' raw logs, seven fraction digits; kubectl's
/// `--timestamps`; Jenkins' timestamper; `aws logs tail` with its log stream's name, which is not a host). The line
/// after it is what the program printed, sniffed and read as if the file held it alone; the stamp's time stands for a
/// line that carries none. `length` covers the stamp and one blank. (CRI's stamp and stream tag stay with the line
/// prefixes: stripAppPrefixes reads a syslog line behind them as the kernel or daemon line it is, with the platform's
/// stamp, which has the year.)
std::optional<StampMatch> transportStamp(std::string_view line);
/// Takes a transport stamp (transportStamp) and the quote or list markers behind it off `line`; the stamp's time, or
/// NoTime when the line carries none.
TimeNs takeTransportStamp(std::string_view& line);
/// Loki's label set after its stamp (`{container="trainer", node="gpu-node-7"} `); a `node`, `host`, `hostname`,
/// `nodename` or `instance` label names the host (when `host` is still empty).
bool stripLokiLabels(std::string_view& s, std::string_view& host);
/// A poster's own words in Chinese, Japanese or Korean before the line they paste (two such characters at least,
/// then a Latin letter, a bracket or a path).
bool stripProse(std::string_view& s);

/// Strips, repeatedly, launcher prefixes and stamps from an application line and sets rank, gpu,
/// host, time, text, stream and logHeader in `out`. NCCL lines keep their whole `host:pid:tid [dev] ...` text.
unsigned stripAppPrefixes(std::string_view line, YearTracker& years, ParsedLine& out);

/// Words that only application logs carry (tracebacks, torch, NCCL, CUDA errors).
bool hasAppMarker(std::string_view line);

/// `kernel: ` or `host kernel: ` at the start of `s` (a kernel line without a syslog stamp): strips it, names the host.
/// The length of a kernel tag at the start of `s`: `kernel: `, or `kernel:` right before a forwarded `[uptime]`; 0
/// when there is none.
std::size_t kernelTagLength(std::string_view s);
bool stripKernelTag(std::string_view& s, std::string_view& host);

/// The node a line names for itself in a message the scheduler writes: `srun: error: NODE: task 3: ...`,
/// `srun: error: Node failure on NODE`.
bool hostNamedBySrun(std::string_view s, std::string_view& host);

/// `slurmstepd: ` or `slurmstepd-<host>: ` at the start of `s`: strips it and names the host.
bool stripSlurmstepd(std::string_view& s, std::string_view& host);
/// srun / slurmstepd lines and `*** JOB ... CANCELLED AT ***` banners.
bool isSlurmLine(std::string_view s);

/// The part of a syslog line after the stamp: ` host tag: body`.
struct SyslogHeader {
    std::string_view host;
    std::string_view tag;   ///< `kernel`, `systemd-networkd[2385]`; empty when the line has none
    std::string_view rest;  ///< `tag: body` (or the text after the host when there is no tag)
    std::string_view body;  ///< text after `tag: `
    bool indented = false;  ///< the body began with 2+ blanks (a continuation line of a multi-line record)
};
bool splitSyslogHeader(std::string_view afterStamp, SyslogHeader& out);
/// A time zone's abbreviation as stamps print it after the time (`UTC`, `PDT`, `CEST`): no host name.
bool isZoneAbbreviation(std::string_view word);

/// Drops a forwarded printk `[seconds.micro] ` from the start of a kernel message.
std::string_view stripUptime(std::string_view body);
/// Drops a `<N>` syslog priority, or the facility and level `dmesg -x` decodes (`kern  :err   : `), from the start
/// of a line.
std::string_view stripPriority(std::string_view s);
/// Drops the printk caller id a kernel with CONFIG_PRINTK_CALLER (or `dmesg --caller`) prints after the stamp:
/// `[  T129] ` (a task) or `[    C3] ` (a CPU).
std::string_view stripCallerId(std::string_view body);

/// pdsh / clush host prefix before a kernel line: `node-02: [` (the host, then `: `, then a bracket or `<`).
bool stripHostPrefix(std::string_view& s, std::string_view& host);

/// The header fields of an RFC 5424 line; views into the line.
struct Rfc5424Header {
    TimeNs time = engine::NoTime;  ///< NoTime for the NILVALUE `-`
    std::string_view host, app, procid, msgid;
    std::string_view message;  ///< MSG without a UTF-8 BOM
};
/// Splits `<PRI>VERSION TIMESTAMP HOST APP PROCID MSGID SD [MSG]`; false when the line is not RFC 5424.
bool splitRfc5424(std::string_view line, Rfc5424Header& out);

/// True when `s` starts with two or more blanks or a tab (an indented continuation).
bool isIndented(std::string_view s);

/// Binary garbage: a NUL byte or more than 30% control characters.
bool isUnusable(std::string_view line);

}  // namespace attrib::importers::detail
