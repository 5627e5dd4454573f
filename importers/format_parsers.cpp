// SPDX-License-Identifier: GPL-3.0-or-later
// The per-format line parsers: split a line into stamp, host, rank, device and message body.
#include "importers/format_parsers.h"

#include "importers/format_prefix.h"
#include "importers/timestamps.h"

#include "engine/number.h"

#include <cctype>
#include <map>
#include <string>

namespace attrib::importers::detail {

namespace {

bool startsWithDigit(std::string_view s)
{
    return !s.empty() && s[0] >= '0' && s[0] <= '9';
}

/// A parser of one line form: an unusable line is refused before `read` sees it, `out` starts empty.
class FormParser : public LineParser {
public:
    bool parse(std::string_view line, ParsedLine& out) final
    {
        out = {};
        if (isUnusable(line))
            return false;
        return read(line, out);
    }

protected:
    virtual bool read(std::string_view line, ParsedLine& out) = 0;
};

/// The `<N>` priority and a pdsh / clush `node-02: ` host prefix (taken as the line's host) before a kernel stamp.
std::string_view stripKernelPrefixes(std::string_view line, ParsedLine& out)
{
    std::string_view s = stripPriority(line);
    std::string_view host;
    if (stripHostPrefix(s, host))
        out.host = host;
    return stripPriority(s);
}

/// The message after a stamp of `length` bytes at the start of `s`.
void takeBody(std::string_view s, std::size_t length, ParsedLine& out)
{
    const std::string_view body = stripCallerId(s.substr(length));
    out.text = skipSpaces(body);
    out.stamped = true;
    out.indented = isIndented(body);
}

class KernelRingParser final : public FormParser {
public:
    explicit KernelRingParser(TimeNs bootTime)
        : m_bootTime(bootTime)
    {
    }

    bool read(std::string_view line, ParsedLine& out) override
    {
        const std::string_view s = stripKernelPrefixes(line, out);
        if (const auto stamp = parseDmesgT(s)) {
            offerTime(out, stamp->time, TimeSource::Absolute);
            takeBody(s, stamp->length, out);
        } else if (const auto raw = parseDmesgRaw(s)) {
            if (m_bootTime != engine::NoTime)
                offerTime(out, m_bootTime + raw->time, TimeSource::Absolute);
            else
                offerTime(out, raw->time, TimeSource::BootRelative);
            out.uptime = raw->time;
            takeBody(s, raw->length, out);
        } else {
            out.text = line;
        }
        return true;
    }

private:
    TimeNs m_bootTime;
};

class SyslogParser final : public FormParser {
public:
    explicit SyslogParser(int year)
        : m_years(year)
    {
    }

    bool read(std::string_view line, ParsedLine& out) override
    {
        const std::string_view s = stripPriority(line);
        const std::size_t length = takeStamp(s, out);
        SyslogHeader header;
        if (length == 0 || !splitSyslogHeader(s.substr(length), header)) {
            out.text = length == 0 ? line : skipSpaces(s.substr(length));
            out.stamped = length != 0;
            return true;
        }
        out.host = header.host;
        out.tag = header.tag;
        out.stamped = true;
        out.indented = header.indented;
        // Kernel lines lose `kernel:` and the forwarded uptime so they read exactly as in dmesg; daemon
        // lines keep their `tag[pid]:` so rules can tell the programs apart.
        if (header.tag == "kernel") {
            if (const auto up = parseDmesgRaw(header.body)) {
                out.uptime = up->time;
                out.indented = isIndented(header.body.substr(up->length));
            }
            out.text = stripUptime(header.body);
        } else {
            out.text = header.rest;
        }
        return true;
    }

private:
    std::size_t takeStamp(std::string_view s, ParsedLine& out)
    {
        if (startsWithDigit(s)) {
            const auto iso = parseIso8601(s);
            if (!iso)
                return 0;
            offerTime(out, iso->time, TimeSource::Absolute);
            return iso->length;
        }
        const auto probe = parseRfc3164(s, 2000);  // leap year: Feb 29 passes until the real year is known
        if (!probe)
            return 0;
        const int year = m_years.yearFor(monthAt(s));
        if (year != 0)
            if (const auto stamp = parseRfc3164(s, year))
                offerTime(out, stamp->time, TimeSource::YearInferred);
        return probe->length;
    }

