// SPDX-License-Identifier: GPL-3.0-or-later
// Line-oriented log formats: each line parsed by its format's LineParser, then joined into records.
//
// Stamped formats (dmesg, syslog, RFC 5424, Slurm daemon, Fabric Manager): a line without the format's stamp
// continues the previous record. Indented continuations are joined with one space (a repeated `NVRM: ` is
// dropped); unindented ones are terminal wraps and are joined with nothing between. A stamped line joins the
// previous record when it carries the same stamp, host and tag and is indented, or continues an unfinished
// `NVRM:` sentence (the multi-line "fallen off the bus" message as syslog writes it).
// Application formats: lines of exactly the detected wrap width are joined with the next unprefixed line; a
// Python traceback (per rank) becomes one record: the exception line, spanning the whole traceback; a Python Rich
// handler's record becomes one record of its message rows, without the caller's `file:line`; a box table's value
// cut over rows at a fixed width (dcgmi) becomes one record of its pieces.
#include "importers/box_rows.h"
#include "importers/format_prefix.h"
#include "importers/log_envelope.h"
#include "importers/log_export_csv.h"
#include "importers/multiline.h"
#include "importers/pasted_lines.h"
#include "importers/pasted_text.h"
#include "importers/records.h"
#include "importers/rich_rows.h"

#include <algorithm>
#include <map>

namespace attrib::importers::detail {

namespace {

/// Formats whose every record starts with a stamp or header, so that a line without one continues a record.
bool isStampedFormat(Format f)
{
    switch (f) {
    case Format::DmesgRaw:
    case Format::DmesgT:
    case Format::DmesgReltime:
    case Format::DmesgIso:
    case Format::KernelBare:
    case Format::Rfc3164:
    case Format::Iso8601:
    case Format::Rfc5424:
    case Format::SlurmDaemon:
    case Format::FabricManager: return true;
    default: return false;
    }
}

/// Terminal-wrap joining and per-rank Python traceback joining for application logs.
class AppJoiner {
public:
    /// `jobOutput`: a job's stdout/stderr, where srun/slurmstepd lines are Slurm records and the rest is the
    /// application's output (App records), so application extractors still see it.
    AppJoiner(const ReaderOptions& options, const RecordSink& sink, ReaderStats& stats, bool jobOutput)
        : m_options(options)
        , m_sink(sink)
        , m_stats(stats)
        , m_tracebacks(options, stats)
        , m_jobOutput(jobOutput)
    {
    }

    /// One line; `envelope`: the record the line was taken out of (its time and host stand for the line's own);
    /// `carried`: the time of a transport stamp taken off the line (transportStamp), for a line without its own.
    bool add(const RawLine& raw, std::string_view clean, LineParser& parser, const Envelope* envelope = nullptr,
             engine::TimeNs carried = engine::NoTime)
    {
        bool taken = false;
        if (!takeRichRow(raw, clean, taken))
            return false;
        if (taken)
            return true;
        if (m_wrapping) {
            if (isWrapContinuation(clean) && m_wrapLines < m_options.maxJoinedLines) {
                m_wrapping = fillsWidth(raw, clean);
                const std::string_view piece = m_wrapping ? clean : clean.substr(0, clean.find_last_not_of(' ') + 1);
                appendContinuation(m_wrapped.text, piece, true, m_options.maxLineBytes);  // a padded tail's text
                extend(m_wrapped, raw);
                ++m_wrapLines;
                ++m_stats.joined;
                return m_wrapping || logical(m_wrapped);
            }
            m_wrapping = false;
            if (!logical(m_wrapped))
                return false;
        }
        ParsedLine parsed;
        if (!parser.parse(clean, parsed)) {
            ++m_stats.skipped;
            return true;
        }
        if (envelope != nullptr) {
            carried = envelope->time;
            if (parsed.host.empty())
                parsed.host = envelope->host;
        }
        if (parsed.time == engine::NoTime && carried != engine::NoTime)
            offerTime(parsed, carried, TimeSource::Absolute);
        fillRecord(m_line, raw, parsed);
        if (m_line.kind == engine::SourceKind::Unknown && isOtherProgramsLine(m_line.text))
            m_line.kind = engine::SourceKind::Text;  // a kernel or driver line pasted among the application's
        if (m_jobOutput && m_line.kind == engine::SourceKind::Unknown)
            m_line.kind =
                isSlurmLine(clean) || isSlurmLine(parsed.text) ? engine::SourceKind::Slurm : engine::SourceKind::App;
        std::string_view location;
        if (const std::size_t column = envelope == nullptr ? richMessageColumn(clean, location) : 0; column > 0) {
            dropRichLocation(m_line.text, location);  // the caller's `file:line`, not the message
            std::swap(m_rich, m_line);
            m_richColumn = column;
            m_richLines = 1;
            return true;
        }
        if (const BoxCell cell = envelope == nullptr ? boxCell(clean) : BoxCell{}; fillsBoxWidth(cell)) {
            m_line.text.assign(clean.substr(0, cell.end));  // the value's next piece goes on right after it
            std::swap(m_rich, m_line);
            m_box = lastPiece(cell, 0);
            m_richLines = 1;
            return true;
        }
        if (envelope == nullptr && fillsWidth(raw, clean)) {
            std::swap(m_wrapped, m_line);
            m_wrapping = true;
            m_wrapLines = 1;
            return true;
        }
        return logical(m_line);
    }

