// SPDX-License-Identifier: GPL-3.0-or-later
// Full-text search: a contentless FTS5 trigram index over 1,000,000 generated lines finds the one needle line
// (also by a substring inside a word), is reused on reopen without reading the bundle, and a cancelled build
// leaves nothing behind; an index whose figures do not read is built again. Prints the build rate, index size and query
// latency.
#include "search_fixtures.h"

#include "engine/store/bundle_lines.h"
#include "engine/store/regex_search.h"
#include "engine/store/search_index.h"
#include "engine/store/sqlite_db.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace attrib;
using namespace attrib::store;

namespace {

struct CancelAfter : engine::ProgressSink {
    engine::CancelFlag* flag = nullptr;
    std::uint64_t after = 0;
    std::uint64_t last = 0;
    void progress(engine::ProgressStage, std::uint64_t done, std::uint64_t) override
    {
        last = done;
        if (done >= after)
            flag->store(true);
    }
};

double medianMs(SearchIndex& index, const std::string& query, int runs)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        index.search(query, 100);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

class TestSearchIndex : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    testing::GeneratedBundle m_bundle;
    std::string m_indexPath;

private Q_SLOTS:
    void initTestCase()
    {
        m_bundle = testing::generateBundle(fs::path(m_dir.path().toStdString()) / "bundle", 4, 250'000);
        m_indexPath = SearchIndex::indexPathFor(m_dir.path().toStdString() + "/cases.sqlite", "fnv1a64:0123abcd");
    }

    void findsTheNeedleAmongAMillionLines()
    {
        auto index = SearchIndex::openOrBuild(m_indexPath, "fnv1a64:0123abcd", bundleLineSource(m_bundle.result));
        QVERIFY(index);
        const auto& s = index->stats();
        QVERIFY(!s.reused);
        QCOMPARE(s.lines, std::uint64_t(1'000'000));
        QVERIFY(s.errors.empty());
        auto hits = index->search("needle-7f3a");
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(hits[0].file, m_bundle.needleFile);
        QCOMPARE(hits[0].line, m_bundle.needleLine);
        QCOMPARE(hits[0].path, std::string("logs/node-03.log"));
        QCOMPARE(hits[0].node, std::string("node-03"));
        QCOMPARE(hits[0].text, std::string(testing::Needle));
        hits = index->search("EEDLE-7F");  // a substring inside a word, other case
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(hits[0].line, m_bundle.needleLine);
        hits = index->search("Xid (PCI:0018:01:00): 149");
        QCOMPARE(hits.size(), std::size_t(1));
        hits = index->search("NCCL INFO Channel 9/32", 10);
        QCOMPARE(hits.size(), std::size_t(10));
        QVERIFY(std::is_sorted(hits.begin(), hits.end(), [](const auto& a, const auto& b) {
            return std::pair(a.file, a.line) < std::pair(b.file, b.line);
        }));
        for (const auto& h : hits)
            QVERIFY2(h.text.find("NCCL INFO Channel 9/32") != std::string::npos, h.text.c_str());
        QVERIFY(index->search("no such text anywhere").empty());
        QVERIFY_THROWS_EXCEPTION(StoreError, index->search("ab"));
        const double rate = double(s.lines) / s.buildSeconds;
        qInfo("FTS5 trigram: %llu lines (%.1f MB of log text) in %.2f s = %.0f lines/s; index %.1f MB = %.2f x the "
              "logs; query latency (median of 9, up to 100 hits with text): needle %.2f ms, common phrase %.2f ms",
              static_cast<unsigned long long>(s.lines), double(s.logBytes) / 1e6, s.buildSeconds, rate,
              double(s.indexBytes) / 1e6, double(s.indexBytes) / double(s.logBytes), medianMs(*index, "needle-7f3a", 9),
              medianMs(*index, "NCCL INFO Channel 9/32", 9));
    }

    void reusesTheIndexOnReopen()
    {
        LineSource source = bundleLineSource(m_bundle.result);
        bool read = false;
        source.readLines = [&read](std::size_t, const LineVisitor&) {
            read = true;
            return std::string();
        };
        auto index = SearchIndex::openOrBuild(m_indexPath, "fnv1a64:0123abcd", source);
        QVERIFY(index);
        QVERIFY(index->stats().reused);
        QVERIFY(!read);
        QCOMPARE(index->stats().lines, std::uint64_t(1'000'000));
        QCOMPARE(index->search("needle-7f3a").size(), std::size_t(1));
    }

    // A figure of the index's own record that does not read (a damaged or hand-edited file) is no crash: the index
    // counts as incomplete and is built again.
    void damagedFiguresRebuildTheIndex()
    {
        {
            SqliteDb db(m_indexPath, false, false);
            db.exec("UPDATE index_meta SET value = '12x' WHERE key = 'lines'");
        }
        auto index = SearchIndex::openOrBuild(m_indexPath, "fnv1a64:0123abcd", bundleLineSource(m_bundle.result));
        QVERIFY(index);
        QVERIFY(!index->stats().reused);
        QCOMPARE(index->stats().lines, std::uint64_t(1'000'000));
        QCOMPARE(index->search("needle-7f3a").size(), std::size_t(1));
    }

    void cancelLeavesNoIndex()
    {
        const std::string path = m_dir.path().toStdString() + "/cancel.sqlite.search/x.fts.sqlite";
        engine::CancelFlag cancel{false};
        CancelAfter sink;
        sink.flag = &cancel;
        sink.after = 200'000;
        auto index = SearchIndex::openOrBuild(path, "fnv1a64:x", bundleLineSource(m_bundle.result), Tokenizer::Trigram,
                                              &sink, &cancel);
        QVERIFY(!index);
        QCOMPARE(sink.last, std::uint64_t(200'000));
        QVERIFY(!fs::exists(path));
        QVERIFY(!fs::exists(path + ".partial"));
    }

    void regexModeStreamsEveryLine()
    {
        const LineSource source = bundleLineSource(m_bundle.result);
        // One needle among a million lines, found by a pattern no substring search can express.
        QElapsedTimer clock;
        clock.start();
        auto found = regexSearch(source, R"(Xid \(PCI:[0-9a-f:]+\): 149, pid=\d+, name=\w+, needle)", false, 100);
        QCOMPARE(found.hits.size(), std::size_t(1));
        QCOMPARE(found.hits[0].file, m_bundle.needleFile);
        QCOMPARE(found.hits[0].line, m_bundle.needleLine);
        QCOMPARE(found.hits[0].text, std::string(testing::Needle));
        QCOMPARE(found.linesScanned, std::uint64_t(1'000'000));
        qInfo("RE2 scan of 1,000,000 lines: %lld ms", static_cast<long long>(clock.elapsed()));
        QVERIFY(!found.truncated && !found.cancelled);
        // Case: insensitive unless asked.
        QCOMPARE(regexSearch(source, "NEEDLE-7F3A", false, 10).hits.size(), std::size_t(1));
        QCOMPARE(regexSearch(source, "NEEDLE-7F3A", true, 10).hits.size(), std::size_t(0));
        // The limit stops the scan and says so; hits come in file and line order.
        auto many = regexSearch(source, "Channel", false, 50);
        QCOMPARE(many.hits.size(), std::size_t(50));
        QVERIFY(many.truncated);
        for (std::size_t i = 1; i < many.hits.size(); ++i)
            QVERIFY(std::pair(many.hits[i - 1].file, many.hits[i - 1].line) <
                    std::pair(many.hits[i].file, many.hits[i].line));
        // Cancel: nothing more is scanned.
        engine::CancelFlag cancel{true};
        auto stopped = regexSearch(source, "needle", false, 10, nullptr, &cancel);
        QVERIFY(stopped.cancelled);
        QCOMPARE(stopped.linesScanned, std::uint64_t(0));
        // A pattern that does not compile names itself and RE2's reason.
        try {
            regexSearch(source, "Xid (149", false, 10);
            QFAIL("an unbalanced pattern compiled");
        } catch (const StoreError& e) {
            QCOMPARE(e.kind(), StoreError::Kind::Invalid);
            QVERIFY2(std::string(e.what()).find("Xid (149") != std::string::npos &&
                         std::string(e.what()).find("missing )") != std::string::npos,
                     e.what());
        }
    }

    void refusesAFileThatIsNotAnIndex()
    {
        const std::string path = m_dir.path().toStdString() + "/other.fts.sqlite";
        std::ofstream(path, std::ios::binary) << std::string(4096, 'x');
        try {
            SearchIndex::openOrBuild(path, "fnv1a64:0123abcd", bundleLineSource(m_bundle.result));
            QFAIL("opened a file that is not an index");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
        QCOMPARE(fs::file_size(path), std::uintmax_t(4096));
    }
};

QTEST_APPLESS_MAIN(TestSearchIndex)
#include "tst_search_index.moc"
