// SPDX-License-Identifier: GPL-3.0-or-later
// Scope, collect and extract (BRIEF §4 phases 1-3) in one streaming pass per file, then correlate.
// Only lines that some extractor matched are kept in memory; everything else is counted for coverage.
#include "importers/analyzer.h"

#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/pipeline.h"
#include "importers/bundle.h"
#include "importers/line_format.h"
#include "importers/line_reader.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace attrib::importers {

using namespace attrib::engine;

namespace {

constexpr std::size_t SniffBytes = 64 * 1024;

int yearOf(TimeNs t)
{
    if (t == NoTime)
        return 0;
    const std::time_t secs = static_cast<std::time_t>(t / NsPerSec);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm.tm_year + 1900;
}

/// Reads the first bytes of a file for sniffing.
std::string readHead(const std::string& path, std::string& error)
{
    auto read = fileReader(path, error);
    if (!read)
        return {};
    std::string head(SniffBytes, '\0');
    std::size_t got = 0;
    while (got < head.size()) {
        const long n = read(head.data() + got, head.size() - got);
        if (n < 0) {
            error = "read error";
            break;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    return head;
}

/// State of one analysis run while files stream through.
struct Collector {
    const Catalog& catalog;
    const ExtractorSet& extractors;
    const AnalyzeOptions& options;
    AnalysisResult& result;
    std::vector<Event> events;
    std::uint64_t nextObservation = 1;
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0;

    bool cancelled() const { return options.cancel && options.cancel->load(); }
    void readFile(std::uint32_t index, const BundleEntry& entry, const TimeHints& hints, FileCoverage& cov);
};

void Collector::readFile(std::uint32_t index, const BundleEntry& entry, const TimeHints& hints, FileCoverage& cov)
{
    std::string error;
    const std::string head = readHead(entry.file.absolutePath, error);
    if (!error.empty()) {
        cov.status = CoverageStatus::Errored;
        cov.errors.push_back(entry.file.path + ": " + error);
        return;
    }
    const Sniffed sniffed = sniff(head, entry.file.path);
    cov.kind = sniffed.kind;
    cov.format = sniffed.format;
    if (sniffed.kind == SourceKind::Unknown) {
        cov.status = CoverageStatus::Skipped;
        cov.errors.push_back(entry.file.path + ": skipped: " + sniffed.reason);
        return;
    }
    auto parser = makeParser(sniffed, hints);
    auto read = fileReader(entry.file.absolutePath, error);
    if (!read) {
        cov.status = CoverageStatus::Errored;
        cov.errors.push_back(entry.file.path + ": " + error);
        return;
    }
    TimeNs lastTime = NoTime;
    TimeSource lastSource = TimeSource::None;
    std::set<std::string> hosts;
    std::vector<LineMatch> matches;
    std::uint64_t truncated = 0;
    const ReadStats stats = readLines(
        read,
        [&](const RawLine& raw) {
            if ((raw.number & 0x3fff) == 0) {
                if (cancelled())
                    return false;
                if (options.progress)
                    options.progress->progress("reading files", bytesDone + raw.offset, bytesTotal);
            }
            if (raw.truncated && truncated++ < 3)
                cov.errors.push_back(entry.file.path + ":" + std::to_string(raw.number) + ": line of " +
                                     std::to_string(raw.fullLength) + " bytes cut to " +
                                     std::to_string(raw.bytes.size()));
            ParsedLine parsed;
            if (!parser->parse(raw.bytes, parsed)) {
                ++cov.skipped;
                return true;
            }
            if (parsed.time == NoTime && lastTime != NoTime) {
                parsed.time = lastTime;
                parsed.timeSource = lastSource == TimeSource::BootRelative ? lastSource : TimeSource::Inherited;
            } else if (parsed.time != NoTime) {
                lastTime = parsed.time;
                lastSource = parsed.timeSource;
                if (parsed.timeSource != TimeSource::BootRelative) {
                    cov.first = cov.first == NoTime ? parsed.time : std::min(cov.first, parsed.time);
                    cov.last = cov.last == NoTime ? parsed.time : std::max(cov.last, parsed.time);
                }
            }
            matches.clear();
            if (!extractors.match(sniffed.kind, parsed.text, matches))
                return true;
            Observation obs;
            obs.id = nextObservation++;
            obs.kind = sniffed.kind;
            obs.source = {index, raw.number, raw.offset, static_cast<std::uint32_t>(raw.bytes.size())};
            obs.node = !entry.nodeHint.empty() ? entry.nodeHint : shortHost(parsed.host);
            obs.rank = parsed.rank >= 0 ? parsed.rank : entry.rankHint;
            obs.gpu = parsed.gpu;
            obs.time = parsed.time;
            obs.timeSource = parsed.timeSource;
            obs.text = std::string(parsed.text);
            if (!obs.node.empty())
                hosts.insert(obs.node);
            for (const auto& m : matches)
                events.push_back(makeEvent(m, obs));
            result.observations.push_back(std::move(obs));
            return true;
        },
        options.maxLineBytes);
    bytesDone += entry.file.size;
    cov.lines = stats.lines;
    if (!entry.nodeHint.empty())
        hosts.insert(entry.nodeHint);
    cov.node = hosts.size() == 1 ? *hosts.begin() : std::string();
    if (stats.error) {
        cov.status = CoverageStatus::Partial;
        cov.errors.push_back(entry.file.path + ":" + std::to_string(stats.lines + 1) + ": " + stats.errorText);
    } else if (truncated > 0 || cov.skipped > 0) {
        cov.status = CoverageStatus::Partial;
        if (truncated > 3)
            cov.errors.push_back(entry.file.path + ": " + std::to_string(truncated) + " long lines cut in all");
        if (cov.skipped > 0)
            cov.errors.push_back(entry.file.path + ": " + std::to_string(cov.skipped) + " unusable line(s) skipped");
    }
}

std::vector<CollectorCoverage> summarize(const std::vector<FileCoverage>& files)
{
    std::map<SourceKind, CollectorCoverage> byKind;
    std::map<SourceKind, std::set<std::string>> nodes;
    for (const auto& f : files) {
        auto& c = byKind[f.kind];
        c.kind = f.kind;
        c.files.push_back(f.path);
        if (!f.node.empty())
            nodes[f.kind].insert(f.node);
        c.lines += f.lines;
        c.skipped += f.skipped;
        if (f.first != NoTime)
            c.first = c.first == NoTime ? f.first : std::min(c.first, f.first);
        if (f.last != NoTime)
            c.last = c.last == NoTime ? f.last : std::max(c.last, f.last);
        c.errors.insert(c.errors.end(), f.errors.begin(), f.errors.end());
        if (f.status == CoverageStatus::Errored || f.status == CoverageStatus::Partial)
            c.status = c.status == CoverageStatus::Errored ? c.status : CoverageStatus::Partial;
        if (f.kind == SourceKind::Unknown)
            c.status = CoverageStatus::Skipped;
    }
    std::vector<CollectorCoverage> out;
    for (auto& [kind, c] : byKind) {
        c.nodes.assign(nodes[kind].begin(), nodes[kind].end());
        out.push_back(std::move(c));
    }
    return out;
}

/// Nodes the job ran on but for which a collector delivered nothing: listed as missing coverage.
void addMissing(const ExecutionContext& ctx, std::vector<CollectorCoverage>& coverage)
{
    for (SourceKind kind : {SourceKind::Kernel, SourceKind::App}) {
        auto it = std::find_if(coverage.begin(), coverage.end(), [&](const auto& c) { return c.kind == kind; });
        std::vector<std::string> missing;
        for (const auto& node : ctx.nodes) {
            if (it == coverage.end() || std::find(it->nodes.begin(), it->nodes.end(), node) == it->nodes.end())
                missing.push_back(node);
        }
        if (missing.empty() || ctx.nodes.empty())
            continue;
        if (it == coverage.end()) {
            CollectorCoverage c;
            c.kind = kind;
            c.status = CoverageStatus::Missing;
            for (const auto& n : missing)
                c.errors.push_back(std::string(toString(kind)) + " log of " + n + " is missing");
            coverage.push_back(std::move(c));
        } else {
            if (it->status == CoverageStatus::Ok)
                it->status = CoverageStatus::Partial;
            for (const auto& n : missing)
                it->errors.push_back(std::string(toString(kind)) + " log of " + n + " is missing");
        }
    }
    std::sort(coverage.begin(), coverage.end(), [](const auto& a, const auto& b) { return a.kind < b.kind; });
}

}  // namespace

AnalyzeOutcome analyzeBundle(const std::string& path, const CatalogPtr& catalog, const AnalyzeOptions& options)
{
    AnalyzeOutcome outcome;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        outcome.error = path + ": no such file or folder";
        return outcome;
    }
    if (!fs::is_directory(path, ec)) {
        outcome.error = path + ": not a bundle folder (archives are not supported yet)";
        return outcome;
    }
    std::string error;
    auto entries = listBundle(path, error);
    if (entries.empty()) {
        outcome.error = error.empty() ? path + ": the bundle is empty" : error;
        return outcome;
    }
    auto result = std::make_shared<AnalysisResult>();
    result->bundlePath = path;
    Trace trace;
    ExecutionContext& ctx = result->context;
    const auto workload = std::find_if(entries.begin(), entries.end(),
                                       [](const auto& e) { return e.file.path == "workload.json"; });
    if (workload != entries.end()) {
        if (auto problem = readWorkload(workload->file.absolutePath, ctx); !problem.empty())
            result->diagnostics.push_back("workload.json: " + problem);
    }
    ExtractorSet extractors(catalog->extractors());
    Collector collector{*catalog, extractors, options, *result, {}};
    for (const auto& e : entries)
        collector.bytesTotal += e.file.size;
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
        const auto& entry = entries[i];
        result->files.push_back(entry.file);
        FileCoverage cov;
        cov.path = entry.file.path;
        cov.node = entry.nodeHint;
        if (entry.file.path == "workload.json") {
            cov.kind = SourceKind::Accounting;
            cov.format = "workload";
        } else if (entry.metadata) {
            cov.status = CoverageStatus::Skipped;
            cov.errors.push_back(entry.file.path + ": skipped: sample metadata (expected verdict or lesson), not evidence");
        } else if (!entry.problem.empty()) {
            cov.status = CoverageStatus::Errored;
            cov.errors.push_back(entry.file.path + ": " + entry.problem);
        } else {
            TimeHints hints;
            hints.year = ctx.start != NoTime ? yearOf(ctx.start) : yearOf(entry.mtime * NsPerSec);
            collector.readFile(i, entry, hints, cov);
        }
        if (collector.cancelled()) {
            outcome.cancelled = true;
            outcome.error = "cancelled";
            return outcome;
        }
        result->fileCoverage.push_back(std::move(cov));
    }
    for (const auto& f : result->fileCoverage)
        if (!f.node.empty() && f.lines > 0)
            ctx.collected[f.node].push_back(toString(f.kind));
    for (auto& [node, kinds] : ctx.collected) {
        std::sort(kinds.begin(), kinds.end());
        kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
    }
    if (ctx.nodes.empty()) {
        for (const auto& [node, kinds] : ctx.collected)
            ctx.nodes.push_back(node);
        ctx.source = ctx.source.empty() ? "inferred from evidence" : ctx.source;
    }
    if (ctx.scheduler == "none" && workload == entries.end())
        ctx.source = "inferred from evidence";
    result->coverage = summarize(result->fileCoverage);
    addMissing(ctx, result->coverage);
    if (options.progress)
        options.progress->progress("correlating", 0, 1);
    Correlation c = correlate(*catalog, std::move(ctx), std::move(collector.events), trace);
    result->context = std::move(c.context);
    result->events = std::move(c.events);
    result->symptoms = std::move(c.symptoms);
    result->clockOffsets = std::move(c.clockOffsets);
    result->verdict = std::move(c.verdict);
    result->trace = trace.take();
    result->engine = {engineVersion(), catalog->version(), catalog->hash()};
    for (const auto& d : catalog->diagnostics())
        result->diagnostics.push_back(d.str());
    if (options.progress)
        options.progress->progress("verdict", 1, 1);
    outcome.result = std::move(result);
    return outcome;
}

}  // namespace attrib::importers