    bool finish()
    {
        bool taken = false;
        if (!takeRichRow(RawLine{}, std::string_view(), taken))
            return false;
        if (m_wrapping) {
            m_wrapping = false;
            if (!logical(m_wrapped))
                return false;
        }
        return m_tracebacks.flushAll(m_sink);
    }

private:
    /// The line fills the file's wrap width as the terminal printed it: a quote or list marker taken off a row
    /// (`- Encountered ...` cut out of `... ERROR - Encountered ...`) does not make it shorter than its neighbours.
    bool fillsWidth(const RawLine& raw, std::string_view clean) const
    {
        if (isDrawnTableRow(clean))
            return false;
        if (fillsWrapWidth(clean, m_options.wrapWidth))
            return true;
        std::string_view printed = raw.bytes;
        if (!printed.empty() && printed.back() == '\r')
            printed.remove_suffix(1);
        return printed.size() != clean.size() && fillsWrapWidth(printed, m_options.wrapWidth);
    }

    /// A row that goes on with the open Rich record or box value is joined to it (`taken`); any other row first
    /// emits that record.
    bool takeRichRow(const RawLine& raw, std::string_view clean, bool& taken)
    {
        if (m_richColumn == 0 && !m_box.row)
            return true;
        if (m_richLines < m_options.maxJoinedLines) {
            if (m_richColumn > 0 && continuesRichRecord(clean, m_richColumn)) {
                appendContinuation(m_rich.text, clean.substr(0, clean.find_last_not_of(' ') + 1), false,
                                   m_options.maxLineBytes);
                taken = true;
            } else if (m_box.row) {
                const BoxCell next = boxCell(clean);
                const BoxJoin join = boxJoin(m_box, next);
                taken = join != BoxJoin::None;
                if (taken) {
                    appendContinuation(m_rich.text, join == BoxJoin::Space ? " " : "", true, m_options.maxLineBytes);
                    appendContinuation(m_rich.text, next.piece, true, m_options.maxLineBytes);
                    m_box = lastPiece(next, m_box.interior);
                }
            }
        }
        if (taken) {
            extend(m_rich, raw);
            ++m_richLines;
            ++m_stats.joined;
            return true;
        }
        m_richColumn = 0;
        m_box = BoxCell{};
        return logical(m_rich);
    }

    bool logical(Record& rec)
    {
        bool emit = true;
        if (!m_tracebacks.offer(rec, m_sink, emit))
            return false;
        if (!emit)
            return true;
        m_stats.stamped += rec.time != engine::NoTime ? 1 : 0;
        return m_sink(rec);
    }