    YearTracker m_years;
};

/// A syslog facility.level word as some exports print it before the tag (`kern.err`, `kern.warning`, `daemon.info`;
/// busybox/OpenWrt logread, Docker Desktop's VM log, syslog-ng's `$FACILITY.$PRIORITY` templates).
bool isFacilityLevel(std::string_view word)
{
    const std::size_t dot = word.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 >= word.size())
        return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
        const auto c = static_cast<unsigned char>(word[i]);
        if (i != dot && !std::islower(c) && !(std::isdigit(c) && i < dot))
            return false;
    }
    return true;
}

/// A whole syslog line a log platform or container runtime stored as its message, behind its own prefix
/// (`2026-12-01T10:11:12Z stderr F Dec  1 10:11:12 gpu-node-7 nvidia-persistenced[812]: msg`): a daemon's line keeps
/// `tag[pid]: msg` as the syslog reader does and becomes a syslog record of the host it names. Kernel lines are left
/// to takeKernelLine (which reads them behind the same stamp).
bool takeSyslogLine(ParsedLine& out)
{
    const auto stamp = parseRfc3164(out.text, 2000);
    SyslogHeader header;
    if (!stamp || !splitSyslogHeader(out.text.substr(stamp->length), header) || header.tag.empty() ||
        header.tag == "kernel" || !isHostName(header.host))
        return false;
    out.host = header.host;
    out.tag = header.tag;
    out.text = header.rest;
    out.kind = engine::SourceKind::Syslog;
    return true;
}

/// A kernel line inside an application log or job output, after the line's stamp: `kernel: msg`,
/// `host kernel: msg` behind a stamp, a syslog export's `[UTC] kern.err [host] kernel: msg`, or a whole syslog kernel
/// line (`Dec  1 10:11:12 host kernel: msg`) behind a platform's prefix. It becomes a kernel record (tag and forwarded
/// uptime removed, as the syslog reader does), so kernel extractors read it.
bool takeKernelLine(ParsedLine& out)
{
    std::string_view s = out.text;
    // A dmesg line pasted among the application's: `[Mon Dec  1 10:11:12 2026] NVRM: ...` (dmesg -T) or
    // `[ 1234.567890] NVRM: ...` (the six decimals dmesg prints; an application's own elapsed-time brackets rarely
    // have them).
    if (const auto stamp = parseDmesgT(s)) {
        offerTime(out, stamp->time, TimeSource::Absolute);
        out.text = skipSpaces(s.substr(stamp->length));
        out.tag = "kernel";
        out.kind = engine::SourceKind::Kernel;
        return true;
    }
    if (const auto up = parseDmesgRaw(s); up && up->length >= 9 && s[up->length - 8] == '.') {
        out.uptime = up->time;
        out.text = skipSpaces(s.substr(up->length));
        out.tag = "kernel";
        out.kind = engine::SourceKind::Kernel;
        return true;
    }
    bool tagged = false;  // a facility.level word or a syslog stamp vouches for what follows
    if (const auto stamp = parseRfc3164(s, 2000)) {
        s = skipSpaces(s.substr(stamp->length));
        tagged = true;
    }
    std::size_t space = s.find(' ');
    for (int word = 0; word < 2 && space != std::string_view::npos; ++word) {
        const std::string_view w = s.substr(0, space);
        const bool zone = w == "UTC" || w == "GMT" || w == "Z";
        if (!zone && !isFacilityLevel(w))
            break;
        tagged = tagged || !zone;
        s = skipSpaces(s.substr(space + 1));
        space = s.find(' ');
    }
    // Every application line passes here: reject on the words' positions before any host-name check. The tag
    // opens the text, or follows one word (a host) that only a stamp or a facility word makes more than prose
    // ("CUDA kernel: ...").
    if (!startsWith(s, "kernel: ") &&
        (space == std::string_view::npos || !startsWith(s.substr(space + 1), "kernel: ") ||
         (!tagged && out.time == engine::NoTime)))
        return false;
    std::string_view host;
    std::string_view body = s;
    if (!stripKernelTag(body, host))
        return false;
    if (!host.empty())
        out.host = host;
    if (const auto up = parseDmesgRaw(body))
        out.uptime = up->time;
    out.text = stripUptime(body);
    out.tag = "kernel";
    out.kind = engine::SourceKind::Kernel;
    return true;
}

