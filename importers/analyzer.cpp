// SPDX-License-Identifier: GPL-3.0-or-later
// Scope, collect and extract (BRIEF §4 phases 1-3) in one streaming pass per file (one pass per archive),
// then correlate. Only lines that some extractor matched are kept in memory; everything else is counted.
#include "importers/analyzer.h"
#include "importers/analyze_parallel.h"

#include "engine/number.h"
#include "engine/pipeline.h"
#include "importers/bundle.h"
#include "importers/bundle_access.h"
#include "importers/collector.h"
#include "importers/coverage.h"

#include "importers/file_open.h"
#include "importers/line_reader.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

namespace fs = std::filesystem;

namespace attrib::importers {

using namespace attrib::engine;

namespace {

constexpr std::size_t MaxWorkloadBytes = 16 << 20;

/// Lists a folder or archive bundle; sets `error` when it is neither or is empty.
std::vector<BundleEntry> listAny(const std::string& path, const ArchiveLimits& limits, std::string& error)
{
    if (error = whyNotBundle(path); !error.empty())
        return {};
    std::error_code ec;
    std::vector<BundleEntry> entries;
    if (fs::is_directory(path, ec)) {
        entries = listBundle(path, limits, error);
    } else {
        entries = listArchiveBundle(path, limits, error);
        if (!error.empty())  // not even one member could be listed
            return {};
    }
    if (entries.empty() && error.empty())
        error = path + ": the bundle is empty";
    return entries;
}

/// Reads workload.json (wherever it lives) into the context; records problems as diagnostics.
void readWorkloadEntry(const std::vector<BundleEntry>& entries, std::size_t index, AnalysisResult& result,
                       std::map<std::string, TimeNs>& bootTimes)
{
    std::string text;
    std::string problem;
    visitEntries(
        entries, {index},
        [&](std::size_t, const ReadFn& read, const ErrorSink&, const std::string& openError) {
            if (!read) {
                problem = openError;
                return false;
            }
            std::vector<char> chunk(1 << 16);
            for (long got = read(chunk.data(), chunk.size()); got > 0 && text.size() < MaxWorkloadBytes;
                 got = read(chunk.data(), chunk.size()))
                text.append(chunk.data(), static_cast<std::size_t>(got));
            return false;
        },
        nullptr);
    if (problem.empty())
        problem = readWorkloadText(text, result.context, &bootTimes);
    if (!problem.empty())
        result.diagnostics.push_back("workload.json: " + problem);
}

/// Coverage entries of files that are not read (metadata, problems, workload.json).
bool prepareCoverage(const BundleEntry& entry, FileCoverage& cov)
{
    cov.path = entry.file.path;
    cov.node = entry.nodeHint;
    if (entry.file.path == "workload.json" && entry.problem.empty()) {
        cov.kind = SourceKind::Accounting;
        cov.role = FileRole::Workload;
        cov.format = "workload";
        return false;
    }
    if (entry.metadata) {  // a case's expected verdict, lesson or source note: listed, neither evidence nor skipped
        cov.role = FileRole::Metadata;
        cov.format = "metadata";
        return false;
    }
    if (!entry.problem.empty()) {
        cov.status = CoverageStatus::Errored;
        cov.errors.push_back(entry.file.path + ": " + entry.problem);
        return false;
    }
    return true;
}

void fillCollected(const std::vector<FileCoverage>& files, const detail::FileNodes& nodes, ExecutionContext& ctx)
{
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& f = files[i];
        if (f.lines == 0)
            continue;
        if (!f.node.empty())
            ctx.collected[f.node].push_back(toString(f.kind));
        if (auto it = nodes.find(i); it != nodes.end())
            for (const auto& [where, count] : it->second)
                ctx.collected[where.second].push_back(toString(where.first));
    }
    for (auto& [node, kinds] : ctx.collected) {
        std::sort(kinds.begin(), kinds.end());
        kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
    }
}

/// Fields the rules could not read become notes on the coverage of the file holding the event's first line
/// (the first MaxNotesPerFile of them, then a count).
void addEventNotes(AnalysisResult& result)
{
    constexpr std::size_t MaxNotesPerFile = 20;
    std::map<std::uint32_t, std::size_t> notes;
    for (const auto& e : result.events) {
        const auto unreadable = e.attrs.find(UnreadableAttr);
        const Observation* obs = e.observations.empty() ? nullptr : result.observation(e.observations.front());
        if (unreadable == e.attrs.end() || !obs || obs->source.file >= result.fileCoverage.size())
            continue;
        FileCoverage& cov = result.fileCoverage[obs->source.file];
        std::size_t start = 0;
        while (start <= unreadable->second.size()) {
            const std::size_t end = std::min(unreadable->second.find('\n', start), unreadable->second.size());
            if (notes[obs->source.file]++ < MaxNotesPerFile)
                cov.errors.push_back(cov.path + ":" + std::to_string(obs->source.line) + ": " +
                                     unreadable->second.substr(start, end - start));
            start = end + 1;
        }
        if (cov.status == CoverageStatus::Ok)
            cov.status = CoverageStatus::Partial;
    }
    for (const auto& [file, count] : notes)
        if (count > MaxNotesPerFile)
            result.fileCoverage[file].errors.push_back(result.fileCoverage[file].path + ": " +
                                                       std::to_string(count - MaxNotesPerFile) +
                                                       " more field(s) that could not be read");
}

/// Reads the chosen entries one after the other (archives: one pass each), each joining as soon as it is read.
void readInOrder(const std::vector<BundleEntry>& entries, const std::vector<std::size_t>& chosen,
                 detail::Collector& collector, std::vector<FileCoverage>& coverage, DecompressionBudget& budget)
{
    visitEntries(
        entries, chosen,
        [&](std::size_t i, const ReadFn& read, const ErrorSink& err, const std::string& openError) {
            detail::FileShard shard;
            collector.readEntry(i, entries[i], read, err, openError, coverage[i], shard, budget);
            collector.absorb(i, std::move(shard));
            return !collector.cancelled();
        },
        &budget);
}

/// Reads one entry that is not an archive member (a plain or compressed file) into a fresh shard.
std::unique_ptr<detail::FileShard> readFile(const BundleEntry& entry, std::size_t index, detail::Collector& collector,
                                            FileCoverage& cov, DecompressionBudget& budget)
{
    auto shard = std::make_unique<detail::FileShard>();
    if (collector.cancelled())
        return shard;
    auto error = std::make_shared<std::string>();
    std::string openError;
    const ReadFn read = regularFileReader(entry.file.absolutePath, openError, error);
    collector.readEntry(index, entry, read, error, openError, cov, *shard, budget);
    return shard;
}

/// Reads the chosen files on `jobs` threads; the calling thread joins their shards in bundle order. A compressed
/// file is inflated on a worker against a budget of its own, charged to the bundle's `budget` when it joins. The
/// result is the one of reading in order: when the bundle's budget cannot take the file whole (in order, the cap
/// would have stopped it part way), the joining thread reads it again against what is left. Archives (never
/// probed here: an archived bundle is read in order) would be read by the joining thread too.
void readInParallel(const std::vector<BundleEntry>& entries, const std::vector<std::size_t>& chosen,
                    detail::Collector& collector, std::vector<FileCoverage>& coverage, DecompressionBudget& budget,
                    unsigned jobs)
{
    struct Slot {
        std::unique_ptr<detail::FileShard> shard;
        FileCoverage coverage;       ///< what the worker's read found (kept apart: a re-read starts afresh)
        std::uint64_t inflated = 0;  ///< bytes a compressed file inflated to
        bool capped = false;         ///< the worker's own budget stopped the read
        bool deferred = false;       ///< an archive: read by the joining thread
    };
    std::vector<Slot> slots(chosen.size());
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t k = next++; k < chosen.size(); k = next++) {
            const std::size_t i = chosen[k];
            const bool archive = probeFile(entries[i].file.absolutePath) == Container::Archive;
            FileCoverage cov = coverage[i];
            DecompressionBudget own(budget.limits());
            auto shard = archive ? nullptr : readFile(entries[i], i, collector, cov, own);
            const std::lock_guard lock(mutex);
            slots[k].shard = std::move(shard);
            slots[k].coverage = std::move(cov);
            slots[k].inflated = own.used();
            slots[k].capped = own.exhausted();
            slots[k].deferred = archive;
            ready.notify_all();
        }
    };
    std::vector<std::jthread> threads;
    for (unsigned t = 0; t < jobs; ++t)
        threads.emplace_back(work);
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const std::size_t i = chosen[k];
        Slot slot;
        {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return slots[k].shard != nullptr || slots[k].deferred; });
            slot = std::move(slots[k]);
        }
        const bool fits = !slot.capped &&
            (slot.inflated == 0 || budget.used() + slot.inflated <= budget.limits().maxDecompressedBytes);
        if (slot.shard && fits) {
            budget.charge(slot.inflated);
            coverage[i] = std::move(slot.coverage);
        } else {
            slot.shard = readFile(entries[i], i, collector, coverage[i], budget);
        }
        collector.absorb(i, std::move(*slot.shard));
    }
}

