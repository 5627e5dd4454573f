// SPDX-License-Identifier: GPL-3.0-or-later
// Launcher-prefix stripping of application lines (the stamps between them: format_stamps.cpp), kernel and Slurm
// tags, year inference.
#include "importers/format_prefix.h"
#include "importers/format_stamps.h"
#include "importers/timestamps.h"

#include "engine/number.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace attrib::importers::detail {

/// A non-negative decimal of at most `maxDigits` digits at `pos`.
bool readInt(std::string_view s, std::size_t& pos, int& out, std::size_t maxDigits)
{
    std::size_t end = pos;
    while (end < s.size() && engine::isDigit(s[end]) && end - pos < maxDigits + 1)
        ++end;
    if (end == pos || end - pos > maxDigits)
        return false;
    const auto value = engine::parseInteger<int>(s.substr(pos, end - pos));
    if (!value)
        return false;
    out = *value;
    pos = end;
    return true;
}

bool charAt(std::string_view s, std::size_t pos, char c)
{
    return pos < s.size() && s[pos] == c;
}

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return engine::isDigit(c); });
}

namespace {

bool isHostChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

}  // namespace

/// A host name token: letters, digits, `-`, `_`, `.`, with at least one letter.
bool isHostName(std::string_view s)
{
    if (s.empty() || s.size() > 253)
        return false;
    bool letter = false;
    for (const char c : s) {
        if (!isHostChar(c))
            return false;
        letter = letter || std::isalpha(static_cast<unsigned char>(c));
    }
    return letter;
}

