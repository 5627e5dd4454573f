// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: joining the lines of one logical record (continuations, terminal wraps, Python tracebacks).
#pragma once

#include "importers/records.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace attrib::importers::detail {

/// `s` without its leading blanks and tabs.
std::string_view trimLeft(std::string_view s);
/// `s` without its trailing blanks, tabs and carriage returns.
std::string_view trimRight(std::string_view s);

/// Appends a continuation line to `text`. A wrapped piece is appended as is; an indented one is trimmed and
/// joined with one space, without a repeated `NVRM: ` prefix. `text` never grows past `cap` bytes.
void appendContinuation(std::string& text, std::string_view piece, bool wrapped, std::size_t cap);

/// A line that may be the rest of a line a terminal wrapped: not empty, and no application, NCCL or Slurm prefix
/// of its own.
bool isWrapContinuation(std::string_view clean);

/// A line another program wrote, pasted into an application's output without a stamp of its own: an upper-case tag
/// (the kernel's `NVRM: Xid ...`, `EDAC:`), a driver's message about a device (`pcieport 0000:00:01.0: AER: ...`,
/// `mlx5_core 0000:3b:00.0: ...`), NCCL's `NCCL WARN ...`. It is no part of an exception's message, and every rule
/// reads it, whatever the file's kind.
bool isOtherProgramsLine(std::string_view line);

/// A row or border of a drawn table (`| model | 1 | READY |`, `+-----+---+`, a Rich panel's `│ ... │` and `╰───╯`):
/// full width by design, never a wrap.
bool isDrawnTableRow(std::string_view line);

/// An interactive shell's or Python's prompt, where a pasted session goes on: `$ cmd`, `# cmd`, `user@host:~/dir$
/// cmd`, `[user@host dir]# cmd`, `(venv) user@host:~$ cmd`, `PS C:\work> cmd`, `>>> expr`. A bare `> ` is left
/// alone: it also quotes every line of a ticket.
bool isShellPrompt(std::string_view s);

/// The narrowest terminal whose wraps are joined (as detectWrapWidth).
constexpr std::size_t MinWrapWidth = 60;

/// The columns a terminal gives `s`: one per character, two for an East Asian wide or full-width one.
std::size_t displayWidth(std::string_view s);

/// A line that fills a terminal `width` columns wide: the head of a wrapped message. A terminal copy pads the last
/// row of a message with spaces to the width (Windows consoles, tmux): a row that ends in a run of 8 spaces or more is
/// such a tail, not full. Fewer trailing spaces are a wrap right after a space or a fixed-width table's last column.
bool fillsWrapWidth(std::string_view clean, std::size_t width);

/// `NVRM: The NVIDIA GPU 0000:b3:00.0` followed by `NVRM: (PCI ID: ...) installed in this system has`: the
/// previous text is an unfinished NVRM sentence and the next line goes on with lower case or a parenthesis.
bool continuesNvrmSentence(std::string_view previous, std::string_view next);

/// Collects Python tracebacks per launcher stream (rank, `[1,2]<stderr>`, `[default0]`, srun label, pod, Ray
/// worker; lines without a prefix are one stream), so that interleaved ranks never mix. A traceback becomes one
/// record whose text is the exception line (so every extractor written for that line still matches it), whose
/// label "traceback" holds the two innermost `File "...", line N, in f` frames, and which spans from the
/// `Traceback` line to the exception line and the further lines of its message: lines of the same stream after
/// it that carry no header of their own and start no new exception (`ncclSystemError: ...`, `Last error:`, a
/// path the message went on with), joined with one space. An excerpt that starts at a frame (`  File "...`) opens
/// the traceback there; an exception line met outside a traceback is joined only with the line that finishes it
/// when it ends in `:`, or with a line that goes on in lower case when it stops mid-sentence (a wrapped paste). A
/// traceback whose frames are followed by a line that is no exception line (a paste that stops at the last frame) is
/// emitted as its `Traceback` line.
class TracebackJoiner {
public:
    TracebackJoiner(const ReaderOptions& options, ReaderStats& stats)
        : m_options(options)
        , m_stats(stats)
    {
    }