    const ReaderOptions& m_options;
    const RecordSink& m_sink;
    ReaderStats& m_stats;
    TracebackJoiner m_tracebacks;
    Record m_line;  ///< reused for every line (its buffers survive)
    Record m_wrapped;
    bool m_wrapping = false;
    std::size_t m_wrapLines = 0;
    Record m_rich;                 ///< a Rich handler's record or a box value whose rows are being joined
    std::size_t m_richColumn = 0;  ///< a Rich record's message column; 0 when none is open
    BoxCell m_box;                 ///< the last piece of the open box value (`row` false when none is open)
    std::size_t m_richLines = 0;
    bool m_jobOutput = false;
};

/// A line that holds several lines in their escaped form (`...:\n  File "x.py", line 3, in f\nRuntimeError: ...`):
/// its pieces, with the time and host the first piece's prefix (the line's own) gives, for pieces that carry none.
bool escapedLines(std::string_view clean, LineParser& parser, Envelope& out)
{
    out.lines.clear();
    if (!splitEscapedLines(clean, out.lines))
        return false;
    ParsedLine first;
    const bool parsed = parser.parse(out.lines.front(), first);
    out.time = parsed ? first.time : engine::NoTime;
    out.host = parsed ? std::string(first.host) : std::string();
    return true;
}

/// forEachLine, with a line holding a paste's lines joined with blanks (splitJoinedPaste) given as those lines.
void forEachPastedLine(const ReadFn& read, const ReaderOptions& options, ReaderStats& stats,
                       const std::function<bool(const RawLine&, std::string_view clean)>& onLine)
{
    std::vector<std::string_view> pieces;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        pieces.clear();
        if (!splitJoinedPaste(clean, pieces))
            return onLine(raw, clean);
        if (++stats.resplit == 1)
            stats.note(raw.number,
                       "a paste of " + std::to_string(pieces.size()) +
                           " lines joined without their breaks; read as those lines");
        return std::all_of(pieces.begin(), pieces.end(), [&](std::string_view piece) { return onLine(raw, piece); });
    });
}

}  // namespace

ReaderStats readLogLines(const ReadFn& read, const Sniffed& sniffed, const TimeHints& hints,
                         const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    auto parser = makeParser(sniffed, hints);
    if (isAppFormat(sniffed.format)) {
        AppJoiner joiner(options, sink, stats, sniffed.format == Format::SlurmOut);
        bool ok = true;
        Envelope envelope;
        // A record's lines, with its time and host; a message of several lines is whole: its traceback ends with it,
        // the record's next member or the next record is not more of its exception's message.
        const auto addRecord = [&](const RawLine& raw) {
            for (const std::string& inner : envelope.lines)
                if (ok = joiner.add(raw, inner, *parser, &envelope); !ok)
                    return false;
            if (envelope.lines.size() > 1)
                ok = joiner.finish();
            return ok;
        };
        LogExportRows csv;
        bool csvRows = false;
        RawLine rowStart;
        forEachPastedLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
            if (raw.number == 1 && sniffed.format == Format::Plain && isLogExportHeader(clean))
                csvRows = csv.takeHeader(clean);
            else if (csvRows) {
                if (!csv.open())
                    rowStart = RawLine{raw.number, raw.offset, {}, raw.truncated, 0};
                if (!csv.add(clean, envelope, options.maxJoinedLines, options.maxLineBytes))
                    return true;
                rowStart.fullLength = raw.offset + raw.fullLength - rowStart.offset;
                stats.joined += csv.rowLines() - 1;
                ++stats.enveloped;
                return addRecord(rowStart);
            }
            const engine::TimeNs carried = takeTransportStamp(clean);
            if (mayBeEnvelope(clean) && unwrapEnvelope(clean, envelope)) {
                if (envelope.time == engine::NoTime)
                    envelope.time = carried;
                ++stats.enveloped;
                return addRecord(raw);
            }
            if (escapedLines(clean, *parser, envelope)) {
                ++stats.unescaped;
                return addRecord(raw);
            }
            ok = joiner.add(raw, clean, *parser, nullptr, carried);
            return ok;
        });
        if (ok && !joiner.finish())
            stats.stopped = true;
        return stats;
    }
    // A program's own lines in a syslog or journal (a stream of their program tag, see SyslogParser) are its output as
    // an application file holds it: its tracebacks are joined as there, with the tag on each line looked past.
    TracebackJoiner tracebacks(options, stats);
    const RecordSink traced = [&](Record& rec) {
        bool emit = true;
        if (rec.stream != 0 && !tracebacks.offer(rec, sink, emit))
            return false;
        return !emit || sink(rec);
    };
    StampedJoiner joiner(options, traced, stats, sniffed.format == Format::Rfc3164 || sniffed.format == Format::DmesgT);
    const bool joins = isStampedFormat(sniffed.format);
    Record line;
    bool ok = true;
    forEachPastedLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        takeTransportStamp(clean);  // the line's own stamp is its format's
        ParsedLine parsed;
        if (!parser->parse(clean, parsed)) {
            ++stats.skipped;
            return true;
        }
        if (!joins) {  // plain text and inventory listings: one record per line
            fillRecord(line, raw, parsed);
            ok = sink(line);
            return ok;
        }
        ok = joiner.add(raw, parsed, clean);
        return ok;
    });
    if (ok && (!joiner.flush() || !tracebacks.flushAll(sink)))
        stats.stopped = true;
    return stats;
}

}  // namespace attrib::importers::detail
