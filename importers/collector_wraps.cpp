// SPDX-License-Identifier: GPL-3.0-or-later
// Messages broken over lines by hand: a ticket, a documentation page or a chat paste wraps a long message wherever
// the poster's editor did (`srun: error: Unable to create step for job 4203072: Invalid generic` then `resource
// (gres) specification`), at no fixed width, so the reader's terminal-wrap joining cannot see it. Two neighbouring
// unstamped lines, the second matching nothing, are matched once more as one line: joined with a space, and without
// one where the break fell inside a word. The joined line is kept only when it matches a rule the first line did not
// match on its own, and evidence cites its first line.
#include "importers/collector.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <utility>

namespace attrib::importers::detail {

namespace {

/// Lines longer than this are records of their own, not pieces of a hand-wrapped message.
constexpr std::size_t MaxWrapPiece = 1000;
/// Joined pairs matched per file at most: a large unstamped log costs at most this many extra matches.
constexpr std::uint32_t MaxWrapTries = 20000;

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

bool isAlnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

/// A piece a message can go on after: it stops on a letter, a digit, a closing parenthesis (a value's unit or code,
/// `status=IBV_WC_RETRY_EXC_ERR(12)`, after which a message goes on with its next field), or a character no sentence
/// ends with.
bool endsOpen(std::string_view s)
{
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    if (s.size() < 16)
        return false;  // a word or two alone is a heading or a value, not the head of a long message
    const char c = s.back();
    return isAlnum(c) || c == ',' || c == '(' || c == ')' || c == '/' || c == '-' || c == '_' || c == '=' || c == ':';
}

/// The rest of a broken message: it goes on in lower case, with a number, a quoted or bracketed name or a path. A
/// capital letter opens a line of its own (a new message, a logger's line, an exception).
bool startsContinuation(std::string_view s)
{
    if (s.empty())
        return false;
    const char c = s.front();
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '"' ||
        c == '\'' || c == '(' || c == '/' || c == '.' || c == '_' || c == '<';
}

/// Lines a runtime stamped apart by less than this were one write (a container runtime's or a collector's stamp
/// on each line of one message).
constexpr engine::TimeNs SameWrite = 10'000'000;

/// The line carries no stamp of its own (its time, if any, was inherited from the lines before it).
bool unstamped(const Record& r)
{
    return r.timeSource == TimeSource::None || r.timeSource == TimeSource::Inherited;
}

/// A line that may be a piece of a hand-wrapped message: no logger header, no traceback or message lines joined into
/// it, not long. Its stamp, if any, is a transport's (CRI, a collector's ISO stamp): a logger's line has a header.
bool isPiece(const Record& r)
{
    return !r.logHeader && r.innerLines.empty() && r.messageLines.empty() && r.text.size() <= MaxWrapPiece;
}

/// Two lines that may be one message: both unstamped, or stamped to the sub-second as one write (a message of several
/// lines that a container runtime stored as one record per line).
bool sameWrite(const Record& head, const Record& next)
{
    if (unstamped(head) && unstamped(next))
        return true;
    if (unstamped(head) || unstamped(next) || head.time == engine::NoTime || next.time == engine::NoTime)
        return false;
    // A stamp in whole seconds (syslog, a journal) says nothing of one write: many lines share a second.
    if (head.time % engine::NsPerSec == 0)
        return false;
    const engine::TimeNs gap = next.time - head.time;
    return gap >= 0 && gap < SameWrite;
}

/// A rule with an `after` holds a match of the current record for a later line.
bool holdsMatch(const engine::ContextMemory& context, std::uint64_t record)
{
    return !context.pending.empty() && context.pending.back().tag == record;
}

}  // namespace

bool Collector::matchWrapped(Record& r, SourceKind& kind, FileState& fs)
{
    // The rest of a message carries no launcher prefix, host or rank of its own, or the same ones as its head; it is
    // read as the head's kind (the second line of an `srun: error:` message is no Slurm line by itself).
    const Record& head = fs.wrapHead;
    const bool follows = isPiece(r) && fs.wrapHeadRecord != 0 && fs.wrapHeadRecord + 1 == fs.records &&
        sameWrite(head, r) && (r.stream == 0 || r.stream == head.stream) && (r.host.empty() || r.host == head.host) &&
        (r.rank < 0 || r.rank == head.rank) && fs.wrapTries < MaxWrapTries;
    if (follows) {
        const SourceKind headKind = fs.wrapHeadKind;
        bool matched = false;
        if (joinWithHead(r, headKind, matched, fs)) {
            fs.wrapHeadKind = kind;  // the line as read, now the head of the next pair
            kind = headKind;
            return matched;
        }
    }
    offerHead(r, kind, fs);
    return false;
}

void Collector::offerHead(const Record& r, SourceKind kind, FileState& fs)
{
    // Once the file's tries are spent no pair is matched again, so no head is copied either.
    if (holdsMatch(fs.context, fs.records) || fs.wrapTries >= MaxWrapTries || !isPiece(r) || !endsOpen(r.text)) {
        fs.wrapHeadRecord = 0;
        return;
    }
    fs.wrapHead = r;
    fs.wrapHeadRecord = fs.records;
    fs.wrapHeadKind = kind;
    fs.wrapHeadRules.clear();
    for (const engine::LineMatch& m : fs.shard->matches)  // empty when the line matched nothing
        fs.wrapHeadRules.push_back(m.rule);
}

/// Matches the head and `r` as one line of the head's `kind`. When that matches (or holds a match for a later line),
/// `r` becomes the joined record and the line as read becomes the head of the next pair (a message broken twice);
/// returns whether it did, `matched` whether the joined line matched.
bool Collector::joinWithHead(Record& r, SourceKind kind, bool& matched, FileState& fs)
{
    std::string_view head = fs.wrapHead.text;
    while (!head.empty() && isBlank(head.back()))
        head.remove_suffix(1);
    std::string_view next = r.text;
    while (!next.empty() && isBlank(next.front()))
        next.remove_prefix(1);
    if (!startsContinuation(next))
        return false;
    ++fs.wrapTries;
    // Matches the pair joined with `separator`, in `joined`: the rules it adds to what the head's own line matched
    // (those are its own record's), and whether a rule holds a match of it for a later line.
    const auto tryJoin = [&](std::string_view separator, Record& joined) {
        joined = fs.wrapHead;
        joined.text.assign(head).append(separator).append(next);
        joined.length = r.offset + r.length - joined.offset;
        matchRecord(joined, kind, fs);
        std::erase_if(fs.shard->matches, [&](const engine::LineMatch& m) {
            return std::find(fs.wrapHeadRules.begin(), fs.wrapHeadRules.end(), m.rule) != fs.wrapHeadRules.end();
        });
        return std::make_pair(fs.shard->matches.size(), holdsMatch(fs.context, fs.records));
    };
    // A break between words lost its space; a break inside a word (both sides letters or digits, as a terminal cuts
    // at its width) had none. Where both readings are possible the one more rules read wins, the space on a tie.
    Record joined;
    auto [count, holds] = tryJoin(" ", joined);
    if (isAlnum(head.back()) && isAlnum(next.front())) {
        Record glued;
        const auto [gluedCount, gluedHolds] = tryJoin("", glued);
        if (gluedCount > count || (count == 0 && !holds && gluedHolds)) {
            std::swap(joined, glued);
            count = gluedCount;
            holds = gluedHolds;
        } else if (count > 0 || holds) {
            std::tie(count, holds) = tryJoin(" ", joined);  // the matches of the spaced pair again
        }
    }
    matched = count > 0;
    if (matched || holds) {
        std::swap(r, joined);  // `joined` now holds the line as read
        fs.wrapHead = std::move(joined);
        fs.wrapHeadRecord = fs.records;
        fs.wrapHeadRules.clear();
        return true;
    }
    matched = false;
    return false;
}

}  // namespace attrib::importers::detail