/// The files of the observations, as runs of observation ids (which follow file then line order): untimed symptoms
/// whose first lines share a file are in line order. Observations pre-normalized elsewhere (observations.jsonl) keep
/// the file they came from, which is the one whose lines have an order.
void fillFileRuns(const AnalysisResult& result, std::vector<engine::FileRun>& runs)
{
    runs.clear();
    for (const auto& o : result.observations) {
        if (o.source.file >= result.files.size())
            continue;
        std::string path = result.files[o.source.file].path;
        if (const auto origin = o.sample->labels.find("origin.file"); origin != o.sample->labels.end())
            path += ": " + origin->second;
        if (runs.empty() || runs.back().path != path)
            runs.push_back({o.id, std::move(path)});
    }
}

/// Phases 4-9 on the collected events, and the result's remaining fields.
void correlateInto(AnalysisResult& result, const Catalog& catalog, std::vector<Event> events,
                   const detail::Collector& collector, const AnalyzeOptions& options)
{
    ExecutionContext& ctx = result.context;
    fillCollected(result.fileCoverage, collector.fileNodes(), ctx);
    if (ctx.nodes.empty())
        for (const auto& [node, kinds] : ctx.collected)
            ctx.nodes.push_back(node);
    if (ctx.source.empty())
        ctx.source = collector.contextSource().empty() ? "inferred from evidence" : collector.contextSource();
    fillFileRuns(result, ctx.fileRuns);
    ExecutionContext scope;  // "missing" coverage is judged against the nodes known before correlation
    scope.nodes = ctx.nodes;
    if (options.progress)
        options.progress->progress(engine::ProgressStage::Correlating, 0, 1);
    Trace trace;
    DroppedTrace dropped;
    TraceSink& sink = options.keepTrace ? static_cast<TraceSink&>(trace) : dropped;
    Correlation c = correlate(catalog, std::move(ctx), std::move(events), sink, options.progress);
    result.context = std::move(c.context);
    result.events = std::move(c.events);
    result.symptoms = std::move(c.symptoms);
    result.verdict = std::move(c.verdict);
    result.clockOffsets = std::move(c.clockOffsets);
    result.trace = trace.take();
    addEventNotes(result);
    result.coverage = detail::summarize(result.fileCoverage, collector.fileNodes());
    detail::addMissing(scope, result.coverage);
    result.engine = {engineVersion(), catalog.version(), catalog.hash()};
    for (const auto& d : catalog.diagnostics())
        result.diagnostics.push_back(d.str());
}