/// Application logs; with `jobOutput`, a job's stdout/stderr whose srun / slurmstepd lines name their host.
class AppParser final : public FormParser {
public:
    AppParser(int year, bool jobOutput)
        : m_years(year)
        , m_jobOutput(jobOutput)
    {
    }

    bool read(std::string_view line, ParsedLine& out) override
    {
        stripAppPrefixes(line, m_years, out);
        std::string_view host;
        if (m_jobOutput && out.host.empty() && stripSlurmstepd(out.text, host))
            out.host = host;
        else if (!takeKernelLine(out))
            takeSyslogLine(out);
        out.stamped = out.time != engine::NoTime;
        return true;
    }

private:
    YearTracker m_years;
    bool m_jobOutput;
};

class SlurmDaemonParser final : public FormParser {
public:
    bool read(std::string_view line, ParsedLine& out) override
    {
        out.text = line;
        if (line.empty() || line[0] != '[')
            return true;
        const auto stamp = parseIso8601(line.substr(1));
        if (stamp && stamp->length + 1 < line.size() && line[stamp->length + 1] == ']') {
            offerTime(out, stamp->time, TimeSource::Absolute);
            out.text = skipSpaces(line.substr(stamp->length + 2));
            out.stamped = true;
        }
        return true;
    }
};

class FabricManagerParser final : public FormParser {
public:
    bool read(std::string_view line, ParsedLine& out) override
    {
        out.text = line;
        if (const auto stamp = parseFabricManager(line)) {
            offerTime(out, stamp->time, TimeSource::Absolute);  // FM writes local time; taken as UTC
            out.text = skipSpaces(line.substr(stamp->length));
            out.stamped = true;
        }
        return true;
    }
};

/// RFC 5424: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] MSG` (NILVALUE `-` allowed in every header field).
class Rfc5424Parser final : public FormParser {
public:
    bool read(std::string_view line, ParsedLine& out) override
    {
        Rfc5424Header h;
        if (!splitRfc5424(line, h)) {
            out.text = line;
            return true;
        }
        out.stamped = true;
        if (h.time != engine::NoTime)
            offerTime(out, h.time, TimeSource::Absolute);
        out.host = h.host == "-" ? std::string_view() : h.host;
        out.tag = h.app == "-" ? std::string_view() : h.app;
        out.indented = isIndented(h.message);
        if (h.app == "kernel") {
            if (const auto up = parseDmesgRaw(h.message))
                out.uptime = up->time;
            out.text = stripUptime(h.message);
        } else {
            m_text.assign(h.app);
            if (h.procid != "-")
                m_text.append("[").append(h.procid).append("]");
            m_text.append(": ").append(h.message);
            out.text = m_text;
        }
        return true;
    }

private:
    std::string m_text;  ///< `app[procid]: msg` rebuilt from the header fields; out.text views it
};

class DmesgReltimeParser final : public FormParser {
public:
    explicit DmesgReltimeParser(int year)
        : m_years(year)
    {
    }

