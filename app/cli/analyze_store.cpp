// SPDX-License-Identifier: GPL-3.0-or-later
// attrib analyze BUNDLE... --store FILE: bundles analysed in parallel, one case each, written in argument
// order by one connection (so case ids follow the command line).
#include "app/cli/cli.h"

#include "engine/store/case_record.h"
#include "engine/store/sqlite_case_store.h"
#include "importers/analyzer.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <iostream>
#include <thread>

namespace attrib::cli {

namespace {

/// What a worker hands to the writer: a case ready to insert, or why there is none.
struct Prepared {
    std::optional<store::CaseRecord> record;
    std::string error;
};

Prepared prepare(const std::string& bundle, const engine::CatalogPtr& catalog)
{
    try {
        const auto outcome = importers::analyzeBundle(bundle, catalog);
        if (!outcome.result)
            return {std::nullopt, bundle + ": " + outcome.error};
        const std::string hash = store::bundleContentHash(*outcome.result);
        return {store::makeCaseRecord(*outcome.result, hash, store::nowNs()), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, bundle + ": " + e.what()};
    }
}

std::string caseLine(std::int64_t id, const store::CaseSummary& s)
{
    return "case " + std::to_string(id) + ": " + s.terminalState + " / " + s.subDomain +
        (s.rootNode.empty() ? "" : " on " + s.rootNode) + "  " + s.bundlePath;
}

}  // namespace

std::unique_ptr<store::SqliteCaseStore> openStoreFor(const std::string& path, bool readOnly)
{
    try {
        return store::SqliteCaseStore::open(path, readOnly ? store::OpenMode::ReadOnly : store::OpenMode::ReadWrite);
    } catch (const store::StoreError& e) {
        std::cerr << "attrib: " << e.what() << "\n";
        return nullptr;
    }
}

int analyzeIntoStore(const std::vector<std::string>& bundles, const std::string& storePath,
                     const engine::CatalogPtr& catalog, unsigned jobs)
{
    auto caseStore = openStoreFor(storePath, false);
    if (!caseStore)
        return 1;
    std::vector<std::promise<Prepared>> promises(bundles.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < bundles.size(); i = next++)
            promises[i].set_value(prepare(bundles[i], catalog));
    };
    const unsigned threads = std::clamp<unsigned>(jobs, 1, static_cast<unsigned>(bundles.size()));
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    int exitCode = 0;
    for (std::size_t i = 0; i < bundles.size(); ++i) {
        Prepared p = promises[i].get_future().get();
        if (!p.record) {
            std::cerr << "attrib: " << p.error << "\n";
            exitCode = 1;
            continue;
        }
        try {
            const auto id = caseStore->addCase(*p.record);
            std::cout << caseLine(id, p.record->summary) << std::endl;
        } catch (const store::StoreError& e) {
            std::cerr << "attrib: " << bundles[i] << ": not saved: " << e.what() << "\n";
            exitCode = 1;
        }
    }
    return exitCode;
}

}  // namespace attrib::cli