/// Reads the chosen entries: the files of a folder bundle on `jobs` threads, an archive's members in order.
void readChosen(const std::vector<BundleEntry>& entries, const std::vector<std::size_t>& chosen,
                detail::Collector& collector, std::vector<FileCoverage>& coverage, DecompressionBudget& budget,
                unsigned jobs)
{
    const bool archived = std::any_of(chosen.begin(), chosen.end(),
                                      [&](std::size_t i) { return !entries[i].file.archiveMember.empty(); });
    if (jobs > 1 && chosen.size() > 1 && !archived)
        readInParallel(entries, chosen, collector, coverage, budget,
                       static_cast<unsigned>(std::min<std::size_t>(jobs, chosen.size())));
    else
        readInOrder(entries, chosen, collector, coverage, budget);
    releaseReadBuffers();
}

/// The leads of a failure no rule explains: the chosen files read again (same order, same decompression limits,
/// so a cap stops at the same byte), each only until it has its first error-level lines. Only an unknown
/// verdict pays for this pass; the records are the analysis's own (same readers). The bundle is listed again
/// (same files, same order): the analysis lets its listing go before correlation, whose memory peak it added to
/// (~3 MB for the 9,218 files of a 1,024-node bundle).
void addLeads(AnalysisResult& result, const Catalog& catalog, const AnalyzeOptions& options, const std::string& path,
              const std::vector<std::size_t>& chosen, const ArchiveLimits& limits, std::uint64_t total, unsigned jobs)
{
    std::string error;
    const auto entries = listAny(path, limits, error);
    // The bundle changed under the analysis: no leads rather than wrong ones.
    if (entries.size() != result.files.size())
        return;
    detail::Collector collector(catalog, options, result, detail::Collector::Pass::Leads);
    collector.setBytesTotal(total);
    std::vector<FileCoverage> scratch(entries.size());
    DecompressionBudget budget(limits);
    readChosen(entries, chosen, collector, scratch, budget, jobs);
    result.verdict.leads = collector.leads().take();
    if (!result.verdict.leads.empty())
        result.verdict.explanation += " No rule explains the failure; the earliest error-level lines of each "
                                      "file are listed as leads to start from.";
}

}  // namespace

