// SPDX-License-Identifier: GPL-3.0-or-later
// Reading one bundle entry: decompress, sniff, parse into records, keep what extractors match.
#include "importers/collector.h"
#include "importers/format_prefix.h"
#include "importers/timestamps.h"
#include "importers/utf16_text.h"

#include "engine/json_util.h"
#include "importers/bundle_access.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <tuple>

namespace attrib::importers::detail {

using namespace attrib::engine;

namespace {

constexpr std::size_t SniffBytes = std::size_t{64} * 1024;
/// A head holding fewer lines than this grows (up to MaxSniffBytes) so that a first line of 64 KiB or more
/// (a progress bar) does not leave the sniffer only one line to judge.
constexpr std::size_t SniffMinLines = 16;
constexpr std::size_t MaxSniffBytes = std::size_t{1024} * 1024;

bool needsMore(const std::string& head)
{
    if (head.size() >= MaxSniffBytes)
        return false;
    std::size_t lines = 0;
    for (std::size_t pos = 0; lines < SniffMinLines && (pos = head.find('\n', pos)) != head.npos; ++pos)
        ++lines;
    return lines < SniffMinLines;
}

/// Reads up to SniffBytes from `read` (more while the head holds few lines); on a read error sets `failed` and,
/// if the stream did not say why, the errno text into `error`.
std::string readHead(const ReadFn& read, bool& failed, const ErrorSink& error)
{
    std::string head(SniffBytes, '\0');
    std::size_t got = 0;
    failed = false;
    for (;;) {
        if (got == head.size()) {
            if (!needsMore(head))
                break;
            head.resize(head.size() * 2);
        }
        errno = 0;
        const long n = read(head.data() + got, head.size() - got);
        if (n < 0) {
            failed = true;
            if (error && error->empty())
                *error = errno != 0 ? std::strerror(errno) : "read error";
            break;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    return head;
}

std::string truncationMarker(const Record& r)
{
    return " [... line of " + std::to_string(r.fullLength) + " bytes truncated]";
}

}  // namespace

int yearOf(TimeNs t)
{
    if (t == NoTime)
        return 0;
    return engine::civilTime(t).year;
}

Collector::Collector(const Catalog& catalog, const AnalyzeOptions& options, AnalysisResult& result, Pass pass)
    : m_catalog(catalog)
    , m_options(options)
    , m_result(result)
    , m_pass(pass)
    , m_extractors(catalog.extractorSet())
    , m_metrics(catalog.metricRules(), NoTime, NoTime, 2'000'000)
{
    if (result.context.source == "workload.json" && result.context.nodes.size() == 1)
        m_soleNode = result.context.nodes.front();
}

void Collector::readEntry(std::size_t index, const BundleEntry& entry, const ReadFn& raw, const ErrorSink& error,
                          const std::string& openError, FileCoverage& cov, FileShard& shard,
                          DecompressionBudget& budget)
{
    if (!raw) {
        cov.status = CoverageStatus::Errored;
        cov.errors.push_back(entry.file.path + ": " + (openError.empty() ? "cannot be opened" : openError));
        return;
    }
    bool compressed = false;
    ReadFn read = maybeDecompress(raw, entry.file.size, &budget, error, compressed);
    bool failed = false;
    std::string head = readHead(read, failed, error);
    if (failed && head.empty()) {
        cov.status = CoverageStatus::Errored;
        cov.errors.push_back(entry.file.path + ": " + (error && !error->empty() ? *error : "read error"));
        return;
    }
    if (const Utf16Order order = utf16Order(head); order != Utf16Order::None) {
        // Windows tools' UTF-16 text: read as UTF-8 from here on (its lines are the file's own, in the same order).
        read = utf16Reader(replayReader(std::move(head), read), order);
        head = readHead(read, failed, error);
        cov.errors.push_back(entry.file.path + ": UTF-16 text (" +
                             (order == Utf16Order::LittleEndian ? "little" : "big") +
                             "-endian) read as UTF-8; byte offsets are of the UTF-8 text");
    }
    FileState fs;
    fs.index = index;
    fs.entry = &entry;
    fs.cov = &cov;
    fs.shard = &shard;
    if (!entry.file.archiveMember.empty() && hasArchiveMagic(head)) {
        cov.status = CoverageStatus::Skipped;
        cov.errors.push_back(entry.file.path + ": skipped: an archive inside an archive is not expanded");
        return;
    }
    fs.sniffed = sniff(head, entry.file.path);
    cov.kind = fs.sniffed.kind;
    cov.format = toString(fs.sniffed.format) + std::string(compressed ? " (compressed)" : "");
    if (fs.sniffed.kind == SourceKind::Unknown && fs.sniffed.format == Format::None) {
        cov.status = CoverageStatus::Skipped;
        cov.errors.push_back(entry.file.path + ": skipped: " + fs.sniffed.reason);
        return;
    }
    ReaderOptions ro;
    ro.maxLineBytes = m_options.maxLineBytes;
    ro.maxDocumentBytes = m_options.maxDocumentBytes;
    ro.column = fs.sniffed.column;
    ro.notebook = fs.sniffed.notebook;
    ro.wrapWidth = detectWrapWidth(head, fs.sniffed);
    TimeHints hints;
    hints.year = m_result.context.start != NoTime ? yearOf(m_result.context.start) : yearOf(entry.mtime * NsPerSec);
    shard.yearFromFileTime = m_result.context.start == NoTime;
    if (m_result.context.start == NoTime && !plausibleEpochSeconds(entry.mtime)) {
        hints.year = 0;  // a 1970 (or far-future) file time must not date the stamps that lack a year
        cov.errors.push_back(entry.file.path + ": implausible file time (year " +
                             std::to_string(yearOf(entry.mtime * NsPerSec)) + "): not used to date stamps");
        cov.status = CoverageStatus::Partial;
    }
    const ReadFn all = failed ? replayReader(std::move(head), {}) : replayReader(std::move(head), read);
    ReaderStats stats = readRecords(all, fs.sniffed, hints, ro, [&](Record& r) { return onRecord(r, fs); });
    if (m_pass == Pass::Analysis) {  // the end of the file decides the matches still held for a later line
        fs.context.finish();
        takeDecided(fs);
        mergeLate(fs);
    }
    if (failed)
        stats.error = true;
    if (stats.error && error && !error->empty())
        stats.errorText = *error;
    reportProgress(m_bytesDone += entry.file.size);  // small files never reach the in-file report
    if (fs.sniffed.format == Format::NvidiaBugReport && fs.kernelRecords > 0)
        cov.kind = SourceKind::Kernel;  // it carries the node's kernel log
    describe(stats, fs, cov);
}

bool Collector::onRecord(Record& r, FileState& fs)
{
    if ((++fs.records & 0x3fff) == 0) {
        if (cancelled())
            return false;
        reportProgress(m_bytesDone + r.offset);
    }
    if (m_pass == Pass::Leads)
        return offerLead(r, fs);
    if (!r.labels.empty() && r.labels.begin()->first.rfind("context.", 0) == 0)
        collectContext(r.labels, fs);
    SourceKind kind = r.kind != SourceKind::Unknown ? r.kind : fs.sniffed.kind;
    takeBroadcastHost(r, fs);
    if (r.host.empty())
        r.host = kubeletEventNode(r.text);
    if (r.host != fs.lastHost) {
        fs.lastHost = r.host;
        fs.lastNode = shortHost(r.host);
    }
    trackDescribedNode(r.text, fs);
    trackPromptNode(r.text, fs);
    // The node: from the file's path, else from the line itself, else from the `kubectl describe` object the line
    // belongs to, else from the shell prompt the line was printed after, else the job's only node (workload.json).
    const std::string& node = !fs.entry->nodeHint.empty() ? fs.entry->nodeHint
        : !fs.lastNode.empty()                            ? fs.lastNode
        : !fs.describedNode.empty()                       ? fs.describedNode
        : !fs.promptNode.empty()                          ? fs.promptNode
                                                          : m_soleNode;
    if (!node.empty())
        countNode(kind, node, fs);
    if (r.isMetric) {
        onMetric(r, node, fs);
        return true;
    }
    fs.kernelRecords += kind == SourceKind::Kernel ? 1 : 0;
    offerBootTime(r, kind, node, fs);
    placeInTime(r, node, fs);
    if (r.text.empty())
        return true;
    // A rule with an `after` holds its match until a later line decides it: the record is kept aside meanwhile.
    const auto waits = [&] { return !fs.context.pending.empty() && fs.context.pending.back().tag == fs.records; };
    bool matched = matchRecord(r, kind, fs);
    if (!matched && !waits())
        matched = matchWrapped(r, kind, fs);  // may replace the record by it joined to the line before
    else
        offerHead(r, kind, fs);  // a line a general rule read may still head a message broken by hand
    if ((matched || waits()) && sanitizeUtf8(r.text))  // rare: match again so captures hold valid UTF-8 too
        matched = matchRecord(r, kind, fs);
    const std::size_t kept = matched ? keep(r, kind, node, fs) : NotKept;
    if (waits())
        holdRecord(r, kind, node, kept, fs);
    if (!fs.context.resolved.empty())
        takeDecided(fs);
    // Records no held match refers to any more are forgotten (pending matches are in record order).
    const std::uint64_t oldest = fs.context.pending.empty() ? UINT64_MAX : fs.context.pending.front().tag;
    while (!fs.held.empty() && fs.held.begin()->first < oldest)
        fs.held.erase(fs.held.begin());
    return true;
}

/// The record's matches into the shard: a traceback's innermost lines first (as the lines before it, so they can
/// be context for its exception line), then its text; a rule that matched both keeps its last match (the exception
/// line's). Then the further lines of the exception's message (joined into the text too), each matched as the
/// record it was before it was joined: its matches are all kept, with the fields that line names.
bool Collector::matchRecord(Record& r, SourceKind kind, FileState& fs)
{
    FileShard& shard = *fs.shard;
    shard.matches.clear();
    bool any = false;
    auto& pending = fs.context.pending;  // matched again (UTF-8 repaired): the record's held matches are redone
    pending.erase(std::remove_if(pending.begin(), pending.end(), [&](const auto& p) { return p.tag == fs.records; }),
                  pending.end());
    fs.context.tag = fs.records;
    for (const std::string& inner : r.innerLines) {
        fs.context.line = fs.records - 1;
        any = m_extractors.match(kind, inner, shard.matches, &fs.context) || any;
    }
    fs.context.line = fs.records;
    any = m_extractors.match(kind, r.text, shard.matches, &fs.context) || any;
    if (any && !r.innerLines.empty()) {
        auto& matches = shard.matches;
        for (std::size_t i = 0; i < matches.size();) {
            const auto later = std::find_if(matches.begin() + static_cast<std::ptrdiff_t>(i) + 1, matches.end(),
                                            [&](const engine::LineMatch& m) { return m.rule == matches[i].rule; });
            if (later != matches.end())
                matches.erase(matches.begin() + static_cast<std::ptrdiff_t>(i));
            else
                ++i;
        }
    }
    // A rule that matches a message line keeps that match only (the line's own fields), not also the one it had on
    // the joined text that holds the line: one line, one event, as when the lines were records of their own.
    for (const std::string& further : r.messageLines) {
        const std::size_t before = shard.matches.size();
        if (!m_extractors.match(kind, further, shard.matches, &fs.context))
            continue;
        any = true;
        std::vector<engine::LineMatch> added(
            std::make_move_iterator(shard.matches.begin() + static_cast<std::ptrdiff_t>(before)),
            std::make_move_iterator(shard.matches.end()));
        shard.matches.resize(before);
        std::erase_if(shard.matches, [&](const engine::LineMatch& m) {
            return std::any_of(added.begin(), added.end(),
                               [&](const engine::LineMatch& a) { return a.rule == m.rule; });
        });
        std::move(added.begin(), added.end(), std::back_inserter(shard.matches));
    }
    return any;
}

/// One more record of (kind, node) in this file; at most 4096 pairs are counted.
void Collector::countNode(SourceKind kind, const std::string& node, FileState& fs)
{
    if (fs.counted && fs.countedAs->first == kind && fs.countedAs->second == node) {
        ++*fs.counted;
        return;
    }
    auto& nodes = fs.shard->nodes;
    auto it = nodes.find(KindNode{kind, node});
    if (it == nodes.end()) {
        if (nodes.size() >= 4096)
            return;
        it = nodes.emplace(KindNode{kind, node}, 0).first;
    }
    ++it->second;
    fs.countedAs = &it->first;
    fs.counted = &it->second;
}

/// The leads pass sees the records the analysis saw (same reader) and offers the ones with text; a plain file
/// stops once it has its leads (an archive member is read on: its stream continues with the next member).
bool Collector::offerLead(const Record& r, FileState& fs)
{
    if (r.isMetric || r.text.empty())
        return true;
    LeadCollector& leads = fs.shard->leads;
    leads.offer(fs.index, fs.entry->file.path, citedLine(r), r.text);
    return !leads.full() || !fs.entry->file.archiveMember.empty();
}

void Collector::offerBootTime(const Record& r, SourceKind kind, const std::string& node, FileState& fs)
{
    if (r.uptime == NoTime || (kind != SourceKind::Kernel && kind != SourceKind::Syslog && kind != SourceKind::Text))
        return;
    if (r.time != NoTime && r.timeSource != TimeSource::BootRelative)
        fs.shard->boot.offer(node, r.time, r.uptime,
                             fs.sniffed.format == Format::JournalJson || fs.sniffed.format == Format::JournalExport
                                 ? BootClock::Source::Journal
                                 : BootClock::Source::Syslog);
    else if (r.timeSource == TimeSource::BootRelative)
        fs.shard->boot.offerRtcLine(node, r.text, r.uptime);
}

/// Inherits the last time for records without one; tracks the file's span (boot-relative spans apart).
void Collector::placeInTime(Record& r, const std::string& node, FileState& fs)
{
    if (r.time == NoTime) {
        if (fs.lastTime != NoTime) {
            r.time = fs.lastTime;
            r.timeSource = fs.lastSource == TimeSource::BootRelative ? fs.lastSource : TimeSource::Inherited;
        }
        return;
    }
    fs.lastTime = r.time;
    fs.lastSource = r.timeSource;
    fs.shard->yearless += r.timeSource == TimeSource::YearInferred ? 1 : 0;
    fs.shard->dated += r.timeSource == TimeSource::Absolute ? 1 : 0;
    FileCoverage& cov = *fs.cov;
    if (r.timeSource != TimeSource::BootRelative) {
        cov.first = cov.first == NoTime ? r.time : std::min(cov.first, r.time);
        cov.last = cov.last == NoTime ? r.time : std::max(cov.last, r.time);
        return;
    }
    auto& spans = fs.shard->relativeSpans;
    if (spans.size() >= 4096 && !spans.count(node))
        return;  // a file naming endless hosts must not grow this without bound
    auto [it, fresh] = spans.emplace(node, std::make_pair(r.time, r.time));
    it->second = {std::min(it->second.first, r.time), std::max(it->second.second, r.time)};
}

/// The observation a record becomes (its id not yet given).
Observation Collector::observe(const Record& r, SourceKind kind, const std::string& node, const FileState& fs) const
{
    Observation obs;
    obs.kind = kind;
    obs.source = {static_cast<std::uint32_t>(fs.index),
                  static_cast<std::uint32_t>(std::min<std::uint64_t>(r.length, UINT32_MAX)), citedLine(r), r.offset};
    obs.node = node;
    obs.rank = r.rank >= 0 ? r.rank : fs.entry->rankHint;
    obs.gpu = r.gpu;
    obs.time = r.time;
    obs.timeSource = r.time == NoTime ? TimeSource::None : r.timeSource;
    // A copy of the exact size: the record's buffer (as large as the file's longest line so far) stays with the
    // reader for the next line instead of being kept, mostly empty, by every observation.
    obs.text = r.truncated ? r.text + truncationMarker(r) : r.text;
    for (const auto& [k, v] : r.labels)
        if (k.rfind("context.", 0) != 0)
            obs.sample.edit().labels.emplace(k, v);
    return obs;
}

/// A matched record becomes an observation; its matches become events. Returns where its observation is in the
/// shard (a repeat folded into an earlier line: that line's).
std::size_t Collector::keep(Record& r, SourceKind kind, const std::string& node, FileState& fs)
{
    FileShard& shard = *fs.shard;
    Observation obs = observe(r, kind, node, fs);
    obs.id = shard.observations.size() + 1;
    LineFolds::Slot* slot = fs.folds.find(lineSignature(obs, shard.matches));
    if (slot && slot->seen > LineFolds::Kept && slot->folds(obs.time)) {
        fold(*slot, std::move(obs), shard);
        return slot->observation;
    }
    const bool tail = slot && ++slot->seen > LineFolds::Kept;
    if (tail)  // this line becomes the tail that later repeats fold into: its events stay at firstEvent + i
        *slot = {slot->seen, shard.observations.size(), shard.events.size(), obs.time};
    for (const auto& m : shard.matches) {
        Event e = makeEvent(m, obs);
        if (!tail && e.symptom.empty()) {
            // A fact stated again joins the earlier event; a tail's events are neither joined nor joined into (a
            // fold rewrites them).
            if (const std::size_t same = fs.facts.sameAs(e, shard.events); same != ContextFacts::None) {
                Event& first = shard.events[same];  // it stands for one more event (rules count 1 + folded)
                first.folded += 1 + e.folded;
                first.observations.push_back(obs.id);
                continue;
            }
        }
        shard.events.push_back(std::move(e));
        fs.eventRecords.push_back(fs.records);
    }
    shard.observations.push_back(std::move(obs));
    return shard.observations.size() - 1;
}

/// A repeat after the kept lines of its signature: it replaces the tail (the latest line is the one shown) and
/// the tail counts one more folded line. Its matches are the tail's (same signature), so its events too.
void Collector::fold(const LineFolds::Slot& slot, Observation obs, FileShard& shard)
{
    Observation& tail = shard.observations[slot.observation];
    obs.id = tail.id;
    obs.folded = tail.folded + 1;
    tail = std::move(obs);
    for (std::size_t i = 0; i < shard.matches.size(); ++i) {
        Event e = makeEvent(shard.matches[i], tail);
        e.folded = tail.folded;
        shard.events[slot.firstEvent + i] = std::move(e);
    }
}

void Collector::onMetric(const Record& r, const std::string& node, FileState& fs)
{
    FileCoverage& cov = *fs.cov;
    if (r.time != NoTime) {
        cov.first = cov.first == NoTime ? r.time : std::min(cov.first, r.time);
        cov.last = cov.last == NoTime ? r.time : std::max(cov.last, r.time);
    }
    if (!m_metrics.wants(r.metric))
        return;
    MetricSample s;
    s.source = {static_cast<std::uint32_t>(fs.index),
                static_cast<std::uint32_t>(std::min<std::uint64_t>(r.length, UINT32_MAX)), r.line, r.offset};
    s.time = r.time;
    s.timeSource = r.time == NoTime ? TimeSource::None : r.timeSource;
    s.value = r.value;
    fs.shard->metrics.push_back({r.metric, node, r.gpu, r.labels, s});
}

void Collector::collectContext(const std::map<std::string, std::string>& labels, FileState& fs)
{
    if (m_result.context.source == "workload.json")
        return;
    auto& found = fs.shard->context;
    if (found.empty())
        found["context.source"] =
            fs.sniffed.format == Format::ObservationsJsonl ? "observations.jsonl" : toString(fs.sniffed.format);
    for (const auto& [key, value] : labels)
        if (key.rfind("context.", 0) == 0 && !value.empty())
            found.emplace(key, value);  // the first value of a key in the file wins
}

void Collector::reportProgress(std::uint64_t done)
{
    if (!m_options.progress)
        return;
    const std::lock_guard lock(m_progressMutex);
    m_progressMax = std::max(m_progressMax, std::min(done, m_bytesTotal));
    m_options.progress->progress(m_pass == Pass::Leads ? engine::ProgressStage::Leads
                                                       : engine::ProgressStage::ReadingFiles,
                                 m_progressMax, m_bytesTotal);
}

/// Moves `part` to the end of `into`, which grows by doubling and keeps an eighth of its size free (for what the
/// early rules add to the events: at the exact size the first rule that adds one would copy them all). A file's
/// part joins as soon as it is read, so its small vectors go back to the heap for the next file to reuse: kept
/// until the last file (and then joined), they held heap pages that stayed resident next to the joined copy, the
/// evidence's structs twice at the memory peak of a large bundle. A joined vector this large lives in a mapping of
/// its own (app/cli/main.cpp): capacity not yet used is not resident, and the block a doubling leaves is given
/// back at once.
namespace {

template <class T> void appendWithRoom(std::vector<T>& into, std::vector<T>& part)
{
    const std::size_t size = into.size() + part.size();
    if (size + size / 8 > into.capacity())
        into.reserve(std::max(2 * into.capacity(), size + size / 8));
    into.insert(into.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
    std::exchange(part, {});
}

}  // namespace

void Collector::absorb(std::size_t index, FileShard&& shard)
{
    const std::uint64_t base = m_nextObservation - 1;
    m_nextObservation += shard.observations.size();
    for (auto& o : shard.observations)
        o.id += base;
    for (auto& e : shard.events)
        for (auto& id : e.observations)
            id += base;
    if (m_pass == Pass::Analysis) {
        appendWithRoom(m_result.observations, shard.observations);
        appendWithRoom(m_events, shard.events);
    }
    m_leads.absorb(std::move(shard.leads));
    if (shard.yearless > 0 && shard.dated == 0 && shard.yearFromFileTime) {
        m_guessedYears.push_back(index);
        m_guessedBoots.emplace(index, std::move(shard.boot));  // joins once its year is settled
    } else {
        m_boot.absorb(shard.boot);
        if (shard.dated > 0 && shard.yearless == 0)
            m_datedFiles.push_back(index);
    }
    if (!shard.nodes.empty())
        m_fileNodes[index] = std::move(shard.nodes);
    if (!shard.relativeSpans.empty())
        m_relativeSpans[index] = std::move(shard.relativeSpans);
    if (!shard.context.empty())
        m_contexts[index] = std::move(shard.context);
    for (const auto& m : shard.metrics)
        m_metrics.add(m.metric, m.node, m.gpu, m.labels, m.sample);
}

void Collector::applyContext()
{
    ExecutionContext& ctx = m_result.context;
    if (ctx.source == "workload.json" || m_contexts.empty())
        return;
    const auto& labels = m_contexts.begin()->second;  // the first file (in bundle order) that names the job
    auto get = [&](const char* key) {
        auto it = labels.find(key);
        return it == labels.end() ? std::string() : it->second;
    };
    if (!get("context.scheduler").empty())
        ctx.scheduler = get("context.scheduler");
    ctx.workloadId = get("context.job");
    ctx.platform = get("context.platform");
    ctx.start = isoTime(get("context.start"));
    ctx.end = isoTime(get("context.end"));
    const std::string nodes = get("context.nodes");
    for (std::size_t pos = 0; pos < nodes.size();) {
        std::size_t comma = nodes.find(',', pos);
        if (comma == std::string::npos)
            comma = nodes.size();
        if (comma > pos)
            ctx.nodes.push_back(shortHost(std::string_view(nodes).substr(pos, comma - pos)));
        pos = comma + 1;
    }
    m_contextSource = get("context.source");
}

}  // namespace attrib::importers::detail