    bool read(std::string_view line, ParsedLine& out) override
    {
        const std::string_view s = stripKernelPrefixes(line, out);
        std::size_t length = 0;
        if (const auto probe = parseDmesgHuman(s, 2000)) {  // leap year: Feb 29 passes until the year is known
            length = probe->length;
            const int year = m_years.yearFor(monthAt(s.substr(1)));
            const auto stamp = year != 0 ? parseDmesgHuman(s, year) : std::nullopt;
            m_last = stamp ? stamp->time : engine::NoTime;
        } else if (const auto delta = parseDmesgDelta(s)) {
            length = delta->length;
            m_last = m_last == engine::NoTime ? m_last : m_last + delta->time;
        } else {
            out.text = line;
            return true;
        }
        if (m_last != engine::NoTime)
            offerTime(out, m_last, TimeSource::YearInferred);
        takeBody(s, length, out);
        return true;
    }

private:
    YearTracker m_years;
    TimeNs m_last = engine::NoTime;  ///< time of the previous message: deltas add to it
};

/// `dmesg --time-format iso`: an ISO 8601 stamp, then the kernel message (no host, no tag).
class DmesgIsoParser final : public FormParser {
public:
    bool read(std::string_view line, ParsedLine& out) override
    {
        const std::string_view s = stripKernelPrefixes(line, out);
        const auto stamp = parseIso8601(s);
        if (!stamp) {
            out.text = line;
            return true;
        }
        offerTime(out, stamp->time, TimeSource::Absolute);
        takeBody(s, stamp->length, out);
        return true;
    }
};

/// `kernel: msg` or `host kernel: [ 12.3] msg`: kernel lines copied without their syslog stamp.
class KernelBareParser final : public FormParser {
public:
    bool read(std::string_view line, ParsedLine& out) override
    {
        std::string_view s = stripPriority(line);
        std::string_view host;
        if (!stripKernelTag(s, host)) {
            out.text = line;
            return true;
        }
        out.host = host;
        out.stamped = true;
        if (const auto up = parseDmesgRaw(s)) {
            out.uptime = up->time;
            offerTime(out, up->time, TimeSource::BootRelative);
            out.indented = isIndented(s.substr(up->length));
        }
        out.text = stripUptime(s);
        return true;
    }
};

/// Plain text: every line goes to the parser of its own form, so a file mixing forms keeps each line's stamp.
/// The line after a grep file-name prefix (`name:` or `name:123:`, a name without blanks), "" when there is none.
std::string_view afterGrepFileName(std::string_view line)
{
    const std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon > 255)
        return {};
    for (const char c : line.substr(0, colon))
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '/'))
            return {};
    std::string_view rest = line.substr(colon + 1);
    std::size_t digits = 0;
    while (digits < rest.size() && engine::isDigit(rest[digits]))
        ++digits;
    if (digits > 0 && digits < rest.size() && rest[digits] == ':')
        rest.remove_prefix(digits + 1);
    else
        digits = 0;
    // `file.c:598:5: error: ...`: a compiler's (or linter's) diagnostic names its line and column; the whole line
    // is the message, no grep output.
    std::size_t column = 0;
    while (digits > 0 && column < rest.size() && engine::isDigit(rest[column]))
        ++column;
    if (column > 0 && column < rest.size() && rest[column] == ':')
        return {};
    return rest.empty() || rest[0] == ' ' ? std::string_view() : rest;
}

