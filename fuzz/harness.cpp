// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness bodies. Inputs are read through a reader that hands out small, input-dependent chunks so
// that line and record assembly across chunk boundaries is exercised; caps are small to reach the limits.
#include "fuzz/harness.h"

#include "engine/verdict_json.h"
#include "importers/analyzer.h"
#include "importers/archive.h"
#include "importers/bundle_access.h"
#include "importers/records.h"
#include "rules/cpp/builtin_rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace attrib::fuzz {

using namespace attrib::importers;

namespace {

/// A reader over the input that returns at most `step` bytes per call.
ReadFn memoryReader(const std::uint8_t* data, std::size_t size, std::size_t step)
{
    auto pos = std::make_shared<std::size_t>(0);
    return [data, size, step, pos](char* buffer, std::size_t capacity) -> long {
        const std::size_t n = std::min({capacity, step, size - *pos});
        std::memcpy(buffer, data + *pos, n);
        *pos += n;
        return static_cast<long>(n);
    };
}

std::size_t stepFor(const std::uint8_t* data, std::size_t size)
{
    return size == 0 ? 1 : 1 + (data[0] % 7 == 0 ? 4096 : data[0] % 97);
}

ReaderOptions smallCaps()
{
    ReaderOptions options;
    options.maxLineBytes = 512;
    options.maxDocumentBytes = 1 << 20;
    options.maxJoinedLines = 16;
    options.chunkBytes = 4096;
    return options;
}

/// Reads the input as `format` and touches every record.
void readAs(Format format, engine::SourceKind kind, const std::uint8_t* data, std::size_t size, std::size_t wrap = 0)
{
    Sniffed sniffed{kind, format, {}};
    ReaderOptions options = smallCaps();
    options.wrapWidth = wrap;
    std::size_t total = 0;
    readRecords(memoryReader(data, size, stepFor(data, size)), sniffed, TimeHints{2026, engine::NoTime}, options,
                [&](Record& r) {
                    std::string copy = r.text;
                    sanitizeUtf8(copy);
                    total += copy.size() + r.labels.size() + (r.isMetric ? 1 : 0);
                    return total < (64u << 20);
                });
}

}  // namespace

int lineParsers(const std::uint8_t* data, std::size_t size)
{
    const std::string_view head(reinterpret_cast<const char*>(data),
                                std::min<std::size_t>(size, std::size_t{64} * 1024));
    const Sniffed sniffed = sniff(head, "fuzz.log");
    if (sniffed.format != Format::None)
        readAs(sniffed.format, sniffed.kind, data, size, detectWrapWidth(head, sniffed));
    for (const Format format : {Format::DmesgRaw, Format::Rfc3164, Format::Rfc5424, Format::SlurmDaemon,
                                Format::FabricManager, Format::Plain})
        readAs(format, engine::SourceKind::Kernel, data, size);
    readAs(Format::App, engine::SourceKind::App, data, size, 60 + (size % 3));
    readAs(Format::SlurmOut, engine::SourceKind::Slurm, data, size);
    return 0;
}

int journal(const std::uint8_t* data, std::size_t size)
{
    readAs(Format::JournalJson, engine::SourceKind::Kernel, data, size);
    readAs(Format::JournalExport, engine::SourceKind::Kernel, data, size);
    return 0;
}

int scheduler(const std::uint8_t* data, std::size_t size)
{
    for (const Format format : {Format::SacctParsable, Format::SacctJson, Format::K8sEvents, Format::KueueWorkload})
        readAs(format, engine::SourceKind::Accounting, data, size);
    return 0;
}

int metrics(const std::uint8_t* data, std::size_t size)
{
    for (const Format format : {Format::Prometheus, Format::MetricsCsv, Format::ObservationsJsonl})
        readAs(format, engine::SourceKind::Metrics, data, size);
    return 0;
}

int bugReport(const std::uint8_t* data, std::size_t size)
{
    readAs(Format::NvidiaBugReport, engine::SourceKind::Inventory, data, size);
    return 0;
}

