// SPDX-License-Identifier: GPL-3.0-or-later
// The search index's tokenizer choice, on numbers: builds the contentless FTS5 index over 1,000,000 generated
// log lines with `trigram` and with `unicode61` and prints build rate, index size relative to the logs, query
// latency and hit counts for a word, a phrase and a substring query. Run: ctest -L bench (make bench).
#include "search_fixtures.h"

#include "engine/store/bundle_lines.h"
#include "engine/store/search_index.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace attrib::store;

namespace {

double medianMs(SearchIndex& index, const std::string& query, std::size_t& hits)
{
    std::vector<double> ms;
    for (int i = 0; i < 9; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        hits = index.search(query, 100).size();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[4];
}

}  // namespace

int main()
{
    const fs::path dir = fs::temp_directory_path() / ("attrib-bench-search-" + std::to_string(::getpid()));
    const auto bundle = testing::generateBundle(dir / "bundle", 4, 250'000);
    std::printf("log text: %.1f MB in 1,000,000 lines\n", double(bundle.bytes) / 1e6);
    for (const auto tokenizer : {Tokenizer::Trigram, Tokenizer::Unicode61}) {
        const std::string path = (dir / (std::string(toString(tokenizer)) + ".fts.sqlite")).string();
        auto index = SearchIndex::openOrBuild(path, "fnv1a64:bench", bundleLineSource(bundle.result), tokenizer);
        const auto& s = index->stats();
        std::printf("%-9s build %.2f s = %.0f lines/s, index %.1f MB = %.2f x the logs\n", toString(tokenizer),
                    s.buildSeconds, double(s.lines) / s.buildSeconds, double(s.indexBytes) / 1e6,
                    double(s.indexBytes) / double(s.logBytes));
        for (const std::string q : {"needle", "Xid (PCI:0018:01:00): 149", "eedle-7f3", "NCCL INFO Channel 9/32"}) {
            std::size_t hits = 0;
            const double ms = medianMs(*index, q, hits);
            std::printf("%-9s   query %-28s %3zu hits (limit 100), median %.2f ms\n", toString(tokenizer),
                        ("\"" + q + "\"").c_str(), hits, ms);
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return 0;
}