AnalyzeOutcome analyzeBundle(const std::string& path, const CatalogPtr& catalog, const AnalyzeOptions& options)
{
    return analyzeBundleParallel(path, catalog, options, 1);
}

AnalyzeOutcome analyzeBundleParallel(const std::string& path, const CatalogPtr& catalog, const AnalyzeOptions& options,
                                     unsigned jobs)
{
    AnalyzeOutcome outcome;
    ArchiveLimits limits;
    limits.maxDecompressedBytes = options.maxDecompressedBytes;
    limits.maxCompressionRatio = options.maxCompressionRatio;
    std::string error;
    auto entries = listAny(path, limits, error);
    if (entries.empty()) {
        outcome.error = error;
        return outcome;
    }
    auto result = std::make_shared<AnalysisResult>();
    result->bundlePath = path;
    result->context.source.clear();
    std::map<std::string, TimeNs> bootTimes;
    const auto workload = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
        return e.file.path == "workload.json" && e.problem.empty();
    });
    if (workload != entries.end())
        readWorkloadEntry(entries, static_cast<std::size_t>(workload - entries.begin()), *result, bootTimes);
    DecompressionBudget budget(limits);
    detail::Collector collector(*catalog, options, *result);
    for (const auto& [node, boot] : bootTimes)
        collector.bootClock().setFromWorkload(node, boot);
    result->fileCoverage.resize(entries.size());
    std::vector<std::size_t> chosen;
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        result->files.push_back(entries[i].file);
        if (prepareCoverage(entries[i], result->fileCoverage[i])) {
            chosen.push_back(i);
            total += entries[i].file.size;
        }
    }
    collector.setBytesTotal(total);
    jobs = jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
    readChosen(entries, chosen, collector, result->fileCoverage, budget, jobs);
    std::vector<BundleEntry>().swap(entries);  // not kept for the correlation's memory peak: addLeads lists again
    if (!collector.cancelled()) {
        correlateInto(*result, *catalog, collector.finish(result->fileCoverage), collector, options);
        if (result->verdict.terminalState == "unknown")
            addLeads(*result, *catalog, options, path, chosen, limits, total, jobs);
    }
    if (collector.cancelled()) {
        outcome.cancelled = true;
        outcome.error = "cancelled";
        return outcome;
    }
    if (options.progress)
        options.progress->progress(engine::ProgressStage::Verdict, 1, 1);
    outcome.result = std::move(result);
    return outcome;
}

std::string whyNotBundle(const std::string& path)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        return path + ": no such file or folder";
    if (fs::is_directory(path, ec))
        return {};
    switch (probeFile(path)) {
    case Container::Archive: return {};
    case Container::Compressed:
        return path +
            ": a compressed file with no tar or zip archive readable inside (a single log, or a damaged "
            "archive): not a bundle";
    case Container::Plain: break;
    }
    return path + ": not a bundle folder or archive (tar or zip, plain or compressed with gzip, bzip2, xz or zstd)";
}

}  // namespace attrib::importers
