// SPDX-License-Identifier: GPL-3.0-or-later
// After the last entry: per-file coverage text, guessed years aligned, boot-relative conversion, metric rules, id
// renumbering.
#include "importers/collector.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <utility>

namespace attrib::importers::detail {

using namespace attrib::engine;

namespace {

std::string plural(std::uint64_t n, const char* what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

bool carriesTime(SourceKind kind)
{
    return kind != SourceKind::Inventory && kind != SourceKind::Unknown;
}

/// Seconds since boot that can be shifted by a boot time without overflow (dmesg caps at 4e9 s).
bool plausibleUptime(TimeNs t)
{
    return t >= 0 && t <= 4'000'000'000LL * NsPerSec;
}

/// Appends a note to a file's coverage text (its first entry names the file).
void addNote(FileCoverage& cov, const std::string& note)
{
    if (cov.errors.empty())
        cov.errors.push_back(cov.path + ": " + note);
    else
        cov.errors.front() += "; " + note;
}

/// The whole years that bring `t` nearest to `reference` (0 when no move brings it nearer).
int yearsToward(TimeNs t, TimeNs reference)
{
    const int guess = yearOf(reference) - yearOf(t);
    int best = 0;
    TimeNs bestDistance = reference > t ? reference - t : t - reference;
    for (int d = guess - 1; d <= guess + 1; ++d) {
        const TimeNs moved = shiftYears(t, d);
        const TimeNs distance = reference > moved ? reference - moved : moved - reference;
        if (distance < bestDistance) {
            best = d;
            bestDistance = distance;
        }
    }
    return best;
}

}  // namespace

/// One coverage error per file: every problem of the file joined into one line.
void Collector::describe(const ReaderStats& stats, const FileState& fs, FileCoverage& cov) const
{
    cov.lines = stats.lines;
    cov.skipped = stats.skipped;
    std::vector<std::string> problems;
    if (stats.error)
        problems.push_back("reading stopped after " + plural(stats.lines, "line") + ": " +
                           (stats.errorText.empty() ? std::string("read error") : stats.errorText));
    if (stats.truncated > 0)
        problems.push_back(plural(stats.truncated, "line") + " cut at " + std::to_string(m_options.maxLineBytes) +
                           " bytes");
    if (stats.nulLines > 0)
        problems.push_back(plural(stats.nulLines, "line") + " with NUL bytes");
    if (stats.invalidUtf8 > 0)
        problems.push_back(plural(stats.invalidUtf8, "line") + " with invalid UTF-8");
    if (stats.skipped > 0)
        problems.push_back(plural(stats.skipped, "unusable line") + " skipped");
    for (const TimeNs t : {cov.first, cov.last})
        if (t != NoTime && !plausibleEpochSeconds(t / NsPerSec)) {
            problems.push_back("implausible time stamps (year " + std::to_string(yearOf(t)) + ")");
            break;
        }
    const bool faulty = !problems.empty();
    // Facts, not faults: the file is still read whole.
    if (fs.sniffed.format == Format::Plain)
        problems.insert(problems.begin(),
                        "read as plain text: " + plural(stats.lines, "line") + " (" +
                            fs.sniffed.reason.substr(fs.sniffed.reason.find(':') + 2) + ")");
    if (fs.records > 0 && stats.stamped == 0 && carriesTime(cov.kind) && fs.lastTime == NoTime)
        problems.push_back("no timestamps: times unknown, line order kept");
    if (stats.quoted > 0)
        problems.push_back(plural(stats.quoted, "line") + " read without the quote markers (>) before them");
    if (stats.enveloped > 0)
        problems.push_back(
            plural(stats.enveloped, "record") +
            " of a log platform or runtime read as the message it holds (JSON, CSV export, fluent-bit, logfmt)");
    if (stats.unescaped > 0)
        problems.push_back(plural(stats.unescaped, "line") +
                           " holding several lines in escaped form (\\n, syslog's #012) read as those lines");
    if (stats.resplit > 0)
        problems.push_back(plural(stats.resplit, "line") +
                           " holding a paste's lines joined without their breaks read as those lines");
    if (stats.retyped > 0)
        problems.push_back(plural(stats.retyped, "line") +
                           " read with no-break spaces, curly quotes or HTML entities as plain characters");
    if (stats.terminalCoded > 0)
        problems.push_back(plural(stats.terminalCoded, "line") + " read without their terminal colour codes");
    // A line repeated without end under a rule that waits for a later line: the latest ones are kept.
    if (const std::uint64_t dropped = fs.context.dropped + fs.lateDropped; dropped > 0)
        problems.push_back(std::to_string(dropped) + (dropped == 1 ? " match" : " matches") +
                           " waiting for a later line dropped (over " +
                           std::to_string(engine::ContextMemory::MaxPendingPerRule) + " held per rule, or " +
                           std::to_string(MaxLateObservations) + " decided per file)");
    if (problems.empty())
        return;
    std::string text = fs.entry->file.path + ": ";
    for (std::size_t i = 0; i < problems.size(); ++i)
        text += (i ? "; " : "") + problems[i];
    if (!stats.notes.empty())
        text += " (" + stats.notes.front() + ")";
    cov.errors.push_back(std::move(text));
    if (faulty)
        cov.status = stats.error && stats.lines == 0 ? CoverageStatus::Errored : CoverageStatus::Partial;
}

void Collector::pairBootTimes()
{
    // Wall-clock kernel lines by node and text, for nodes whose raw dmesg still lacks a boot time.
    std::set<std::string> unknown;
    for (const auto& o : m_result.observations)
        if (o.timeSource == TimeSource::BootRelative && m_boot.bootOf(o.node) == NoTime)
            unknown.insert(o.node);
    if (unknown.empty())
        return;
    std::map<std::string, std::unordered_map<std::string, TimeNs>> wall;
    for (const auto& o : m_result.observations)
        if (unknown.count(o.node) && (o.kind == SourceKind::Kernel || o.kind == SourceKind::Syslog) &&
            (o.timeSource == TimeSource::Absolute || o.timeSource == TimeSource::YearInferred))
            wall[o.node].emplace(o.text, o.time);
    std::map<std::string, std::vector<TimeNs>> differences;
    for (const auto& o : m_result.observations) {
        if (o.timeSource != TimeSource::BootRelative || !wall.count(o.node) || !plausibleUptime(o.time))
            continue;
        const auto& texts = wall[o.node];
        if (auto it = texts.find(o.text); it != texts.end() && it->second > o.time)
            differences[o.node].push_back(it->second - o.time);
    }
    for (auto& [node, d] : differences)
        m_boot.offerPairs(node, std::move(d));
}

void Collector::convertBootRelative(std::vector<FileCoverage>& coverage)
{
    pairBootTimes();
    std::unordered_map<std::uint64_t, TimeNs> shifted;  // observation id -> boot time added
    for (auto& o : m_result.observations) {
        if (o.timeSource != TimeSource::BootRelative || !plausibleUptime(o.time))
            continue;
        const TimeNs boot = m_boot.bootOf(o.node);
        if (boot == NoTime)
            continue;
        o.time += boot;
        o.timeSource = TimeSource::Absolute;
        shifted[o.id] = boot;
    }
    for (auto& e : m_events) {
        if (e.timeSource != TimeSource::BootRelative || e.observations.empty())
            continue;
        if (auto it = shifted.find(e.observations.front()); it != shifted.end()) {
            e.time += it->second;
            e.timeSource = TimeSource::Absolute;
        }
    }
    for (const auto& [file, nodes] : m_relativeSpans) {
        if (file >= coverage.size())
            continue;
        FileCoverage& cov = coverage[file];
        std::vector<std::string> unknown;
        for (const auto& [node, span] : nodes) {
            const TimeNs boot = m_boot.bootOf(node);
            if (!plausibleUptime(span.first) || !plausibleUptime(span.second))
                continue;
            if (boot == NoTime) {
                unknown.push_back(node.empty() ? std::string("its node") : node);
                continue;
            }
            cov.first = cov.first == NoTime ? boot + span.first : std::min(cov.first, boot + span.first);
            cov.last = cov.last == NoTime ? boot + span.second : std::max(cov.last, boot + span.second);
        }
        if (unknown.empty())
            continue;
        std::string list;
        for (const auto& n : unknown)
            list += (list.empty() ? "" : ", ") + n;
        addNote(cov, "boot-relative times kept as seconds since boot: no boot time known for " + list);
        if (cov.status == CoverageStatus::Ok)
            cov.status = CoverageStatus::Partial;
    }
}

/// Stamps without a year (syslog `Mar 24 11:12:25`, glog `E0324 ...`, `dmesg -H` headers) take the year of their
/// file's modification time when no job start is known, so a file copied or pasted later (a ticket's attachment, a
/// corpus case) lands years away from the stamps of the same failure that carry their year. Each file whose stamps
/// all lack a year moves by whole years to lie nearest the dated files' times (the median of their first times),
/// its records' order and spacing kept; its coverage and boot estimates move with it.
void Collector::alignGuessedYears(std::vector<FileCoverage>& coverage)
{
    const auto moves = guessedYearMoves(coverage);
    for (const auto& [file, boot] : m_guessedBoots)
        m_boot.absorb(boot);
    if (moves.empty())
        return;
    const auto movable = [](TimeNs t, TimeSource source) { return t != NoTime && source != TimeSource::BootRelative; };
    std::unordered_map<std::uint64_t, int> moved;  // observation id -> years
    for (auto& o : m_result.observations) {
        const auto it = moves.find(o.source.file);
        if (it == moves.end() || !movable(o.time, o.timeSource))
            continue;
        o.time = shiftYears(o.time, it->second);
        moved[o.id] = it->second;
    }
    for (auto& e : m_events) {
        if (e.observations.empty() || !movable(e.time, e.timeSource))
            continue;
        if (const auto it = moved.find(e.observations.front()); it != moved.end())
            e.time = shiftYears(e.time, it->second);
    }
}

/// The whole years each file whose stamps all lack a year moves by (files that stay are left out); its coverage
/// span, coverage note and boot estimates move here.
std::unordered_map<std::size_t, int> Collector::guessedYearMoves(std::vector<FileCoverage>& coverage)
{
    std::unordered_map<std::size_t, int> moves;
    std::vector<TimeNs> firsts;
    for (std::size_t file : m_datedFiles)
        if (file < coverage.size() && coverage[file].first != NoTime)
            firsts.push_back(coverage[file].first);
    if (firsts.empty())
        return moves;
    std::nth_element(firsts.begin(), firsts.begin() + static_cast<std::ptrdiff_t>(firsts.size() / 2), firsts.end());
    const TimeNs reference = firsts[firsts.size() / 2];
    for (std::size_t file : m_guessedYears) {
        if (file >= coverage.size() || coverage[file].first == NoTime)
            continue;
        FileCoverage& cov = coverage[file];
        const int years = yearsToward(cov.first, reference);
        if (years == 0)
            continue;
        moves[file] = years;
        if (const auto boot = m_guessedBoots.find(file); boot != m_guessedBoots.end())
            boot->second.moveYears(years);
        const int from = yearOf(cov.first);
        cov.first = shiftYears(cov.first, years);
        cov.last = shiftYears(cov.last, years);
        addNote(cov,
                "stamps without a year dated " + std::to_string(from + years) + " like the bundle's dated files, not " +
                    std::to_string(from) + " from the file's modification time");
    }
    return moves;
}

/// Room for the `more` observations and events still to come, the events' eighth for the early rules included.
void Collector::makeRoom(std::size_t moreObservations, std::size_t moreEvents)
{
    m_result.observations.reserve(m_result.observations.size() + moreObservations);
    const std::size_t events = m_events.size() + moreEvents;
    m_events.reserve(events + events / 8);
}

void Collector::renumber()
{
    auto& obs = m_result.observations;
    const auto before = [](const Observation& a, const Observation& b) {
        if (a.source.file != b.source.file)
            return a.source.file < b.source.file;
        if (a.source.offset != b.source.offset)
            return a.source.offset < b.source.offset;
        return a.id < b.id;
    };
    bool numbered = true;  // ids 1..n in source order already: nothing to do (and no sort buffer, no id map)
    for (std::size_t i = 0; i < obs.size() && numbered; ++i)
        numbered = obs[i].id == i + 1 && (i == 0 || before(obs[i - 1], obs[i]));
    if (numbered)
        return;
    std::stable_sort(obs.begin(), obs.end(), before);
    std::unordered_map<std::uint64_t, std::uint64_t> ids;
    ids.reserve(obs.size());
    for (std::size_t i = 0; i < obs.size(); ++i) {
        ids[obs[i].id] = i + 1;
        obs[i].id = i + 1;
    }
    for (auto& e : m_events)
        for (auto& id : e.observations)
            if (auto it = ids.find(id); it != ids.end())
                id = it->second;
}

std::vector<Event> Collector::finish(std::vector<FileCoverage>& coverage)
{
    applyContext();
    m_metrics.setWindow(m_result.context.start, m_result.context.end);
    auto metrics = m_metrics.finish(m_nextObservation);
    makeRoom(metrics.evidence.size(), metrics.events.size());
    alignGuessedYears(coverage);
    convertBootRelative(coverage);  // the metric samples' times are absolute: added after
    for (auto& o : metrics.evidence)
        m_result.observations.push_back(std::move(o));
    for (auto& e : metrics.events)
        m_events.push_back(std::move(e));
    for (auto& note : metrics.notes)
        m_result.diagnostics.push_back("metrics: " + note);
    renumber();
    return std::move(m_events);
}

}  // namespace attrib::importers::detail
