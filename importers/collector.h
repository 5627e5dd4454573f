// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: the collect + extract phases for one analysis. Each bundle entry is read once (decompressed in
// place), sniffed, parsed into records; records that some extractor matches become observations and events;
// metric samples go to the metric evaluator. After the last file: boot-relative times are converted where a
// boot time became known, metric rules run, and observation ids are renumbered in (file, offset) order so the
// result does not depend on the order in which entries were read (folder walk or archive order).
#pragma once

#include "engine/extractor.h"
#include "engine/metric_rules.h"
#include "engine/verdict.h"
#include "importers/analyzer.h"
#include "importers/archive.h"
#include "importers/boot_times.h"
#include "importers/bundle.h"
#include "importers/leads.h"
#include "importers/records.h"

#include <map>
#include <set>
#include <vector>

namespace attrib::importers::detail {

class Collector {
public:
    Collector(const engine::Catalog& catalog, const AnalyzeOptions& options, engine::AnalysisResult& result,
              DecompressionBudget& budget);

    void setBytesTotal(std::uint64_t total) { m_bytesTotal = total; }
    BootClock& bootClock() { return m_boot; }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }

    /// Reads one entry from its raw bytes (`read` empty: `openError` says why) into `cov`.
    void readEntry(std::size_t index, const BundleEntry& entry, const ReadFn& read, const ErrorSink& error,
                   const std::string& openError, engine::FileCoverage& cov);

    /// After the last entry: boot conversion, metric rules, renumbering. Returns the events to correlate.
    std::vector<engine::Event> finish(std::vector<engine::FileCoverage>& coverage);

    /// Nodes each file delivered records for (by file index).
    const std::map<std::size_t, std::set<std::string>>& fileNodes() const { return m_fileNodes; }
    /// The earliest error-level lines of each file (the verdict's leads when no rule explains the failure).
    const LeadCollector& leads() const { return m_leads; }
    /// Where the context came from when workload.json did not give it ("" = not at all).
    const std::string& contextSource() const { return m_contextSource; }

private:
    /// What the collector tracks while one file streams through.
    struct FileState {
        std::size_t index = 0;
        const BundleEntry* entry = nullptr;
        Sniffed sniffed;
        TimeNs lastTime = engine::NoTime;
        TimeSource lastSource = TimeSource::None;
        std::uint64_t records = 0;
        std::uint64_t kernelRecords = 0;
        std::string lastHost;
        std::string lastNode;
        engine::FileCoverage* cov = nullptr;
    };

    bool onRecord(Record& r, FileState& fs);
    void offerBootTime(const Record& r, engine::SourceKind kind, const std::string& node, const FileState& fs);
    void placeInTime(Record& r, const std::string& node, FileState& fs);
    void keep(Record& r, engine::SourceKind kind, const std::string& node, const FileState& fs);
    void onMetric(const Record& r, const std::string& node, FileState& fs);
    void collectContext(const std::map<std::string, std::string>& labels, const FileState& fs);
    void applyContext();
    void describe(const ReaderStats& stats, const FileState& fs, engine::FileCoverage& cov) const;
    void convertBootRelative(std::vector<engine::FileCoverage>& coverage);
    void pairBootTimes();
    void renumber();

    const engine::Catalog& m_catalog;
    const AnalyzeOptions& m_options;
    engine::AnalysisResult& m_result;
    DecompressionBudget& m_budget;
    engine::ExtractorSet m_extractors;
    engine::MetricEvaluator m_metrics;
    BootClock m_boot;
    std::vector<engine::Event> m_events;
    std::vector<engine::LineMatch> m_matches;
    std::uint64_t m_nextObservation = 1;
    std::uint64_t m_bytesDone = 0;
    std::uint64_t m_bytesTotal = 0;
    std::map<std::size_t, std::set<std::string>> m_fileNodes;
    /// Per file and node: smallest and largest boot-relative time seen (to fix coverage spans on conversion).
    std::map<std::size_t, std::map<std::string, std::pair<engine::TimeNs, engine::TimeNs>>> m_relativeSpans;
    LeadCollector m_leads;
    std::string m_soleNode;  ///< the job's only node when workload.json names exactly one
    std::string m_contextSource;
    /// Scheduler records that name the job, per file; the first file's are used when workload.json is absent.
    std::map<std::size_t, std::map<std::string, std::string>> m_contexts;
};

/// The year stamps without one are given (from the context start, else the file's mtime).
int yearOf(engine::TimeNs t);

}  // namespace attrib::importers::detail
