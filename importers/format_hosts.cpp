// SPDX-License-Identifier: GPL-3.0-or-later
// The host a line names in its prefix: NCCL's `host:pid:tid [dev]`, pdsh/clush `node01: `, `host kernel: `, srun's
// `srun: error: host: task N`; and the words that look like hosts but are not (device names, programs, files).
#include "importers/format_prefix.h"

#include "engine/number.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace attrib::importers::detail {

namespace {

/// `rank3`, `Rank12`: a training script's rank tag.
bool isRankWord(std::string_view word)
{
    return word.size() > 4 && (word[0] | 0x20) == 'r' && (word[1] | 0x20) == 'a' && (word[2] | 0x20) == 'n' &&
        (word[3] | 0x20) == 'k';
}

}  // namespace

bool matchNcclPrefix(std::string_view s, std::string_view& host, int& gpu)
{
    // `host:pid:tid [dev] ` (every NCCL version), or `host [dev] ` where a poster cut pid:tid out: that short form
    // only when the line goes on as an NCCL message, so that `Epoch [5] loss` is no prefix.
    std::size_t pos = 0;
    std::string_view name;
    const std::size_t colon = s.find(':');
    // A quote is no part of a host: `"node:1:2 [0] NCCL ...",` is a line quoted in a JSON array or a Python list.
    if (colon != 0 && colon != std::string_view::npos && s.substr(0, colon).find_first_of(" \t[]\"'`") == s.npos) {
        pos = colon + 1;
        int pid = 0;
        int tid = 0;
        if (readInt(s, pos, pid) && charAt(s, pos++, ':') && readInt(s, pos, tid) && charAt(s, pos++, ' '))
            name = s.substr(0, colon);
    }
    if (name.empty()) {  // a host name holding a digit, as node names do (`rank3 [3]` is a rank, not a host)
        const std::size_t space = s.find(' ');
        const std::string_view word = s.substr(0, space == std::string_view::npos ? 0 : space);
        if (!isHostName(word) || word.find_first_of("0123456789") == std::string_view::npos || isRankWord(word) ||
            s.find(" NCCL ", space) == std::string_view::npos)
            return false;
        name = word;
        pos = space + 1;
    }
    int device = 0;
    if (!charAt(s, pos++, '[') || !readInt(s, pos, device, 4) || !charAt(s, pos, ']'))
        return false;
    host = name;
    gpu = device;
    return true;
}

namespace {

/// The `host` of an embedded `host:pid:tid` token: a host name, or a dotted IPv4 address.
bool isPrefixHost(std::string_view s)
{
    return isHostName(s) || (s.find('.') != std::string_view::npos && std::all_of(s.begin(), s.end(), [](char c) {
                                 return engine::isDigit(c) || c == '.';
                             }));
}

/// Where a token ends on its left: blanks, a wrapper's bar, a quote or an opening bracket.
bool endsToken(char c)
{
    return c == ' ' || c == '\t' || c == '|' || c == '"' || c == '\'' || c == '`' || c == '(' || c == '[';
}

/// The `]` closing the device of an NCCL prefix whose message starts at `nccl` (the space before `NCCL `): right
/// before it, or before one `file.cc:123` token as WARN lines print; npos when neither.
std::size_t deviceBracketBefore(std::string_view s, std::size_t nccl)
{
    if (nccl > 0 && s[nccl - 1] == ']')
        return nccl - 1;
    const std::size_t space = nccl == 0 ? std::string_view::npos : s.rfind(' ', nccl - 1);
    if (space == std::string_view::npos || space == 0 || s[space - 1] != ']')
        return std::string_view::npos;
    const std::string_view where = s.substr(space + 1, nccl - space - 1);
    const std::size_t colon = where.rfind(':');
    return colon != std::string_view::npos && colon > 0 && allDigits(where.substr(colon + 1)) ? space - 1
                                                                                              : std::string_view::npos;
}

}  // namespace

