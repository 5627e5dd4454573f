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
#include "importers/context_facts.h"
#include "importers/coverage.h"
#include "importers/leads.h"
#include "importers/line_folds.h"
#include "importers/records.h"

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

namespace attrib::importers::detail {

/// What reading one file produced. Files of a folder bundle are read on several threads, each into its own
/// shard; shards join the analysis (Collector::absorb) in bundle order, so the result does not depend on the
/// number of threads or on which file finished first.
struct FileShard {
    std::vector<engine::Observation> observations;  ///< ids 1..n, local to the file
    std::vector<engine::Event> events;              ///< their observation ids are local too
    std::vector<engine::LineMatch> matches;         ///< scratch: one line's matches
    LeadCollector leads;
    BootClock boot;
    std::map<KindNode, std::uint64_t> nodes;  ///< records per (kind, node); at most 4096 pairs
    std::map<std::string, std::pair<engine::TimeNs, engine::TimeNs>> relativeSpans;
    std::map<std::string, std::string> context;
    struct MetricAdd {
        std::string metric;
        std::string node;
        int gpu = -1;
        std::map<std::string, std::string> labels;
        engine::MetricSample sample;
    };
    std::vector<MetricAdd> metrics;  ///< replayed in file order when the shard joins
    /// The year of the file's modification time dated its stamps that carry none (no context start was known).
    bool yearFromFileTime = false;
    std::uint64_t yearless = 0;  ///< stamps whose year was supplied (syslog, glog, dmesg -H headers)
    std::uint64_t dated = 0;     ///< stamps that carry their year
};

class Collector {
public:
    /// Analysis: records become observations, events, metric samples, spans. Leads: only the earliest
    /// error-level lines of each file (a second pass, for a failure no rule explains).
    enum class Pass : std::uint8_t { Analysis, Leads };

    Collector(const engine::Catalog& catalog, const AnalyzeOptions& options, engine::AnalysisResult& result,
              Pass pass = Pass::Analysis);

    void setBytesTotal(std::uint64_t total) { m_bytesTotal = total; }
    BootClock& bootClock() { return m_boot; }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }

    /// Reads one entry from its raw bytes (`read` empty: `openError` says why) into `cov` and `shard`, charging
    /// what a compressed entry inflates to against `budget`. Safe to call on several threads at once (for
    /// different entries, each thread with a budget of its own).
    void readEntry(std::size_t index, const BundleEntry& entry, const ReadFn& read, const ErrorSink& error,
                   const std::string& openError, engine::FileCoverage& cov, FileShard& shard,
                   DecompressionBudget& budget);
    /// Adds what reading entry `index` produced. Call in bundle order, on one thread.
    void absorb(std::size_t index, FileShard&& shard);

    /// After the last entry: boot conversion, metric rules, renumbering. Returns the events to correlate.
    std::vector<engine::Event> finish(std::vector<engine::FileCoverage>& coverage);

