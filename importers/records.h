// SPDX-License-Identifier: GPL-3.0-or-later
// Records: what the readers of every format produce from a file. A record is one observation candidate: a log
// line, a joined multi-line record (continuation lines, Python traceback), a line synthesized from structured
// data (sacct row, Kubernetes event, Kueue condition, nvidia-smi GPU block), or a metric sample.
#pragma once

#include "importers/line_format.h"
#include "importers/line_reader.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attrib::importers {

struct Record {
    std::uint64_t line = 0;  ///< 1-based line of the record's first line
    /// The line that holds `text` when it is not the first: a joined Python traceback's exception line (its
    /// record starts at `Traceback (most recent call last):`). 0: `line`. Evidence cites this line (citedLine).
    std::uint64_t textLine = 0;
    std::uint64_t offset = 0;               ///< byte offset of its first byte (in the decompressed stream)
    std::uint64_t length = 0;               ///< bytes it spans (a joined record spans all its lines)
    SourceKind kind = SourceKind::Unknown;  ///< Unknown: the file's sniffed kind
    TimeNs time = engine::NoTime;
    TimeSource timeSource = TimeSource::None;
    TimeNs uptime = engine::NoTime;  ///< seconds since boot when the record carries them (dmesg, journal)
    std::string host;
    int rank = -1;
    int gpu = -1;
    std::uint64_t stream = 0;  ///< the launcher stream of its first line (ParsedLine::stream)
    bool logHeader = false;    ///< its first line began with a logger's own header
    std::string text;          ///< what extractors match
    /// A Python traceback's innermost lines (its last frames and their source lines, as printed): extractors match
    /// them too, as lines before `text` (`File ".../synchronize.py", line 57`, `self._semlock = ...SemLock(`).
    std::vector<std::string> innerLines;
    /// The further lines of an exception's message, joined into `text` and matched on their own too, as the lines
    /// after it (each keeps the matches it had as a record of its own).
    std::vector<std::string> messageLines;
    bool truncated = false;  ///< the line was longer than the cap; `fullLength` is its real size
    std::uint64_t fullLength = 0;
    // Metric samples (text empty)
    bool isMetric = false;
    std::string metric;
    double value = 0;
    std::map<std::string, std::string> labels;
};

/// The line evidence cites for a record: the one that says what its text says.
inline std::uint64_t citedLine(const Record& r)
{
    return r.textLine != 0 ? r.textLine : r.line;
}

/// Receives records in file order (a joined record arrives when it is complete); false stops reading.
using RecordSink = std::function<bool(Record&)>;

struct ReaderOptions {
    std::size_t maxLineBytes = 1 << 20;       ///< longer lines are cut (with a truncation note)
    std::size_t maxDocumentBytes = 64 << 20;  ///< JSON documents larger than this are not parsed
    std::size_t wrapWidth = 0;                ///< terminal width the file was wrapped at (0 = not wrapped)
    LineColumn column = LineColumn::None;     ///< take this column off every line (line_gutter.h)
    bool notebook = false;                    ///< read a Jupyter notebook's output lines (notebook_lines.h)
    std::size_t maxJoinedLines = 1000;        ///< continuation lines joined into one record at most
    std::size_t chunkBytes = 1 << 20;         ///< read buffer size (reused for the whole file)
};

/// What reading one file found besides its records.
struct ReaderStats {
    std::uint64_t lines = 0;
    std::uint64_t bytes = 0;
    std::uint64_t skipped = 0;        ///< lines that could not be used (binary garbage, malformed rows)
    std::uint64_t truncated = 0;      ///< lines cut at maxLineBytes
    std::uint64_t nulLines = 0;       ///< lines holding NUL bytes (the text after the last NUL run is kept)
    std::uint64_t invalidUtf8 = 0;    ///< lines with invalid UTF-8 (kept; replaced when stored)
    std::uint64_t uncolumned = 0;     ///< lines whose leading column (line numbers, Compose's) was taken off
    std::uint64_t terminalCoded = 0;  ///< lines whose terminal escape sequences were removed from the text read
    std::uint64_t retyped = 0;        ///< lines read with a page's or editor's typography as plain characters
    std::uint64_t quoted = 0;         ///< lines read without the quote markers (`> `) a mail or ticket put before them
    std::uint64_t enveloped = 0;      ///< lines that were records of a log platform or runtime, read as their message
    std::uint64_t unescaped = 0;      ///< lines holding lines in escaped form (`\n`, `#012`), read as those lines
    std::uint64_t resplit = 0;        ///< lines holding a paste's lines joined with blanks, read as those lines
    std::uint64_t joined = 0;         ///< physical lines merged into a previous record
    std::uint64_t stamped = 0;        ///< records that carried their own time
    std::vector<std::string> notes;   ///< "line N: what" for the first problems
    bool error = false;               ///< reading stopped on an error (I/O, decompression, limits)
    std::string errorText;
    bool stopped = false;  ///< the sink asked to stop (cancellation)

    void note(std::uint64_t line, const std::string& what);
};

/// Reads every record of a file of the sniffed format from `read`.
ReaderStats readRecords(const ReadFn& read, const Sniffed& sniffed, const TimeHints& hints,
                        const ReaderOptions& options, const RecordSink& sink);

/// Guesses the terminal width a file was wrapped at from its first bytes (0 when it was not wrapped): at
/// least three lines of exactly the maximum length (>= 60) followed by lines that carry no known prefix, each
/// run of full-width lines ending in a shorter tail (a table whose rows are all full width is not wrapped), or a screen
/// capture whose every row is that width, half or more padded with blanks (one wrapped message is enough). Lengths
/// are terminal columns (displayWidth); a file with a line-number gutter is measured without it.
std::size_t detectWrapWidth(std::string_view head, const Sniffed& sniffed);

/// Replaces invalid UTF-8 sequences with U+FFFD; returns true when something was replaced.
bool sanitizeUtf8(std::string& text);
bool isValidUtf8(std::string_view text);

namespace detail {

/// Calls `onLine` for each physical line with NUL bytes and truncation handled (the helper every
/// line-oriented reader uses). Updates lines/bytes/truncated/nul/utf8 counts and the error fields of `stats`.
void forEachLine(const ReadFn& read, const ReaderOptions& options, ReaderStats& stats,
                 const std::function<bool(const RawLine&, std::string_view clean)>& onLine);

/// A record for one physical line.
Record lineRecord(const RawLine& raw);

// Readers of the structured formats (each in its own file).
ReaderStats readJournalJson(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readJournalExport(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readSacctParsable(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readJsonDocument(const ReadFn& read, const Sniffed& sniffed, const ReaderOptions& options,
                             const RecordSink& sink);
ReaderStats readPrometheus(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readMetricCsv(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readObservationsJsonl(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink);
ReaderStats readBugReport(const ReadFn& read, const TimeHints& hints, const ReaderOptions& options,
                          const RecordSink& sink);
ReaderStats readLogLines(const ReadFn& read, const Sniffed& sniffed, const TimeHints& hints,
                         const ReaderOptions& options, const RecordSink& sink);

}  // namespace detail

}  // namespace attrib::importers