bool findEmbeddedNcclPrefix(std::string_view s, std::string_view& host, int& gpu)
{
    // `... host:pid:tid [dev] [file.cc:N ]NCCL ...` after a prefix of another program: Compose's `trainer-1  | `,
    // loguru's `time | ERROR | module:fn:42 - `, Python logging's `INFO:root:`, a quote. The token before ` [dev]`
    // ends in `:pid:tid`; the field before those is the host (a logger's own `INFO:root:` fields come before it).
    for (std::size_t nccl = s.find(" NCCL "); nccl != std::string_view::npos; nccl = s.find(" NCCL ", nccl + 1)) {
        const std::size_t at = deviceBracketBefore(s, nccl);
        const std::size_t open = at == std::string_view::npos ? at : s.rfind('[', at);
        if (open == std::string_view::npos || open < 2 || at - open < 2 || at - open > 5 || s[open - 1] != ' ' ||
            !allDigits(s.substr(open + 1, at - open - 1)))
            continue;
        std::size_t start = open - 1;
        while (start > 0 && !endsToken(s[start - 1]))
            --start;
        const std::string_view token = s.substr(start, open - 1 - start);
        const std::size_t tidColon = token.rfind(':');
        if (tidColon == std::string_view::npos || tidColon == 0)
            continue;
        const std::size_t pidColon = token.rfind(':', tidColon - 1);
        if (pidColon == std::string_view::npos || pidColon == 0 || !allDigits(token.substr(tidColon + 1)) ||
            !allDigits(token.substr(pidColon + 1, tidColon - pidColon - 1)))
            continue;
        const std::size_t hostColon = token.rfind(':', pidColon - 1);
        const std::size_t hostStart = hostColon == std::string_view::npos ? 0 : hostColon + 1;
        const std::string_view name = token.substr(hostStart, pidColon - hostStart);
        int device = 0;
        std::size_t pos = open + 1;
        if (!isPrefixHost(name) || !readInt(s, pos, device, 4))
            continue;
        host = name;
        gpu = device;
        return true;
    }
    return false;
}

namespace {

/// `1.017s`, `250ms`, `3m`: a number with a unit of time.
bool isElapsedTime(std::string_view word)
{
    std::size_t i = 0;
    while (i < word.size() && (std::isdigit(static_cast<unsigned char>(word[i])) || word[i] == '.'))
        ++i;
    const std::string_view unit = word.substr(i);
    return i > 0 && (unit == "s" || unit == "ms" || unit == "us" || unit == "m" || unit == "h");
}

/// lm-sensors rows: a chip's label (`in1:`, `3VSB:`, `AUXTIN0:`, a board's own names) and its reading, `+3.31 V`,
/// `1024 RPM`, `+42.0°C`, `95.00 W`. A pdsh host is followed by its command's output, not by a measurement.
bool isSensorReading(std::string_view rest)
{
    std::size_t i = rest.find_first_not_of(' ');
    if (i == 0 || i == std::string_view::npos)
        return false;
    if (rest[i] == '+' || rest[i] == '-')
        ++i;
    const std::size_t digits = i;
    while (i < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[i])) || rest[i] == '.'))
        ++i;
    if (i == digits)
        return false;
    if (i < rest.size() && rest[i] == ' ')
        ++i;
    static constexpr std::array<std::string_view, 11> units = {"V",
                                                               "mV",
                                                               "\xc2\xb0"
                                                               "C",
                                                               "C",
                                                               "RPM",
                                                               "W",
                                                               "mW",
                                                               "A",
                                                               "mA",
                                                               "J",
                                                               "%"};
    const std::string_view tail = rest.substr(i);
    return std::any_of(units.begin(), units.end(), [&](std::string_view u) {
        return tail.substr(0, u.size()) == u && (tail.size() == u.size() || tail[u.size()] == ' ');
    });
}

/// A tqdm bar after its description (`raichiyo_lora_v1:   0%|          | 0/9000 [00:00<?, ?it/s]`): the description is
/// the training run's name, not a pdsh host.
bool isProgressBar(std::string_view rest)
{
    std::size_t i = rest.find_first_not_of(' ');
    if (i == 0 || i == std::string_view::npos)
        return false;
    const std::size_t digits = i;
    while (i < rest.size() && i - digits < 4 && std::isdigit(static_cast<unsigned char>(rest[i])))
        ++i;
    return i > digits && rest.substr(i, 2) == "%|";
}

/// Ascend CANN's error codes start its messages the way pdsh starts a host's (`EJ0001: ... Failed to initialize the
/// HCCP process`, `EE9999:`, `EI0009:`, `E39999:`): `E`, one capital letter or digit, four digits (the code format
/// of CANN's error code reference). A host is rarely named so.
bool isCannErrorCode(std::string_view word)
{
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return word.size() == 6 && word[0] == 'E' && ((word[1] >= 'A' && word[1] <= 'Z') || digit(word[1])) &&
        std::all_of(word.begin() + 2, word.end(), digit);
}