    /// Nodes (with the records' collector kinds) each file delivered records for.
    const FileNodes& fileNodes() const { return m_fileNodes; }
    /// The earliest error-level lines of each file (Pass::Leads).
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
        /// the node a `kubectl describe` object's `Node:` line or a `qacct -j` block's `hostname` row named, until
        /// the next object or block
        std::string describedNode;
        bool afterQname = false;     ///< the last record was a `qacct -j` block's `qname` row: `hostname` follows
        bool accountedNode = false;  ///< describedNode came from a `qacct -j` block (its rule line ends it)
        std::string broadcastHost;   ///< the host a syslogd broadcast header named, for the record after it
        std::string promptNode;      ///< the host a pasted shell prompt named, for the lines after it
        /// The (kind, node) the last record was counted for, and its counter in shard->nodes (map nodes keep
        /// their address): runs of records of one node skip the map search.
        const KindNode* countedAs = nullptr;
        std::uint64_t* counted = nullptr;
        engine::FileCoverage* cov = nullptr;
        FileShard* shard = nullptr;
        LineFolds folds;                ///< repeated matched lines of this file
        ContextFacts facts;             ///< context facts already made from this file's lines
        engine::ContextMemory context;  ///< earlier lines' context hits, for rules whose line needs one
        /// A record with matches held for a later line (rules with an `after`), by record number: its observation
        /// as it would have been kept, and where it is in the shard once it is (npos: not yet).
        struct Held {
            engine::Observation obs;
            std::size_t kept = static_cast<std::size_t>(-1);
        };
        std::map<std::uint64_t, Held> held;
        std::vector<std::uint64_t> eventRecords;  ///< per shard event: the record it came from (merge order)
        struct LateEvent {
            std::uint64_t record = 0;
            std::uint32_t order = 0;
            engine::Event event;
        };
        std::vector<LateEvent> late;  ///< events of held matches a later line decided, merged at the end of the file
        std::uint64_t lateObservations = 0;
        std::uint64_t lateDropped = 0;  ///< decided matches past MaxLateObservations
        /// The last record, when it may be the head of a message broken over lines by hand (matchWrapped, offerHead);
        /// `wrapHeadRecord` is its record number, 0 when there is none.
        Record wrapHead;
        std::uint64_t wrapHeadRecord = 0;
        SourceKind wrapHeadKind = SourceKind::Unknown;
        std::vector<const engine::ExtractorRule*> wrapHeadRules;  ///< the rules the head matched on its own
        std::uint32_t wrapTries = 0;  ///< joined pairs matched in this file (bounded: MaxWrapTries)
    };

    bool onRecord(Record& r, FileState& fs);
    bool matchRecord(Record& r, SourceKind kind, FileState& fs);
    bool matchWrapped(Record& r, SourceKind& kind, FileState& fs);
    void offerHead(const Record& r, SourceKind kind, FileState& fs);
    bool joinWithHead(Record& r, SourceKind kind, bool& matched, FileState& fs);
    bool offerLead(const Record& r, FileState& fs);
    void countNode(engine::SourceKind kind, const std::string& node, FileState& fs);
    static std::string kubeletEventNode(std::string_view text);
    static void trackDescribedNode(const std::string& text, FileState& fs);
    static void trackAccountedNode(std::string_view text, FileState& fs);
    static void takeBroadcastHost(Record& r, FileState& fs);
    static void trackPromptNode(std::string_view text, FileState& fs);
    void offerBootTime(const Record& r, engine::SourceKind kind, const std::string& node, FileState& fs);
    void placeInTime(Record& r, const std::string& node, FileState& fs);
    engine::Observation observe(const Record& r, engine::SourceKind kind, const std::string& node,
                                const FileState& fs) const;
    std::size_t keep(Record& r, engine::SourceKind kind, const std::string& node, FileState& fs);
    void holdRecord(Record& r, engine::SourceKind kind, const std::string& node, std::size_t kept, FileState& fs);
    void takeDecided(FileState& fs);
    void mergeLate(FileState& fs);
    void fold(const LineFolds::Slot& slot, engine::Observation obs, FileShard& shard);
    void onMetric(const Record& r, const std::string& node, FileState& fs);
    void collectContext(const std::map<std::string, std::string>& labels, FileState& fs);
    void reportProgress(std::uint64_t done);
    void applyContext();
    void describe(const ReaderStats& stats, const FileState& fs, engine::FileCoverage& cov) const;
    void convertBootRelative(std::vector<engine::FileCoverage>& coverage);
    void alignGuessedYears(std::vector<engine::FileCoverage>& coverage);
    std::unordered_map<std::size_t, int> guessedYearMoves(std::vector<engine::FileCoverage>& coverage);
    void pairBootTimes();
    void makeRoom(std::size_t moreObservations, std::size_t moreEvents);
    void renumber();

    const engine::Catalog& m_catalog;
    const AnalyzeOptions& m_options;
    engine::AnalysisResult& m_result;
    Pass m_pass = Pass::Analysis;
    const engine::ExtractorSet& m_extractors;  ///< the catalog's, compiled once
    engine::MetricEvaluator m_metrics;
    BootClock m_boot;
    std::vector<engine::Event> m_events;  ///< every absorbed file's events (their observations: m_result's)
    std::uint64_t m_nextObservation = 1;
    std::atomic<std::uint64_t> m_bytesDone{0};
    std::uint64_t m_bytesTotal = 0;
    std::mutex m_progressMutex;       ///< progress sinks are called from one thread at a time
    std::uint64_t m_progressMax = 0;  ///< what was last reported (files finish out of order)
    FileNodes m_fileNodes;
    /// Per file and node: smallest and largest boot-relative time seen (to fix coverage spans on conversion).
    std::map<std::size_t, std::map<std::string, std::pair<engine::TimeNs, engine::TimeNs>>> m_relativeSpans;
    /// Files whose stamps all lack a year, dated by the file's modification time (alignGuessedYears moves them).
    std::vector<std::size_t> m_guessedYears;
    std::map<std::size_t, BootClock> m_guessedBoots;  ///< their boot estimates, from the same stamps
    /// Files whose stamps all carry a year: their first times date the bundle.
    std::vector<std::size_t> m_datedFiles;
    LeadCollector m_leads;
    std::string m_soleNode;  ///< the job's only node when workload.json names exactly one
    std::string m_contextSource;
    /// Scheduler records that name the job, per file; the first file's are used when workload.json is absent.
    std::map<std::size_t, std::map<std::string, std::string>> m_contexts;
};

/// Observations a file may gain from matches a later line decided (rules with an `after`); more are counted as
/// dropped in the file's coverage. Far above a real file's (a handful), a bound for a file repeating the pair.
constexpr std::uint64_t MaxLateObservations = 4096;
/// A held record's observation index while the record has none in the shard yet.
constexpr std::size_t NotKept = static_cast<std::size_t>(-1);

/// The year stamps without one are given (from the context start, else the file's mtime).
int yearOf(engine::TimeNs t);

}  // namespace attrib::importers::detail
