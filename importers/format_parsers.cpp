// SPDX-License-Identifier: GPL-3.0-or-later
// The per-format line parsers: split a line into stamp, host, rank, device and message body.
#include "importers/format_parsers.h"

#include "importers/format_embedded.h"
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
        const bool read = this->read(line, out);
        if (out.timeSource == TimeSource::Absolute)
            anchorYear(out.time);
        return read;
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
        auto stamp = parseDmesgT(s);
        if (!stamp)
            stamp = parseTalosStamp(s);
        if (stamp) {
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
            takeProgramMessage(header, out);
        }
        return true;
    }

    void anchorYear(TimeNs dated) override { m_years.anchor(dated); }

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

    void anchorYear(TimeNs dated) override { m_years.anchor(dated); }

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

    void anchorYear(TimeNs dated) override { m_years.anchor(dated); }

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
        if (!parser) {
            parser = makeFormatParser(format, m_hints);
            if (m_dated != engine::NoTime)
                parser->anchorYear(m_dated);
        }
        const bool parsed = parser->parse(line, out);
        if (parsed && !pdsh.empty())
            out.host = pdsh;  // the name the operator reached the node by
        if (out.timeSource == TimeSource::Absolute)
            anchorYear(out.time);
        return parsed;
    }

    void anchorYear(TimeNs dated) override
    {
        for (auto& [format, parser] : m_parsers)
            parser->anchorYear(dated);
        m_dated = dated;  // the parsers of forms not met yet start from it
    }

private:
    TimeHints m_hints;
    std::map<Format, std::unique_ptr<LineParser>> m_parsers;  ///< one per line form met, with its state
    TimeNs m_dated = engine::NoTime;                          ///< the last stamp with its year
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
