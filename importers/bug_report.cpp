// SPDX-License-Identifier: GPL-3.0-or-later
// nvidia-bug-report.log(.gz): sections separated by lines of underscores, each opened by a header line
// (`*** /var/log/kern.log`, `/usr/bin/dmesg --kernel`, `journalctl -b -0`, `/usr/bin/nvidia-smi -q`, ...).
// Kernel-log sections become kernel records (dmesg or syslog shapes, continuation lines joined). The
// `nvidia-smi -q` section becomes one inventory record per GPU block:
//   nvidia-smi -q GPU <index> pci <bus id> serial <serial> uuid <uuid> minor <minor> product <name>
// where <index> is the block's ordinal in the listing (the NVML index, PCI bus order); every other line of the
// section is an inventory record too, carrying the index of its GPU block. Other sections are skipped.
// A job's output that ran `nvidia-smi -q` (its banner sniffed like a report's) is no report: its lines outside the
// listing (before it, and after the listing's last line) are the job's own and become application records.
#include "importers/format_parsers.h"
#include "importers/format_prefix.h"
#include "importers/multiline.h"
#include "importers/records.h"
#include "importers/timestamps.h"

namespace attrib::importers::detail {

namespace {

enum class Section { Other, Kernel, Smi, Output };

bool isSeparator(std::string_view line)
{
    return line.size() >= 20 && line.find_first_not_of('_') == std::string_view::npos;
}

Section sectionOf(std::string_view header)
{
    const auto has = [&](std::string_view w) { return header.find(w) != std::string_view::npos; };
    if (has("nvidia-smi") && has("-q"))
        return Section::Smi;
    if (has("dmesg") || has("kern.log") || has("/var/log/messages") || has("/var/log/syslog") || has("journalctl"))
        return Section::Kernel;
    return Section::Other;
}

std::string_view trim(std::string_view s)
{
    const std::size_t a = s.find_first_not_of(" \t");
    if (a == std::string_view::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

/// `    Serial Number                         : 1654925215539` -> key "Serial Number", value.
bool keyValue(std::string_view line, std::string_view& key, std::string_view& value)
{
    const std::size_t colon = line.find(" : ");
    if (colon == std::string_view::npos)
        return false;
    key = trim(line.substr(0, colon));
    value = trim(line.substr(colon + 3));
    return true;
}

/// A line `nvidia-smi -q` does not print: not indented, no GPU header, no `Key : Value` of its top level.
bool endsSmiListing(std::string_view line)
{
    return !trim(line).empty() && line[0] != ' ' && line[0] != '\t' && line.find(" : ") == std::string_view::npos &&
        line.substr(0, 4) != "GPU " && line.find("NVSMI LOG") == std::string_view::npos;
}

bool isGpuHeader(std::string_view line)
{
    // `GPU 00000000:61:00.0`
    if (line.substr(0, 4) != "GPU " || line.size() < 16 || line.size() > 20)
        return false;
    const std::string_view id = line.substr(4);
    return id.find(':') != std::string_view::npos && id.find('.') != std::string_view::npos &&
        id.find_first_not_of("0123456789abcdefABCDEF:.") == std::string_view::npos;
}

/// One GPU block of `nvidia-smi -q`.
struct GpuBlock {
    Record record;
    std::string pci, serial, uuid, minor, product;
    bool open = false;
};

class BugReport {
public:
    BugReport(const TimeHints& hints, const ReaderOptions& options, const RecordSink& sink, ReaderStats& stats)
        : m_sink(sink)
        , m_kernelSink([this](Record& r) { return emitKernel(r); })
        , m_joiner(options, m_kernelSink, stats, false)
        , m_ring(makeFormatParser(Format::DmesgRaw, TimeHints{hints.year, engine::NoTime}))
        , m_syslog(makeFormatParser(Format::Rfc3164, hints))
        , m_app(makeFormatParser(Format::App, hints))
        , m_tracebacks(options, stats)
    {
    }

    bool line(const RawLine& raw, std::string_view clean)
    {
        if (isSeparator(clean)) {
            m_expectHeader = true;
            m_sections = true;
            return endSection();
        }
        if (m_expectHeader && !trim(clean).empty()) {
            m_expectHeader = false;
            m_section = sectionOf(clean);
            m_uname = clean.find("uname") != std::string_view::npos;
            return true;
        }
        if (clean.substr(0, 13) == "uname: Linux ")  // the report's preamble
            m_host = std::string(clean.substr(13, clean.find(' ', 13) - 13));
        else if (m_uname && clean.substr(0, 6) == "Linux ")  // a `uname -a` section
            m_host = std::string(clean.substr(6, clean.find(' ', 6) - 6));
        if (!m_sections &&
            (clean.find("nvidia-bug-report.sh") != std::string_view::npos ||
             clean.find("NVIDIA bug report log file") != std::string_view::npos))
            m_report = true;
        if (clean.find("==============NVSMI LOG==============") != std::string_view::npos) {
            if (m_section == Section::Output && !m_tracebacks.flushAll(m_sink))
                return false;
            m_section = Section::Smi;
        } else if (!m_report && !m_sections && m_section != Section::Output && endsSmiListing(clean)) {
            if (!closeGpu())
                return false;
            m_section = Section::Output;
        }
        if (m_section == Section::Output)
            return outputLine(raw, clean);
        if (m_section == Section::Kernel)
            return kernelLine(raw, clean);
        if (m_section == Section::Smi)
            return smiLine(raw, clean);
        return true;
    }

    bool endSection()
    {
        const bool ok = m_joiner.flush() && closeGpu() && m_tracebacks.flushAll(m_sink);
        m_section = Section::Other;
        return ok;
    }

private:
    bool emitKernel(Record& r)
    {
        r.kind = SourceKind::Kernel;
        if (r.host.empty())
            r.host = m_host;
        return m_sink(r);
    }

    bool kernelLine(const RawLine& raw, std::string_view clean)
    {
        ParsedLine parsed;
        m_ring->parse(clean, parsed);
        if (!parsed.stamped) {
            ParsedLine syslog;
            if (m_syslog->parse(clean, syslog) && syslog.stamped)
                parsed = syslog;
        }
        return m_joiner.add(raw, parsed, clean);
    }

    bool smiLine(const RawLine& raw, std::string_view clean)
    {
        if (isGpuHeader(clean)) {
            if (!closeGpu())
                return false;
            m_gpu = GpuBlock{lineRecord(raw), std::string(clean.substr(4)), {}, {}, {}, {}, true};
            return true;
        }
        if (!passThrough(raw, clean))
            return false;
        std::string_view key;
        std::string_view value;
        if (!keyValue(clean, key, value))
            return true;
        if (key == "Timestamp") {
            const std::string bracketed = "[" + std::string(value) + "]";
            if (const auto stamp = parseDmesgT(bracketed))
                m_smiTime = stamp->time;
        }
        if (!m_gpu.open)
            return true;
        extend(m_gpu.record, raw);
        if (key == "Serial Number")
            m_gpu.serial = value;
        else if (key == "GPU UUID")
            m_gpu.uuid = value;
        else if (key == "Minor Number")
            m_gpu.minor = value;
        else if (key == "Product Name")
            m_gpu.product = value;
        return true;
    }

    /// A line of the job's own output around its `nvidia-smi -q` listing, read as an application log line: a
    /// Python traceback in it becomes one exception record, as in an application log.
    bool outputLine(const RawLine& raw, std::string_view clean)
    {
        ParsedLine parsed;
        if (trim(clean).empty() || !m_app->parse(clean, parsed))
            return true;
        Record r = recordOf(raw, parsed);
        r.kind = SourceKind::App;
        bool emit = true;
        if (!m_tracebacks.offer(r, m_sink, emit))
            return false;
        return !emit || m_sink(r);
    }

    /// Every nvidia-smi -q line is an inventory record too (clock event reasons, retired pages, ...), with the
    /// GPU index of the block it is in.
    bool passThrough(const RawLine& raw, std::string_view clean)
    {
        if (trim(clean).empty())
            return true;
        Record r = lineRecord(raw);
        r.kind = SourceKind::Inventory;
        r.host = m_host;
        r.gpu = m_gpu.open ? m_gpuIndex : -1;
        r.time = m_smiTime;
        r.timeSource = m_smiTime == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
        r.text = std::string(trim(clean));
        return m_sink(r);
    }

    bool closeGpu()
    {
        if (!m_gpu.open)
            return true;
        m_gpu.open = false;
        Record r = std::move(m_gpu.record);
        r.kind = SourceKind::Inventory;
        r.host = m_host;
        r.time = m_smiTime;
        r.timeSource = m_smiTime == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
        std::string product = m_gpu.product;
        for (auto& c : product)
            c = c == ' ' ? '_' : c;
        r.text = "nvidia-smi -q GPU " + std::to_string(m_gpuIndex++) + " pci " + m_gpu.pci;
        for (const auto& [k, v] : {std::pair<const char*, const std::string*>{"serial", &m_gpu.serial},
                                   {"uuid", &m_gpu.uuid},
                                   {"minor", &m_gpu.minor},
                                   {"product", &product}})
            if (!v->empty())
                r.text += std::string(" ") + k + " " + *v;
        return m_sink(r);
    }

    const RecordSink& m_sink;
    RecordSink m_kernelSink;
    StampedJoiner m_joiner;
    std::unique_ptr<LineParser> m_ring;
    std::unique_ptr<LineParser> m_syslog;
    std::unique_ptr<LineParser> m_app;
    TracebackJoiner m_tracebacks;  ///< the job output's tracebacks
    Section m_section = Section::Other;
    bool m_sections = false;  ///< a separator was seen: the report's sections decide
    bool m_report = false;    ///< the report's own preamble was seen
    bool m_expectHeader = false;
    bool m_uname = false;
    std::string m_host;
    GpuBlock m_gpu;
    int m_gpuIndex = 0;
    TimeNs m_smiTime = engine::NoTime;
};

}  // namespace

ReaderStats readBugReport(const ReadFn& read, const TimeHints& hints, const ReaderOptions& options,
                          const RecordSink& sink)
{
    ReaderStats stats;
    BugReport report(hints, options, sink, stats);
    bool ok = true;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        ok = report.line(raw, clean);
        return ok;
    });
    if (ok && !report.endSection())
        stats.stopped = true;
    return stats;
}

}  // namespace attrib::importers::detail