/// `boto3.exceptions.S3UploadFailedError: ...`, `EC2InsufficientCapacityError: ...`, `mpi4py.MPI.Exception: ...`:
/// Python prints an exception by its (qualified) name and a colon, the way pdsh prints a host, and a name may hold a
/// digit. A word (the last name of a dotted word) that starts upper-case and ends the way Python's exception classes
/// are named (PEP 8: Error; the builtins' Exception, Warning, Exit, Interrupt), or is one of those, is an exception.
bool isExceptionName(std::string_view word)
{
    const std::size_t dot = word.rfind('.');
    const std::string_view last = dot == std::string_view::npos ? word : word.substr(dot + 1);
    const auto endsWith = [&](std::string_view tail) {
        return last.size() >= tail.size() && last.substr(last.size() - tail.size()) == tail;
    };
    return !last.empty() && std::isupper(static_cast<unsigned char>(last[0])) &&
        (endsWith("Error") || endsWith("Exception") || endsWith("Warning") || endsWith("Exit") ||
         endsWith("Interrupt"));
}

/// `MotionCor3: Util/CSimpleFuncs.cpp:211: ...`, `cuDNN8: ...`: a lower-case letter right before a capital is how
/// programs, classes and functions are named (camel case); host names are written in one case (RFC 1178's advice,
/// and what clusters do), so such a word is no pdsh host.
bool isCamelCase(std::string_view word)
{
    for (std::size_t i = 1; i < word.size(); ++i)
        if (std::islower(static_cast<unsigned char>(word[i - 1])) && std::isupper(static_cast<unsigned char>(word[i])))
            return true;
    return false;
}

/// glibc names the program before a failed assertion's source location: `yolov5: /src/yolov5.cpp:245: int main():
/// Assertion `engine' failed.` (`<file>:<line>: ` right after the name, and the word Assertion).
bool isAssertionReport(std::string_view rest)
{
    rest = skipSpaces(rest);
    const std::string_view where = rest.substr(0, rest.find(' '));
    const std::size_t colon = where.size() >= 4 ? where.rfind(':', where.size() - 2) : std::string_view::npos;
    if (colon == std::string_view::npos || colon == 0 || where.back() != ':')
        return false;
    const std::string_view line = where.substr(colon + 1, where.size() - colon - 2);
    return !line.empty() && line.find_first_not_of("0123456789") == std::string_view::npos &&
        rest.find("Assertion") != std::string_view::npos;
}

/// `29.162.224.92: [rank30]: ...`: pdsh and clush print the host as the hostfile names it, and DeepSpeed's hostfiles
/// often list addresses. Four dot-separated numbers of one to three digits, none over 255.
bool isIpv4Address(std::string_view word)
{
    for (int part = 0; part < 4; ++part) {
        const std::size_t dot = word.find('.');
        const std::string_view number = word.substr(0, dot);
        if (number.empty() || number.size() > 3 || number.find_first_not_of("0123456789") != std::string_view::npos ||
            !engine::parseIntegerIn<int>(number, 0, 255) || (dot == std::string_view::npos) != (part == 3))
            return false;
        word.remove_prefix(dot == std::string_view::npos ? word.size() : dot + 1);
    }
    return true;
}

/// A systemd unit name (systemd.unit(5)'s unit types): `session-3.scope: systemd-oomd killed ...` or
/// `trainer@2.service: Main process exited` starts a journal line without its header, and names no host.
bool isSystemdUnit(std::string_view word)
{
    static constexpr std::array<std::string_view, 11> types = {".service",   ".socket", ".device", ".mount",
                                                               ".automount", ".swap",   ".target", ".path",
                                                               ".timer",     ".slice",  ".scope"};
    return std::any_of(types.begin(), types.end(),
                       [&](std::string_view tail) { return word.size() > tail.size() && word.ends_with(tail); });
}

}  // namespace

bool isFileName(std::string_view word)
{
    static constexpr std::array<std::string_view, 10> sources = {".py",  ".so", ".c",   ".cc", ".cpp",
                                                                 ".cxx", ".cu", ".cuh", ".h",  ".hpp"};
    return word.find(".so.") != std::string_view::npos ||
        std::any_of(sources.begin(), sources.end(),
                    [&](std::string_view tail) { return word.size() > tail.size() && word.ends_with(tail); });
}

