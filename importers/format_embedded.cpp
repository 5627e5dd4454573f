// SPDX-License-Identifier: GPL-3.0-or-later
// Lines of one form found inside another (see format_embedded.h).
#include "importers/format_embedded.h"

#include "importers/format_parsers.h"
#include "importers/format_prefix.h"
#include "importers/timestamps.h"

#include "engine/number.h"

#include <cctype>

namespace attrib::importers::detail {

namespace {

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

}  // namespace

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
    takeProgramMessage(header, out);
    out.kind = engine::SourceKind::Syslog;
    return true;
}

void takeProgramMessage(const SyslogHeader& header, ParsedLine& out)
{
    out.tag = header.tag;
    out.text = header.rest;
    if (header.tag.empty() || header.tag.back() != ']' || header.rest.size() < header.body.size())
        return;
    std::uint64_t stream = 0;  // the host and the tag, as a launcher's prefixes make a stream
    hashStreamPart(stream, out.host);
    hashStreamPart(stream, header.tag);
    YearTracker years(0);  // a stamp inside the message does not stand for the record's
    ParsedLine inner;
    const unsigned marks = stripAppPrefixes(header.body, years, inner);
    // Only prefixes of a fixed form come off: a daemon's own words may look like a free-form one (multipathd's
    // `3600601...: remaining active paths: 0` is a map, not a pdsh host; a bracketed word is no logger's name).
    constexpr unsigned FreeForm = MarkPdsh | MarkProse | MarkTag;
    if ((marks & FreeForm) != 0) {
        out.stream = stream;
        return;
    }
    out.stream = inner.stream == 0 ? stream : (stream ^ inner.stream) | 1;  // never 0: the tag alone makes one
    if (inner.text.size() == header.body.size())
        return;
    out.programTag = header.rest.substr(0, header.rest.size() - header.body.size());
    out.text = inner.text;
    out.rank = inner.rank;
    out.gpu = inner.gpu;
    out.logHeader = inner.logHeader;
    if (out.host.empty())
        out.host = inner.host;
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
    if (kernelTagLength(s) == 0 &&
        (space == std::string_view::npos || kernelTagLength(s.substr(space + 1)) == 0 ||
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

}  // namespace attrib::importers::detail