    /// Looks at one logical line. Sets `emit` to false when the line was taken into a traceback; may first emit
    /// a finished traceback through `sink`. Returns false when the sink stopped.
    bool offer(Record& rec, const RecordSink& sink, bool& emit);
    /// Emits tracebacks still open at the end of the file (without an exception line, or with their message).
    bool flushAll(const RecordSink& sink);

private:
    /// offer() after the relay header is off: the recursion point when a line closes one traceback and is then
    /// looked at on its own.
    bool take(Record& rec, const RecordSink& sink, bool& emit);
    struct Open {
        Record first;
        std::vector<std::string> frames;  ///< the last `File "..."` lines
        std::vector<std::string> inner;   ///< the last indented lines: frames and their source lines
        std::size_t lines = 1;
        bool message = false;  ///< the exception line was read: `first` holds it, its message may go on
        std::size_t messageLines = 0;
        bool unfinishedOnly = false;  ///< an exception line without frames: joined only while it ends in `:` or
                                      ///< stops mid-sentence before a line that goes on in lower case
        std::size_t frameIndent = std::string_view::npos;  ///< indentation of its `File "..."` lines (least)
    };
    /// Adds an indented line (`File "..."` or its source line) as it stands, indentation included.
    void addFrame(Open& tb, std::string_view line);
    void takeException(Open& tb, const Record& exception);
    void labelFrames(Open& tb);
    bool continuesMessage(const Open& tb, const Record& rec, std::string_view body) const;
    /// Joins `rec` onto the open exception's message.
    void appendMessage(Open& tb, const Record& rec, std::string_view body);
    /// The line right after an exception line that names only its class (`(WorkerDict pid=1) AssertionError:`) goes
    /// on with its message whatever its launcher prefix: Python prints a bare `AssertionError` without the colon, so
    /// the colon says the message was wrapped onto the next line, where a paste cut at the terminal's width lost the
    /// prefix. Returns true when it took `rec`.
    bool takesWrappedMessage(const Record& rec, std::string_view body);
    bool finish(Open& tb, const RecordSink& sink);
    /// Finishes the stream's open traceback and forgets it; false when the sink stopped.
    bool close(std::map<std::uint64_t, Open>::iterator it, const RecordSink& sink);
    /// A line of a stream with nothing open that opens something: an exception line whose message may go on, or the
    /// first frame of an excerpt that starts inside a traceback.
    bool opensOutside(const Record& rec, std::string_view body);
    /// A logger that relays another process' output line by line puts its own header before every line of a
    /// traceback (TorchServe's `[INFO ] W-9000-m_1.0-stdout MODEL_LOG - `, Python logging's `- root - ERROR - `,
    /// loguru's `| ERROR    | mod:fn:12 - `, a bare `[ERROR] `, vLLM's `ERROR 11-16 05:59:08 [core.py:708] `). The text
    /// before a `Traceback` line, or before a frame where a paste starts inside the traceback, that is such a header is
    /// learned for the stream; it is taken off that line and off every later line of the stream that starts
    /// with the same header (digits may differ), so that frames, exception and message join as unprefixed output.
    void stripRelayHeader(Record& rec);

    const ReaderOptions& m_options;
    ReaderStats& m_stats;
    std::map<std::uint64_t, Open> m_open;          ///< by launcher stream (0 = no launcher prefix)
    std::map<std::uint64_t, std::string> m_relay;  ///< by stream: its relay header, each digit written as `0`
    std::optional<std::uint64_t> m_unfinished;     ///< the stream of an exception line held mid-sentence
    /// The stream and line of the last exception line that named only its class (see takesWrappedMessage).
    std::optional<std::pair<std::uint64_t, std::uint64_t>> m_bareClass;
};

/// A record for one parsed physical line; fillRecord() reuses `r`'s buffers.
Record recordOf(const RawLine& raw, const ParsedLine& parsed);
void fillRecord(Record& r, const RawLine& raw, const ParsedLine& parsed);
/// Makes `r` span up to the end of `raw`.
void extend(Record& r, const RawLine& raw);

/// Joins continuation lines of stamped formats (dmesg, syslog, RFC 5424, Slurm daemon, Fabric Manager) and
/// hands finished records to the sink.
class StampedJoiner {
public:
    /// `secondStamps`: the format's stamps have one-second resolution (RFC 3164, dmesg -T).
    StampedJoiner(const ReaderOptions& options, const RecordSink& sink, ReaderStats& stats, bool secondStamps)
        : m_options(options)
        , m_sink(sink)
        , m_stats(stats)
        , m_secondStamps(secondStamps)
    {
    }
    /// One parsed physical line; false when the sink stopped.
    bool add(const RawLine& raw, const ParsedLine& parsed, std::string_view clean);
    /// Emits the pending record; false when the sink stopped.
    bool flush();

private:
    bool joined(const RawLine& raw);
    bool continues(const ParsedLine& parsed) const;
    bool continuesUnstamped(std::string_view clean, std::size_t previousWidth) const;

    const ReaderOptions& m_options;
    const RecordSink& m_sink;
    ReaderStats& m_stats;
    bool m_secondStamps;
    Record m_pending;
    std::string m_tag;
    bool m_open = false;
    std::size_t m_lines = 0;
    std::size_t m_width = 0;  ///< bytes of the last physical line
};

/// Joins the lines of a message that carries embedded newlines (journal entries): continuation rules as above.
std::string joinMessageLines(std::string_view message, std::size_t cap);

/// A syslog line whose daemon escaped the control characters of its message (rsyslog's `#012` for a newline,
/// `#011` for a tab, `#015` for a carriage return): the embedded lines joined the way a journal entry's are, with
/// one space. Returns `line` itself when it holds no such escape, else a view of `buffer`.
std::string_view joinSyslogEscapes(std::string_view line, std::string& buffer);

}  // namespace attrib::importers::detail