/// A syslog kernel line quoted inside another message (an alert, a chat or ticket paste: `Xid errors on instance:
/// node7, Error: May 29 01:37:38 node7 kernel: NVRM: ...`): the quoted line from its stamp on, "" when there is none.
std::string_view quotedKernelLine(std::string_view line)
{
    const std::size_t tag = line.find(" kernel: ");
    if (tag == std::string_view::npos || tag == 0)
        return {};
    const std::size_t hostStart = line.rfind(' ', tag - 1);
    if (hostStart == std::string_view::npos)
        return {};
    // The stamp before the host: RFC 3164 `May 29 01:37:38` or an ISO 8601 one, at most 40 bytes.
    const std::size_t lowest = hostStart > 40 ? hostStart - 40 : 0;
    for (std::size_t start = lowest; start < hostStart; ++start) {
        if (start > 0 && line[start - 1] != ' ')
            continue;
        const std::string_view quoted = line.substr(start);
        const Format format = lineFormatOf(quoted);
        if (format != Format::None && format != Format::App)
            return quoted;
    }
    return {};
}

class PlainTextParser final : public LineParser {
public:
    explicit PlainTextParser(const TimeHints& hints)
        : m_hints(hints)
    {
    }

    bool parse(std::string_view line, ParsedLine& out) override
    {
        if (isUnusable(line)) {
            out = {};
            return false;
        }
        Format format = lineFormatOf(line);
        std::string_view pdsh;
        if (format == Format::None) {
            // `pdsh -w node[01-04] 'grep NVRM /var/log/messages'`: `node01: Jun 17 20:18:08 host kernel: ...`
            std::string_view inner = line;
            if (stripPdshHost(inner, pdsh) && lineFormatOf(inner) != Format::None) {
                line = inner;
                format = lineFormatOf(inner);
            } else {
                pdsh = {};
            }
        }
        if (format == Format::None) {
            // `grep PATTERN messages*` output: `messages:Jun 17 20:18:08 host kernel: ...` (or `file:123:` with -n)
            // is read as the line grep found, so its stamp and host count.
            const std::string_view found = afterGrepFileName(line);
            if (const Format inner = found.empty() ? Format::None : lineFormatOf(found); inner != Format::None) {
                line = found;
                format = inner;
            }
        }
        if (format == Format::None) {
            if (const std::string_view quoted = quotedKernelLine(line); !quoted.empty()) {
                line = quoted;
                format = lineFormatOf(quoted);
            }
        }
        if (format == Format::None)
            format = Format::App;  // launcher prefixes and framework stamps of any line are still taken
        auto& parser = m_parsers[format];
        if (!parser)
            parser = makeFormatParser(format, m_hints);
        const bool parsed = parser->parse(line, out);
        if (parsed && !pdsh.empty())
            out.host = pdsh;  // the name the operator reached the node by
        return parsed;
    }

private:
    TimeHints m_hints;
    std::map<Format, std::unique_ptr<LineParser>> m_parsers;  ///< one per line form met, with its state
};

class PlainParser final : public LineParser {
public:
    bool parse(std::string_view line, ParsedLine& out) override
    {
        out = {};
        out.text = line;
        return !isUnusable(line);
    }
};

}  // namespace

std::unique_ptr<LineParser> makeFormatParser(Format format, const TimeHints& hints)
{
    switch (format) {
    case Format::DmesgRaw:
    case Format::DmesgT: return std::make_unique<KernelRingParser>(hints.bootTime);
    case Format::DmesgReltime: return std::make_unique<DmesgReltimeParser>(hints.year);
    case Format::DmesgIso: return std::make_unique<DmesgIsoParser>();
    case Format::KernelBare: return std::make_unique<KernelBareParser>();
    case Format::Plain: return std::make_unique<PlainTextParser>(hints);
    case Format::Rfc3164:
    case Format::Iso8601: return std::make_unique<SyslogParser>(hints.year);
    case Format::App: return std::make_unique<AppParser>(hints.year, false);
    case Format::SlurmOut: return std::make_unique<AppParser>(hints.year, true);
    case Format::SlurmDaemon: return std::make_unique<SlurmDaemonParser>();
    case Format::FabricManager: return std::make_unique<FabricManagerParser>();
    case Format::Rfc5424: return std::make_unique<Rfc5424Parser>();
    default: return std::make_unique<PlainParser>();
    }
}

}  // namespace attrib::importers::detail