namespace {

/// A per-process scratch folder for inputs that libarchive or the loader read from disk; removed at exit.
struct ScratchDir {
    std::string path;
    ScratchDir()
    {
        char tmpl[] = "/tmp/attrib-fuzz-XXXXXX";
        const char* made = ::mkdtemp(tmpl);
        path = made ? made : "";
    }
    ~ScratchDir()
    {
        std::error_code ec;
        if (!path.empty())
            std::filesystem::remove_all(path, ec);
    }
};

std::string scratchPath(const char* name)
{
    static const ScratchDir dir;
    return (dir.path.empty() ? std::string("/tmp") : dir.path) + "/" + name;
}

void writeScratch(const std::string& path, const std::uint8_t* data, std::size_t size)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

/// Drains a reader (bounded) and returns the bytes seen.
std::size_t drain(const ReadFn& read)
{
    std::vector<char> buffer(4096);
    std::size_t total = 0;
    for (long got = read(buffer.data(), buffer.size()); got > 0 && total < (8u << 20);
         got = read(buffer.data(), buffer.size()))
        total += static_cast<std::size_t>(got);
    return total;
}

}  // namespace

int archive(const std::uint8_t* data, std::size_t size)
{
    const std::string path = scratchPath("input.bin");
    writeScratch(path, data, size);
    ArchiveLimits limits;
    limits.maxDecompressedBytes = 4 << 20;
    limits.ratioFloorBytes = std::uint64_t{64} * 1024;
    limits.maxMembers = 256;
    DecompressionBudget budget(limits);
    probeFile(path);
    DecompressionBudget listingBudget(limits);
    const ArchiveListing listing = listArchive(path, listingBudget);
    auto error = std::make_shared<std::string>();
    visitArchive(
        path, [](const std::string&) { return true; },
        [&](const std::string&, const ReadFn& read) {
            bool compressed = false;
            drain(maybeDecompress(read, size, &budget, error, compressed));
            return !budget.exhausted();
        },
        &budget, error);
    for (const auto& m : listing.members) {
        if (!m.problem.empty())
            continue;
        engine::BundleFile file{m.name, path, m.name, m.size};
        std::string problem;
        readBundleBytes(file, 0, 256, problem);
        break;  // one re-read by offset is enough per input
    }
    DecompressionBudget direct(limits);
    drain(decompressReader(memoryReader(data, size, stepFor(data, size)), size, &direct, error));
    return 0;
}

int ruleLoader(const std::uint8_t* data, std::size_t size)
{
    static const std::string dir = [] {
        std::string d = scratchPath("rules");
        std::filesystem::create_directories(d);
        return d;
    }();
    writeScratch(dir + "/fuzz.json", data, size);
    const auto catalog = engine::Catalog::load(dir, rules::builtinCodeRules());
    (void)catalog;
    return 0;
}

int analysis(const std::uint8_t* data, std::size_t size)
{
    static const engine::CatalogPtr catalog = rules::loadCatalog(ATTRIB_SOURCE_RULES_DIR);
    static const std::string dir = [] {
        std::string d = scratchPath("bundle");
        std::filesystem::create_directories(d + "/node-01");
        return d;
    }();
    writeScratch(dir + "/node-01/evidence.log", data, size);
    importers::AnalyzeOptions options;
    options.maxLineBytes = 4096;
    options.maxDecompressedBytes = 4 << 20;
    const auto outcome = importers::analyzeBundle(dir, catalog, options);
    if (outcome.result) {
        const std::string json = engine::dumpJson(engine::verdictToJson(*outcome.result));
        const std::string trace = engine::dumpJson(engine::traceToJson(outcome.result->trace));
        if (json.empty() || trace.empty())
            std::abort();
    }
    return 0;
}

Entry entryFor(const std::string& target)
{
    if (target == "lines")
        return &lineParsers;
    if (target == "journal")
        return &journal;
    if (target == "scheduler")
        return &scheduler;
    if (target == "metrics")
        return &metrics;
    if (target == "bug_report")
        return &bugReport;
    if (target == "archive")
        return &archive;
    if (target == "rule_loader")
        return &ruleLoader;
    if (target == "analysis")
        return &analysis;
    return nullptr;
}

}  // namespace attrib::fuzz