bool stripPdshHost(std::string_view& s, std::string_view& host)
{
    // Kernel device names that start dmesg lines the same way (`ata1: SATA link up`, `eth0: ...`, `CPU3: Core
    // temperature ...`, `nvidia-nvswitch1: SXid ...`, `rxe0: Port: 1 Link DOWN`, `ens5: The number of lost tx
    // completions ...`, Solaris' `hermon0:` / `mcxnex0:` HCAs), lm-sensors' `temp1:` / `fan1:` readings, Ceph's `mds0:`
    // daemon, and rank tags of training scripts: the letters before the first digit.
    static constexpr std::array<std::string_view, 36> notHosts = {"ata",    "eth",
                                                                  "ib",     "bond",
                                                                  "nvme",   "sd",
                                                                  "md",     "scsi",
                                                                  "usb",    "mlx",
                                                                  "hub",    "em",
                                                                  "en",     "br",
                                                                  "veth",   "loop",
                                                                  "dm",     "tty",
                                                                  "cpu",    "CPU",
                                                                  "GPU",    "rank",
                                                                  "Rank",   "nvidia",
                                                                  "ens",    "enp",
                                                                  "eno",    "ibp",
                                                                  "rxe",    "rocep",
                                                                  "mds",    "hermon",
                                                                  "mcxnex", "nvidia-nvswitch",
                                                                  "temp",   "fan"};
    const std::size_t colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 63 || startsWith(s, "slurmstepd"))
        return false;  // `slurmstepd-<host>: ` is Slurm's own prefix
    const std::string_view name = s.substr(0, colon);
    if (isIpv4Address(name) && charAt(s, colon + 1, ' ')) {
        host = name;
        s = s.substr(colon + 2);
        return true;
    }
    const std::size_t digit = name.find_first_of("0123456789");
    if (!isHostName(name) || digit == std::string_view::npos || name.back() == '.')
        return false;
    if (std::find(notHosts.begin(), notHosts.end(), name.substr(0, digit)) != notHosts.end())
        return false;
    // Programs whose names hold a digit and that start their own lines (`enroot-aufs2ovlfs: ...`, `python3: can't
    // open file`, `s3fs: could not determine ...`, `fusermount3: fuse device ...`, `e2fsck: ...`, gcc's `cc1: some
    // warnings being treated as errors`), elapsed times (`1.017s: job.exception ...`, flux's event log) and sensor
    // rows: no hosts.
    static constexpr std::array<std::string_view, 18> programs = {
        "enroot-", "python",   "e2fsck", "mount.",     "mkfs.", "fsck.",  "i2c", "x86",       "ipv6",
        "cc1",     "collect2", "s3fs",   "fusermount", "bzip2", "pbzip2", "lz4", "sha256sum", "md5sum"};
    if (std::any_of(programs.begin(), programs.end(), [&](std::string_view p) { return startsWith(name, p); }) ||
        isElapsedTime(name) || isFileName(name) || isSystemdUnit(name) || isCannErrorCode(name) ||
        isExceptionName(name) || isCamelCase(name) || isSensorReading(s.substr(colon + 1)) ||
        isProgressBar(s.substr(colon + 1)) || isAssertionReport(s.substr(colon + 1)))
        return false;
    if (colon + 1 < s.size() && s[colon + 1] != ' ')
        return false;  // `host:pid:tid` (NCCL), `file:12:` (grep -n), `10.0.0.1:port`
    host = name;
    s = colon + 1 < s.size() ? s.substr(colon + 2) : std::string_view();
    return true;
}

std::size_t kernelTagLength(std::string_view s)
{
    if (startsWith(s, "kernel: "))
        return 8;
    return startsWith(s, "kernel:[") ? 7 : 0;  // `kernel:[75215.928881] msg`: a template without the blank
}

bool stripKernelTag(std::string_view& s, std::string_view& host)
{
    std::string_view rest = s;
    std::string_view named;
    if (kernelTagLength(rest) == 0) {
        const std::size_t space = rest.find(' ');
        if (space == std::string_view::npos || !isHostName(rest.substr(0, space)) ||
            kernelTagLength(rest.substr(space + 1)) == 0)
            return false;
        named = rest.substr(0, space);
        rest.remove_prefix(space + 1);
    }
    host = named;
    s = skipSpaces(rest.substr(kernelTagLength(rest)));
    return true;
}

bool hostNamedBySrun(std::string_view s, std::string_view& host)
{
    constexpr std::string_view lead = "srun: error: ";
    if (!startsWith(s, lead))
        return false;
    constexpr std::string_view nodeFailure = "srun: error: Node failure on ";
    if (startsWith(s, nodeFailure)) {
        const std::string_view rest = s.substr(nodeFailure.size());
        const std::string_view name = rest.substr(0, rest.find_first_of(" ,;"));
        if (!isHostName(name))
            return false;
        host = name;
        return true;
    }
    const std::size_t colon = s.find(": ", lead.size());
    if (colon == std::string_view::npos || !startsWith(s.substr(colon + 2), "task"))
        return false;
    const std::string_view name = s.substr(lead.size(), colon - lead.size());
    if (!isHostName(name))
        return false;
    host = name;
    return true;
}

}  // namespace attrib::importers::detail
