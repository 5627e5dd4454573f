// SPDX-License-Identifier: GPL-3.0-or-later
// Python traceback records: the lines of one traceback per launcher stream joined into the record of its exception.
#include "importers/multiline.h"

#include "engine/number.h"
#include "importers/format_prefix.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace attrib::importers::detail {

namespace {

constexpr std::string_view TracebackHead = "Traceback (most recent call last):";
constexpr std::size_t KeptFrames = 2;
constexpr std::size_t KeptInnerLines = 4;  ///< the innermost two frames with their source lines
constexpr std::size_t MaxInnerLineBytes = 4096;
constexpr std::size_t MaxOpenTracebacks = 4096;

/// The level names Python's logging, loguru and most loggers print.
constexpr std::string_view LogLevels[] = {"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL"};

bool isLogLevel(std::string_view word)
{
    return std::find(std::begin(LogLevels), std::end(LogLevels), word) != std::end(LogLevels);
}

/// The prefix a line carries in its text that the joiner looks past: a Ray worker's (application lines lose it with
/// the other launcher prefixes; a syslog or journal message keeps it behind its program tag), or a syslog or journal
/// message's own program tag `python3[1234]: ` (each line of a traceback an application wrote to the journal carries
/// it; rules look past it as they look past Ray's).
std::size_t carriedPrefixLength(std::string_view text)
{
    const std::size_t ray = rayPrefixLength(text);
    return ray > 0 ? ray : programTagLength(text);
}

std::string_view bodyOf(std::string_view text)
{
    return text.substr(carriedPrefixLength(text));
}

/// `[A-Za-z_][\w.]*` at the start of `s`: its length, 0 when there is none.
std::size_t dottedName(std::string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_' || s[n] == '.'))
        ++n;
    return n > 0 && !std::isdigit(static_cast<unsigned char>(s[0])) && s[0] != '.' ? n : 0;
}

/// What Python prints after the frames: `Name: message` or `Name` alone (`KeyboardInterrupt`), the name dotted
/// (`torch.distributed.DistBackendError`). Prose, a logger's line or a prompt is not.
bool isExceptionLine(std::string_view body)
{
    std::size_t n = dottedName(body);
    if (n > 0 && charAt(body, n, '(')) {  // Ray's `ray.exceptions.RayTaskError(RuntimeError): ray::...`
        const std::size_t close = body.find(')', n);
        n = close == std::string_view::npos || close > n + 200 ? 0 : close + 1;
    }
    return n > 0 && (n == trimRight(body).size() || body[n] == ':');
}

/// A logger's line without a stamp: Python's default `ERROR:torch.distributed...:failed`, vLLM's `INFO 12-24 ...`,
/// or a tool's lower-case tag before its message (`wandb: `, `torch.distributed.elastic.multiprocessing.api: `).
bool isLoggerLine(std::string_view s)
{
    for (const auto level : LogLevels)
        if (startsWith(s, level) && (charAt(s, level.size(), ':') || charAt(s, level.size(), ' ')))
            return true;
    std::size_t n = 0;
    while (n < s.size() &&
           ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_' || s[n] == '.' || s[n] == '-'))
        ++n;
    return n > 0 && s[0] >= 'a' && s[0] <= 'z' && charAt(s, n, ':') && charAt(s, n + 1, ' ');
}

/// A line of only `=`, `-` or `*` (torchrun's failure table, a banner), or a title between two runs of at least four
/// of one of them (Composer's launcher dump `----------End global rank 1 STDERR----------`, `===== Summary =====`):
/// a block of its own begins. A line that only starts with such a run (`---- model.n_layers`) does not.
bool isRule(std::string_view s)
{
    if (s.size() < 8 || (s[0] != '=' && s[0] != '-' && s[0] != '*'))
        return false;
    const std::size_t lead = s.find_first_not_of(s[0]);
    if (lead == std::string_view::npos)
        return true;
    const std::size_t trail = s.size() - 1 - s.find_last_not_of(s[0]);
    return lead >= 4 && trail >= 4;
}

/// A new exception of its own: `Name: ...` whose last component names an error class (`DistBackendError:`,
/// `torch.distributed.elastic.multiprocessing.errors.ChildFailedError:`). NCCL's error names that c10d prints
/// inside its message (`ncclSystemError: System call ...`) start in lower case and go on with the message.
bool startsException(std::string_view body)
{
    const std::size_t n = dottedName(body);
    if (n == 0 || !charAt(body, n, ':'))
        return false;
    const std::string_view name = body.substr(0, n);
    const std::string_view last = name.substr(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
    if (last.empty() || !std::isupper(static_cast<unsigned char>(last[0])))
        return false;
    return last.ends_with("Error") || last.ends_with("Exception") || last.ends_with("Interrupt") ||
        last.ends_with("Exit") || last.ends_with("Warning");
}

bool endsWithColon(std::string_view s)
{
    s = trimRight(s);
    return !s.empty() && s.back() == ':';
}

/// A piece of a message that stops mid-sentence: its last character a letter, a digit or a comma (a paste wrapped
/// at its width: `... on startup is less than` and `desired GPU memory utilization ...` on the next line).
bool endsMidSentence(std::string_view s)
{
    s = trimRight(s);
    return !s.empty() && (std::isalnum(static_cast<unsigned char>(s.back())) || s.back() == ',');
}

/// The next line goes on with a piece that stopped mid-sentence: in lower case, with a number after a comma (a
/// comma ends no sentence: `... max seq len (1048576),` then `22.5 GiB KV cache is needed, ...`), or with the quoted
/// name a Python repr opened (`<class`, `<function`, `<module`: `but got a <class` then
/// `'text_generation_server.utils.dist.FakeGroup'>. rank=0`).
bool continuesSentence(std::string_view piece, std::string_view next)
{
    piece = trimRight(piece);
    next = trimLeft(next);
    if (!endsMidSentence(piece) || next.empty())
        return false;
    const std::string_view lastWord = piece.substr(piece.find_last_of(' ') + 1);
    const bool openRepr =
        lastWord.size() > 1 && lastWord[0] == '<' && lastWord.find('>') == std::string_view::npos && next[0] == '\'';
    return (next[0] >= 'a' && next[0] <= 'z') || (piece.back() == ',' && engine::isDigit(next[0])) || openRepr;
}

/// `AssertionError:`, `torch.distributed.DistStoreError:`: an exception line that names its class and a colon and
/// nothing after it.
bool namesOnlyClass(std::string_view body)
{
    const std::string_view piece = trimRight(trimLeft(body));
    return piece.size() > 1 && piece.back() == ':' && piece.find(' ') == std::string_view::npos;
}

constexpr std::size_t KeptMessageLines = 8;  ///< further lines of an exception's message joined at most

/// tvm-ffi (loaded by FlashInfer into vLLM, SGLang and TensorRT-LLM) prints a native crash's frames in Python's
/// wording under its `!!!!!!! Segfault encountered !!!!!!!` banner: `File "misc/cudawrap.cc", line 92, in
/// ncclCuMemHostEnable()`, `File "<unknown>", line 0, in _PyEval_EvalFrameDefault` (apache/tvm-ffi
/// src/ffi/backtrace_utils.h). A frame in a C, C++, CUDA or assembly file, in `<unknown>`, or of a C++ function
/// (`::` or a parameter list) is no Python frame: each stays its own line for the rules that read crash frames.
bool isNativeFrame(std::string_view frame)
{
    constexpr std::string_view FrameHead = "File \"";
    const std::size_t close = frame.find('"', FrameHead.size());
    if (!startsWith(frame, FrameHead) || close == std::string_view::npos)
        return false;
    const std::string_view path = frame.substr(FrameHead.size(), close - FrameHead.size());
    if (path == "<unknown>" || path.ends_with(".s") || path.ends_with(".S") ||
        (isFileName(path) && !path.ends_with(".py")))
        return true;
    const std::size_t in = frame.find(", in ", close);
    const std::string_view function = in == std::string_view::npos ? std::string_view() : frame.substr(in + 5);
    return function.find("::") != std::string_view::npos || function.find('(') != std::string_view::npos;
}

constexpr std::size_t MaxRelayHeaderBytes = 160;

/// The text before a `Traceback` line is a logger's header when it ends as headers end: with a separator (`- `,
/// `| `, `] `, `> `, `) `) or a level name (`2024-01-19 10:21:39 ERROR `), or is Python's default `ERROR:root:`. A
/// message ends in `: ` before the traceback it announces (SGLang's `Scheduler hit an exception: Traceback ...`) and
/// is no header; a quote in it is a message that quotes a traceback.
bool isRelayHeader(std::string_view header)
{
    const std::string_view trimmed = trimRight(header);
    if (trimmed.empty() || header.size() > MaxRelayHeaderBytes || header.find('"') != std::string_view::npos)
        return false;
    if (trimmed.size() == header.size()) {  // `%(levelname)s:%(name)s:`
        const std::string_view level = header.substr(0, header.find(':'));
        return header.back() == ':' && isLogLevel(level);
    }
    if (std::string_view("-|]>)").find(trimmed.back()) != std::string_view::npos)
        return true;
    const std::string_view last = trimmed.substr(trimmed.find_last_of(' ') + 1);
    return isLogLevel(last);
}

/// `header` with each digit written as `0`: the shape later lines of the relay share (their stamps differ).
std::string shapeOf(std::string_view header)
{
    std::string shape(header);
    std::replace_if(
        shape.begin(), shape.end(), [](char c) { return engine::isDigit(c); }, '0');
    return shape;
}

bool hasShape(std::string_view text, std::string_view shape)
{
    if (text.size() < shape.size())
        return false;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if ((engine::isDigit(text[i]) ? '0' : text[i]) != shape[i])
            return false;
    return true;
}

/// The length of a relay header that `body` starts with, learned from the line it is on: the text before a
/// `Traceback` line, or before a frame (`  File "...", line N, in f`) when the paste starts inside the traceback.
std::size_t relayHeaderLength(std::string_view body)
{
    std::size_t at = body.find(TracebackHead);
    if (at == std::string_view::npos) {
        at = body.find("  File \"");
        if (at == std::string_view::npos || body.find("\", line ", at) == std::string_view::npos)
            return 0;
    }
    return at > 0 && isRelayHeader(body.substr(0, at)) ? at : 0;
}

}  // namespace

bool isShellPrompt(std::string_view s)
{
    if (startsWith(s, ">>> ") || s == ">>>")
        return true;
    if (startsWith(s, "(")) {  // a virtual environment's name before the prompt
        const std::size_t close = s.find(") ");
        if (close == std::string_view::npos || close > 40)
            return false;
        s.remove_prefix(close + 2);
    }
    if (startsWith(s, "[")) {  // Red Hat's `[user@host dir]$ cmd`
        const std::size_t close = s.find(']');
        return close != std::string_view::npos && close < 160 &&
            s.substr(0, close).find('@') != std::string_view::npos &&
            (s.substr(close, 3) == "]$ " || s.substr(close, 3) == "]# ") && close + 3 < s.size();
    }
    const std::string_view token = s.substr(0, s.find(' '));
    if (token.size() == s.size() || token.empty())
        return false;  // a prompt is followed by its command
    if (token == "$" || token == "#")
        return true;
    const char last = token.back();
    if (startsWith(s, "PS ") && s.find("> ") != std::string_view::npos && s.find("> ") < 200)
        return true;
    return (last == '$' || last == '#') && token.find('@') != std::string_view::npos &&
        token.find(':') != std::string_view::npos;
}

void TracebackJoiner::stripRelayHeader(Record& rec)
{
    const std::size_t ray = carriedPrefixLength(rec.text);
    const std::string_view body = std::string_view(rec.text).substr(ray);
    std::size_t cut = 0;
    if (const auto it = m_relay.find(rec.stream); it != m_relay.end() && hasShape(body, it->second)) {
        cut = it->second.size();
    } else if (const std::size_t header = relayHeaderLength(body);
               header > 0 && (m_relay.size() < MaxOpenTracebacks || m_relay.count(rec.stream) != 0)) {
        m_relay[rec.stream] = shapeOf(body.substr(0, header));
        cut = header;
    }
    if (cut > 0)
        rec.text.erase(ray, cut);
}

bool TracebackJoiner::close(std::map<std::uint64_t, Open>::iterator it, const RecordSink& sink)
{
    const bool ok = finish(it->second, sink);
    m_open.erase(it);
    return ok;
}

bool TracebackJoiner::opensOutside(const Record& rec, std::string_view body)
{
    if (m_open.size() >= MaxOpenTracebacks)
        return false;
    // An exception line outside a traceback whose message may go on (`No such file or directory:` and the path on
    // the next line; a sentence a paste wrapped): only the lines that finish a piece ending in `:`, or go on in
    // lower case with a piece that stops mid-sentence, join it. The line may be indented as a whole (a paste
    // quoted as a code block, pip's boxed output).
    if (!rec.logHeader && (endsWithColon(body) || endsMidSentence(body)) && startsException(trimLeft(body))) {
        Open& tb = m_open.emplace(rec.stream, Open{rec, {}, {}, 1}).first->second;
        tb.message = true;
        tb.unfinishedOnly = true;
        if (namesOnlyClass(body))
            m_bareClass = std::make_pair(rec.stream, rec.line);
        if (!endsWithColon(body))
            m_unfinished = rec.stream;  // a wrapped sentence goes on with the very next line only
        return true;
    }
    // An excerpt that starts inside a traceback: its first frame opens it (the record starts there).
    if (body.empty() || (body[0] != ' ' && body[0] != '\t') || !startsWith(trimLeft(body), "File \"") ||
        isNativeFrame(trimLeft(body)))
        return false;
    Open& tb = m_open.emplace(rec.stream, Open{rec, {}, {}, 1}).first->second;
    addFrame(tb, body);
    return true;
}

bool TracebackJoiner::offer(Record& rec, const RecordSink& sink, bool& emit)
{
    stripRelayHeader(rec);
    return take(rec, sink, emit);
}

bool TracebackJoiner::take(Record& rec, const RecordSink& sink, bool& emit)
{
    emit = true;
    // An exception line held outside a traceback because it stops mid-sentence goes on only with the very next line:
    // a line of another stream ends it first, so that the records keep their order. (One that ends in `:` waits for
    // its own stream's next line, as interleaved ranks print the rest of their messages.)
    if (m_unfinished && *m_unfinished != rec.stream) {
        const auto held = m_open.find(*m_unfinished);
        m_unfinished.reset();
        if (held != m_open.end() && held->second.unfinishedOnly && !close(held, sink))
            return false;
    }
    const std::string_view body = bodyOf(rec.text);
    if (takesWrappedMessage(rec, body)) {
        emit = false;
        return true;
    }
    auto it = m_open.find(rec.stream);
    if (startsWith(trimLeft(body), TracebackHead)) {
        if (it != m_open.end() && !close(it, sink))
            return false;
        if (m_open.size() >= MaxOpenTracebacks)
            return true;
        m_open.emplace(rec.stream, Open{rec, {}, {}, 1});
        emit = false;
        return true;
    }
    if (it == m_open.end()) {
        emit = !opensOutside(rec, body);
        return true;
    }
    Open& tb = it->second;
    if (tb.message) {
        if (continuesMessage(tb, rec, body)) {
            emit = false;
            appendMessage(tb, rec, body);
            return true;
        }
        return close(it, sink) &&
            take(rec, sink, emit);  // the line on its own (it may open the stream's next traceback)
    }
    if (body.empty() || body[0] == ' ' || body[0] == '\t') {
        emit = false;
        // The whole traceback indented: torchelastic's Root Cause table (`  traceback : Traceback ...`, frames at
        // 4, the exception at 2), pip's boxed subprocess output. The exception line is indented less than the
        // frames (a frame's source line more).
        const std::string_view trimmed = trimLeft(body);
        if ((!rec.logHeader || tb.first.logHeader) && body.size() - trimmed.size() < tb.frameIndent &&
            tb.frameIndent != std::string_view::npos && isExceptionLine(trimmed)) {
            Record exception = rec;
            exception.text = std::string(rec.text.substr(0, rec.text.size() - body.size())) + std::string(trimmed);
            takeException(tb, exception);
            return true;
        }
        if (tb.lines < m_options.maxJoinedLines) {
            addFrame(tb, body);
            tb.first.length = rec.offset + rec.length - tb.first.offset;
            tb.first.truncated = tb.first.truncated || rec.truncated;
            ++tb.lines;
            ++m_stats.joined;
        }
        return true;
    }
    // A logger that writes its header before every line of a message (vLLM's formatter, a relay whose header the
    // importer took off) heads the exception line as it headed the `Traceback` line.
    if ((!rec.logHeader || tb.first.logHeader) && isExceptionLine(body)) {
        emit = false;
        takeException(tb, rec);
        return true;
    }
    // The frames end without an exception line (a paste that stops at the last frame, output of another kind):
    // the traceback is emitted as its `Traceback` line, and this line is looked at on its own.
    return close(it, sink) && take(rec, sink, emit);
}

void TracebackJoiner::addFrame(Open& tb, std::string_view line)
{
    const std::string_view frame = trimLeft(line);
    if (startsWith(frame, "File \"")) {
        tb.frameIndent = std::min(tb.frameIndent, line.size() - frame.size());
        tb.frames.emplace_back(trimRight(frame));
        if (tb.frames.size() > KeptFrames)
            tb.frames.erase(tb.frames.begin());
    }
    if (!frame.empty() && frame.size() <= MaxInnerLineBytes) {
        tb.inner.emplace_back(trimRight(frame));
        if (tb.inner.size() > KeptInnerLines)
            tb.inner.erase(tb.inner.begin());
    }
}

void TracebackJoiner::takeException(Open& tb, const Record& exception)
{
    Record& out = tb.first;
    out.text = exception.text;
    out.textLine = citedLine(exception);
    if (namesOnlyClass(bodyOf(exception.text)))
        m_bareClass = std::make_pair(exception.stream, exception.line);
    out.length = exception.offset + exception.length - out.offset;
    out.truncated = out.truncated || exception.truncated;
    if (out.time == engine::NoTime) {
        out.time = exception.time;
        out.timeSource = exception.timeSource;
    }
    ++m_stats.joined;
    labelFrames(tb);
    tb.message = true;
    ++tb.lines;
}

void TracebackJoiner::labelFrames(Open& tb)
{
    if (!tb.frames.empty()) {
        std::string frames;
        for (auto f = tb.frames.rbegin(); f != tb.frames.rend(); ++f)
            frames += (frames.empty() ? "" : " <- ") + *f;
        tb.first.labels["traceback"] = frames;  // context for people; extractors see the exception line unchanged
    }
    tb.first.innerLines = std::move(tb.inner);
}

bool TracebackJoiner::continuesMessage(const Open& tb, const Record& rec, std::string_view body) const
{
    // The exception's message goes on over further lines of the same stream (the stream is the map's key): c10d's
    // `ncclSystemError: ...`, `Last error:` and its cause, a path the message printed on the next line, Ray's
    // indented actor fields. It ends at a blank line, a line with a header of its own (a logger, NCCL, Slurm),
    // another exception, a logger's unstamped line (`ERROR:name:...`, `wandb: ...`), another program's line (`NVRM:`,
    // `pcieport 0000:00:01.0: AER:`, `NCCL WARN`), a shell prompt, a `====` rule, a
    // chained traceback's words, the header CPython's unraisable hook or thread excepthook prints before its own
    // traceback (`Exception ignored in: <function X.__del__ ...>`, `Exception in thread Thread-1:`), the C++
    // backtrace c10 appends, a Markdown code fence around the paste, or a traceback the message quotes (PyTorch's
    // DataLoader `Caught X in DataLoader worker process N.` then `Original Traceback (most recent call last):` and its
    // frames).
    if (tb.messageLines >= KeptMessageLines || tb.lines >= m_options.maxJoinedLines || rec.logHeader ||
        rec.kind != tb.first.kind)
        return false;
    if (tb.unfinishedOnly && !endsWithColon(tb.first.text) && !continuesSentence(tb.first.text, body))
        return false;
    // Python writes the message at once: a line stamped more than a second apart is other output, and so is a
    // stamped line after an unstamped traceback (a logger's next record: `2024-05-01 10:00:00,100 - distributed...`).
    if (rec.time != engine::NoTime &&
        (tb.first.time == engine::NoTime || rec.time - tb.first.time > engine::NsPerSec ||
         tb.first.time - rec.time > engine::NsPerSec))
        return false;
    const std::string_view piece = trimLeft(trimRight(body));
    const bool indented = !body.empty() && (body[0] == ' ' || body[0] == '\t');
    return !piece.empty() && !isRule(piece) && !startsWith(piece, "```") && !startsException(piece) &&
        !isSlurmLine(piece) && !isShellPrompt(piece) && (indented || !isLoggerLine(piece)) &&
        !isOtherProgramsLine(piece) && !startsWith(piece, "During handling of the above exception") &&
        !startsWith(piece, "The above exception was the direct cause") &&
        !startsWith(piece, "Exception raised from ") && !startsWith(piece, "Original Traceback") &&
        !startsWith(piece, "Exception ignored in") && !startsWith(piece, "Exception in thread ") &&
        !startsWith(piece, "File \"");
}

void TracebackJoiner::appendMessage(Open& tb, const Record& rec, std::string_view body)
{
    const std::string_view piece = trimRight(body);
    // A terminal cuts a long message at its width, inside a word as often as not (`... unable to proceed with
    // launch` then `ing`): the line before (the exception line or the message's last line) as wide as a terminal,
    // ending on a letter or digit, and this one going on unindented in lower case. The text joins them with a space
    // as for any message line; the pair without one is matched too, as a further line of the message.
    std::string glued;
    const bool lastKept = tb.first.messageLines.size() == tb.messageLines;
    const std::string_view before = tb.messageLines == 0 ? std::string_view(tb.first.text)
        : lastKept                                       ? std::string_view(tb.first.messageLines.back())
                                                         : std::string_view();
    if (!piece.empty() &&
        (std::islower(static_cast<unsigned char>(piece[0])) || std::isdigit(static_cast<unsigned char>(piece[0])))) {
        if (!before.empty() && std::isalnum(static_cast<unsigned char>(before.back())) &&
            displayWidth(before) >= MinWrapWidth && before.size() + piece.size() <= MaxInnerLineBytes)
            glued.assign(before).append(piece);
    }
    appendContinuation(tb.first.text, piece, false, m_options.maxLineBytes);
    if (piece.size() <= MaxInnerLineBytes)
        tb.first.messageLines.emplace_back(trimLeft(piece));
    if (!glued.empty())
        tb.first.messageLines.push_back(std::move(glued));
    tb.first.length = rec.offset + rec.length - tb.first.offset;
    tb.first.truncated = tb.first.truncated || rec.truncated;
    ++tb.messageLines;
    ++tb.lines;
    ++m_stats.joined;
}

bool TracebackJoiner::takesWrappedMessage(const Record& rec, std::string_view body)
{
    const auto bare = m_bareClass;
    m_bareClass.reset();
    if (!bare || bare->first == rec.stream || rec.line != bare->second + 1 || rec.logHeader)
        return false;
    const auto it = m_open.find(bare->first);
    const std::string_view piece = trimLeft(trimRight(body));
    if (it == m_open.end() || !it->second.message || !namesOnlyClass(bodyOf(it->second.first.text)) || piece.empty() ||
        startsException(piece) || isOtherProgramsLine(piece) || startsWith(piece, TracebackHead))
        return false;
    appendMessage(it->second, rec, body);
    return true;
}

bool TracebackJoiner::finish(Open& tb, const RecordSink& sink)
{
    if (!tb.message)
        labelFrames(tb);
    Record out = std::move(tb.first);
    m_stats.stamped += out.time != engine::NoTime ? 1 : 0;
    return sink(out);
}

bool TracebackJoiner::flushAll(const RecordSink& sink)
{
    std::vector<Open*> open;
    for (auto& [stream, tb] : m_open)
        open.push_back(&tb);
    std::sort(open.begin(), open.end(), [](const Open* a, const Open* b) { return a->first.line < b->first.line; });
    bool ok = true;
    for (Open* tb : open)
        ok = ok && finish(*tb, sink);
    m_open.clear();
    m_unfinished.reset();
    return ok;
}

}  // namespace attrib::importers::detail