namespace {

using engine::isDigit;

/// `[rank3]:` plus the one space PyTorch puts before Python output (indentation after it is kept).
bool stripRank(std::string_view& s, int& rank)
{
    std::size_t pos = 5;
    int value = 0;
    if (!startsWith(s, "[rank") || !readInt(s, pos, value) || !charAt(s, pos, ']'))
        return false;
    if (charAt(s, pos + 1, ' ')) {  // `[rank3] RuntimeError: ...`: a retyped or logger-written form without the colon
        rank = value;
        s.remove_prefix(pos + 2);
        return true;
    }
    if (!charAt(s, pos + 1, ':'))
        return false;
    rank = value;
    s.remove_prefix(charAt(s, pos + 2, ' ') ? pos + 3 : pos + 2);
    return true;
}

/// Open MPI `--tag-output`: `[jobid,rank]<stdout>:`, `<stderr>`, `<stddiag>`; the SageMaker training toolkit
/// rewrites it to `[jobid,mpirank:rank,host]<stderr>:` (sagemaker-training-toolkit, process.watch).
bool stripMpi(std::string_view& s, int& rank)
{
    std::size_t pos = 1;
    int job = 0;
    int value = 0;
    if (!charAt(s, 0, '[') || !readInt(s, pos, job) || !charAt(s, pos++, ','))
        return false;
    const bool sagemaker = startsWith(s.substr(pos), "mpirank:");
    pos += sagemaker ? 8 : 0;
    if (!readInt(s, pos, value))
        return false;
    if (sagemaker && charAt(s, pos, ',')) {
        const std::size_t close = s.find(']', pos);
        if (close == std::string_view::npos || close > pos + 254 || !isHostName(s.substr(pos + 1, close - pos - 1)))
            return false;
        pos = close;
    }
    if (!charAt(s, pos++, ']'))
        return false;
    static constexpr std::array<std::string_view, 3> streams = {"<stdout>:", "<stderr>:", "<stddiag>:"};
    for (const auto stream : streams) {
        if (startsWith(s.substr(pos), stream)) {
            rank = value;
            s.remove_prefix(pos + stream.size());
            return true;
        }
    }
    return false;
}

/// srun --label `12: ` (right-aligned, so leading spaces are allowed).
bool stripLabel(std::string_view& s, int& rank)
{
    std::size_t pos = 0;
    while (pos < s.size() && pos < 6 && s[pos] == ' ')
        ++pos;
    int value = 0;
    if (!readInt(s, pos, value, 6) || !charAt(s, pos, ':') || !charAt(s, pos + 1, ' '))
        return false;
    rank = value;
    s.remove_prefix(pos + 2);
    return true;
}

/// torchrun `--tee` / torch elastic: `[default0]:` (role name and local rank; the local rank is not the global
/// rank, so it is not taken).
bool stripRole(std::string_view& s)
{
    if (!charAt(s, 0, '['))
        return false;
    std::size_t pos = 1;
    while (pos < s.size() && pos < 64 && (std::isalpha(static_cast<unsigned char>(s[pos])) || s[pos] == '_'))
        ++pos;
    int local = 0;
    if (pos == 1 || !readInt(s, pos, local, 4) || !charAt(s, pos, ']') || !charAt(s, pos + 1, ':'))
        return false;
    s.remove_prefix(pos + 2);
    return true;
}

/// A stream tag a tool put before each line of a process' output: `[stderr] ` or `[stdout] ` (agent and job
/// runners pasting a command's output, e.g. `[stderr] Traceback (most recent call last):`), with or without a colon,
/// and the one space after it when there is one: a runner that writes the tag right before the text
/// (`[stderr]ModuleNotFoundError: ...` under a `[stderr]  File "..."` frame, pytorch#77737) tags the same stream.
bool stripStreamTag(std::string_view& s)
{
    static constexpr std::array<std::string_view, 2> tags = {"[stderr]", "[stdout]"};
    for (const auto tag : tags) {
        if (!startsWith(s, tag))
            continue;
        std::size_t pos = tag.size();
        if (charAt(s, pos, ':'))
            ++pos;
        s.remove_prefix(charAt(s, pos, ' ') ? pos + 1 : pos);  // one space: indentation after it is the output's own
        return true;
    }
    return false;
}

/// A logger's name in brackets before its record's ISO stamp: torchtitan's `[titan] 2025-03-01 10:00:00,123 - root -
/// INFO - ...` (torchtitan/tools/logging.py). Only with a stamp after it, so a bracketed word of a message stays.
bool stripLoggerTag(std::string_view& s)
{
    if (!charAt(s, 0, '['))
        return false;
    std::size_t pos = 1;
    while (pos < s.size() && pos <= 32 &&
           (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '-' || s[pos] == '.'))
        ++pos;
    if (pos == 1 || !charAt(s, pos, ']') || !charAt(s, pos + 1, ' ') || !parseIso8601(s.substr(pos + 2)))
        return false;
    s.remove_prefix(pos + 2);
    return true;
}

/// Metaflow's task prefix, `[<run>/<step>/<task> (pid N)] ` (metaflow/runtime.py, Worker.log at d2dd7f95), or
/// `[<run>/<step>/<task>] ` for the runtime's own messages when the run and task ids are numbers (a local run).
bool stripMetaflowTask(std::string_view& s)
{
    const std::size_t close = s.find("] ");
    if (!charAt(s, 0, '[') || close == std::string_view::npos || close > 200)
        return false;
    std::string_view inside = s.substr(1, close - 1);
    const std::size_t pid = inside.find(" (pid ");
    if (pid != std::string_view::npos) {
        std::size_t pos = pid + 6;
        int value = 0;
        if (!readInt(inside, pos, value) || pos + 1 != inside.size() || inside[pos] != ')')
            return false;
        inside = inside.substr(0, pid);
    }
    const std::size_t first = inside.find('/');
    const std::size_t second = first == std::string_view::npos ? first : inside.find('/', first + 1);
    if (first == 0 || second == std::string_view::npos || second + 1 >= inside.size() ||
        inside.find_first_of(" /", second + 1) != std::string_view::npos || inside.find(' ') != std::string_view::npos)
        return false;
    const std::string_view run = inside.substr(0, first);
    const std::string_view step = inside.substr(first + 1, second - first - 1);
    const std::string_view task = inside.substr(second + 1);
    const auto identifier = [](std::string_view w) {
        if (w.empty() || std::isdigit(static_cast<unsigned char>(w[0])))
            return false;
        return std::all_of(w.begin(), w.end(),
                           [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    };
    if (!identifier(step) || (pid == std::string_view::npos && !(allDigits(run) && allDigits(task))))
        return false;
    s.remove_prefix(close + 2);
    return true;
}

/// MPICH / Intel MPI Hydra: `[proxy:0:1@host] `, `[mpiexec@host] ` or Intel's bootstrap proxy `[bstrap:0:-1@host] `.
bool stripHydraHost(std::string_view& s, std::string_view& host)
{
    const std::size_t close = s.find("] ");
    const std::size_t atSign = s.find('@');
    if (!charAt(s, 0, '[') || close == std::string_view::npos || close > 300 || atSign > close)
        return false;
    const std::string_view who = s.substr(1, atSign - 1);
    if (!startsWith(who, "proxy:") && !startsWith(who, "bstrap:") && who != "mpiexec")
        return false;
    const std::string_view name = s.substr(atSign + 1, close - atSign - 1);
    if (!isHostName(name))
        return false;
    host = name;
    s = skipSpaces(s.substr(close + 2));
    return true;
}

/// Open MPI `[host:pid] ` (error messages and signal reports name the host that way), UCX `[host:pid:thread] ` with the
/// pid padded to five columns (`[node-053:1869 :0]`, ucs/debug/log.c). UCX's fatal-error prefix
/// `[host:pid:index:thread]` stays in the text, where rules read it (a container's short id for a host).
bool stripMpiHost(std::string_view& s, std::string_view& host)
{
    if (stripHydraHost(s, host))
        return true;
    if (!charAt(s, 0, '['))
        return false;
    const std::size_t colon = s.find(':');
    if (colon == std::string_view::npos || colon > 254 || !isHostName(s.substr(1, colon - 1)) ||
        isFileName(s.substr(1, colon - 1)))
        return false;  // `[rulebook.cu:273] (Error) CUDA Runtime error`: a program's source location
    std::size_t pos = colon + 1;
    int pid = 0;
    const bool padded = charAt(s, pos, '0');
    if (!readInt(s, pos, pid) || (padded && pos - colon - 1 != 5))
        return false;  // Open MPI pads a pid to five digits (`[binf316:04549]`, `%05d`); `[21-Mar-25_03:03:09]` is
                       // a stamp (DOCA's driver container)
    for (int padding = 0; padding < 4 && charAt(s, pos, ' '); ++padding)
        ++pos;
    int thread = 0;
    if (charAt(s, pos, ':') && !readInt(s, ++pos, thread))
        return false;
    if (!charAt(s, pos, ']') || !charAt(s, pos + 1, ' '))
        return false;
    host = s.substr(1, colon - 1);
    s = skipSpaces(s.substr(pos + 2));
    return true;
}

/// One round of prefix stripping; returns the mark of what was removed, 0 when nothing was.
unsigned stripOnce(std::string_view& s, unsigned marks, YearTracker& years, ParsedLine& out)
{
    if (stripRank(s, out.rank))
        return MarkRank;
    if (stripMpi(s, out.rank))
        return MarkMpi;
    if (stripGlogBracket(s, years, out))
        return MarkGlog;
    unsigned isoMark = 0;
    if (stripBracketIso(s, out, isoMark))
        return isoMark;
    if (stripEpochBracket(s, out))
        return MarkIso;
    if (stripBareIso(s, out) || stripGoLogStamp(s, out))
        return MarkIso;
    if (stripBareGlog(s, years, out))
        return MarkGlog;
    if ((marks & (MarkIso | MarkPyLog | MarkGlog | MarkTag)) == 0 && stripLoggerTag(s))
        return MarkTag;
    if (stripRole(s) || stripStreamTag(s))
        return MarkRole;
    if ((marks & MarkIso) != 0 && (stripCriStream(s) || stripLokiLabels(s, out.host)))
        return MarkRole;
    if (stripPod(s))
        return MarkPod;
    if (stripMetaflowTask(s))
        return MarkRole;
    if (std::string_view ip; const std::size_t ray = rayPrefixLength(s, &ip)) {
        if (out.host.empty() && !ip.empty())
            out.host = ip;  // the node the worker runs on
        s.remove_prefix(ray);
        return MarkRole;
    }
    if (out.host.empty() && stripMpiHost(s, out.host))
        return MarkHost;
    if (marks == 0 && stripComposeService(s))
        return MarkRole;
    if (marks == 0 && stripSternPod(s))
        return MarkPod;
    // pdsh / clush add their `node01: ` outermost, before every other prefix of the line.
    if (marks == 0 && out.host.empty() && stripPdshHost(s, out.host))
        return MarkPdsh;
    if ((marks & MarkProse) == 0 && stripProse(s))
        return MarkProse;
    // srun adds its label outermost, so it is only looked for before any rank or message prefix.
    if ((marks & (MarkRank | MarkMpi | MarkLabel | MarkGlog)) == 0 && stripLabel(s, out.rank))
        return MarkLabel;
    return 0;
}

}  // namespace

int YearTracker::yearFor(int month)
{
    if (m_year == 0)
        return 0;
    if (m_lastMonth != 0 && m_lastMonth - month > 6)
        ++m_year;
    m_lastMonth = month;
    return m_year;
}

void YearTracker::anchor(TimeNs dated)
{
    if (dated == engine::NoTime)
        return;
    const engine::CivilTime c = engine::civilTime(dated);
    m_year = c.year;
    m_lastMonth = c.month;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

std::string_view skipSpaces(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(' ');
    return first == std::string_view::npos ? std::string_view() : s.substr(first);
}

void offerTime(ParsedLine& out, TimeNs time, TimeSource source)
{
    if (out.time == engine::NoTime || static_cast<int>(source) < static_cast<int>(out.timeSource)) {
        out.time = time;
        out.timeSource = source;
    }
}

std::size_t programTagLength(std::string_view s)
{
    constexpr std::size_t MaxName = 64;
    std::size_t pos = 0;
    while (pos < s.size() && pos <= MaxName &&
           (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.' || s[pos] == '-'))
        ++pos;
    if (pos == 0 || pos > MaxName || !charAt(s, pos, '['))
        return 0;
    const std::size_t digits = ++pos;
    while (pos < s.size() && engine::isDigit(s[pos]))
        ++pos;
    return pos > digits && s.substr(pos, 3) == "]: " ? pos + 3 : 0;
}

std::size_t rayPrefixLength(std::string_view s, std::string_view* ip)
{
    // Ray's log monitor: `(pid=123) `, `(RayTrainWorker pid=123) `, `(TrainTrainable pid=123, ip=10.0.0.1) `.
    if (!charAt(s, 0, '('))
        return 0;
    std::size_t pos = s.find("pid=", 1);
    if (pos == std::string_view::npos || pos > 130 || (pos > 1 && s[pos - 1] != ' '))
        return 0;
    int depth = 0;  // a Ray Data worker's name nests its operators: `MapWorker(MapBatches(vLLMEngineStageUDF))`
    for (std::size_t i = 1; i + 1 < pos; ++i) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (s[i] == ' ' || depth < 0)
            return 0;
    }
    if (depth != 0)
        return 0;
    pos += 4;
    int pid = 0;
    if (!readInt(s, pos, pid))
        return 0;
    std::string_view address;
    if (startsWith(s.substr(pos), ", ip=")) {
        pos += 5;
        const bool bracketed = charAt(s, pos, '[');  // an IPv6 address: `ip=[fdbd:dccd:cdd2:2207::30f]`
        pos += bracketed ? 1 : 0;
        const std::size_t start = pos;
        while (pos < s.size() && pos - start < 64 &&
               (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '.' || s[pos] == ':' || s[pos] == '-' ||
                s[pos] == '_'))
            ++pos;  // an address, or a host name where the cluster reports one (`ip=jwb0582i`)
        if (pos == start || (bracketed && !charAt(s, pos, ']')))
            return 0;
        address = s.substr(start, pos - start);
        pos += bracketed ? 1 : 0;
    }
    if (!charAt(s, pos++, ')'))
        return 0;
    const std::size_t length = charAt(s, pos, ' ') ? pos + 1 : pos == s.size() ? pos : 0;
    if (ip != nullptr && length > 0)
        *ip = address;
    return length;
}

void hashStreamPart(std::uint64_t& hash, std::string_view prefix)
{
    const std::size_t first = prefix.find_first_not_of(' ');
    const std::size_t last = prefix.find_last_not_of(' ');
    if (first == std::string_view::npos)
        return;
    if (hash == 0)
        hash = 14695981039346656037ull;
    for (const char c : prefix.substr(first, last - first + 1))
        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    hash = (hash ^ 0xffu) * 1099511628211ull;  // a separator, so that two prefixes never read as one
}

namespace {

constexpr unsigned LauncherMarks = MarkRank | MarkMpi | MarkLabel | MarkRole | MarkPod | MarkHost | MarkPdsh;

}  // namespace

unsigned stripAppPrefixes(std::string_view line, YearTracker& years, ParsedLine& out)
{
    unsigned marks = 0;
    std::string_view s = line;
    std::uint64_t stream = 0;
    for (int round = 0; round < 16; ++round) {
        // Stamps first: a collector stamp `2026-04-22T21:34:20 [3]` must not pass for an NCCL `host:pid:tid [dev]`.
        const std::string_view before = s;
        const unsigned mark = stripOnce(s, marks, years, out);
        if (mark == 0 && (marks & LauncherMarks) != 0) {
            // A quote marker behind a launcher's prefix: a paste quoted inside a container's or a rank's output
            // (`trainer-1  | > TypeError: ...`), read as the line it quotes.
            if (const std::string_view unquoted = stripQuoteMarkers(s); unquoted.size() != s.size()) {
                s = unquoted;
                continue;
            }
        }
        if ((mark & LauncherMarks) != 0) {
            // The prefix without the blanks after it: `[stderr] ` and `[stderr]` tag one stream.
            std::string_view prefix = before.substr(0, before.size() - s.size());
            while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t'))
                prefix.remove_suffix(1);
            hashStreamPart(stream, prefix);
        }
        if (mark == 0) {
            const std::string_view pdsh = (marks & MarkPdsh) != 0 ? out.host : std::string_view();
            if (matchNcclPrefix(s, out.host, out.gpu))
                marks |= MarkNccl;
            else if (out.host.empty())
                hostNamedBySrun(s, out.host);
            if (out.host.empty())
                findEmbeddedNcclPrefix(s, out.host, out.gpu);
            if (!pdsh.empty())
                out.host = pdsh;  // the name the operator reached the node by, over the machine's own
            break;
        }
        marks |= mark;
    }
    if (out.time == engine::NoTime)
        takeLoggerStamp(s, out);
    if (out.time == engine::NoTime)
        takeSelStamp(s, out);
    if (out.time == engine::NoTime)
        takeSlashStamp(s, out);
    out.text = s;
    out.stream = stream;
    out.logHeader = (marks & (MarkGlog | MarkPyLog | MarkNccl)) != 0;
    return marks;
}

bool hasAppMarker(std::string_view line)
{
    static constexpr std::array<std::string_view, 11> markers = {"Traceback (most recent call last):",
                                                                 "torch.distributed",
                                                                 "ProcessGroupNCCL",
                                                                 " NCCL WARN ",
                                                                 " NCCL INFO ",
                                                                 "NCCL error",
                                                                 "CUDA error",
                                                                 "ChildFailedError",
                                                                 "torchrun",
                                                                 "RuntimeError: ",
                                                                 "CUDA out of memory"};
    for (const auto marker : markers)
        if (line.find(marker) != std::string_view::npos)
            return true;
    return false;
}

bool stripSlurmstepd(std::string_view& s, std::string_view& host)
{
    if (startsWith(s, "slurmstepd: ")) {
        s = skipSpaces(s.substr(12));
        return true;
    }
    if (!startsWith(s, "slurmstepd-"))
        return false;
    const std::size_t colon = s.find(": ", 11);
    if (colon == std::string_view::npos || colon == 11 || s.substr(11, colon - 11).find(' ') != s.npos)
        return false;
    host = s.substr(11, colon - 11);
    s = skipSpaces(s.substr(colon + 2));
    return true;
}

bool isSlurmLine(std::string_view s)
{
    std::string_view host;
    if (startsWith(s, "srun: ") || stripSlurmstepd(s, host))
        return true;
    const bool banner = s.find("*** JOB ") != s.npos || s.find("*** STEP ") != s.npos;
    return banner && (s.find(" CANCELLED AT ") != s.npos || s.find(" FAILED ") != s.npos);
}

}  // namespace attrib::importers::detail
