// SPDX-License-Identifier: GPL-3.0-or-later
// The store under concurrency and crashes: readers see only whole cases while a writer commits, and a
// writer killed with SIGKILL in the middle of a transaction loses nothing it had committed.
#include "store_fixtures.h"

#include "engine/store/sqlite_case_store.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

namespace fs = std::filesystem;
using namespace attrib::store;

namespace {

/// Reads the child's stdout until `want` "committed"/"labeled" lines were seen and a further "begin" started;
/// collects what was reported committed.
struct ChildLog {
    std::set<long long> committed;
    long long lastLabeled = -1;
    long long inFlight = -1;

    void take(const QByteArray& line)
    {
        const auto parts = line.trimmed().split(' ');
        if (parts.size() != 2)
            return;
        if (parts[0] == "committed")
            committed.insert(parts[1].toLongLong());
        else if (parts[0] == "labeled")
            lastLabeled = parts[1].toLongLong();
        else if (parts[0] == "begin")
            inFlight = parts[1].toLongLong();
    }
};

/// Starts the writer, waits for `rounds` completed writes plus the begin of the next one, waits a random
/// moment inside that write and kills the child with SIGKILL.
ChildLog runAndKill(const QStringList& args, int rounds)
{
    ChildLog log;
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QStringLiteral(ATTRIB_STORE_WRITER), args);
    if (!child.waitForStarted(10000))
        return log;
    int done = 0;
    while (child.state() == QProcess::Running) {
        if (!child.canReadLine() && !child.waitForReadyRead(30000))
            break;
        while (child.canReadLine()) {
            const QByteArray line = child.readLine();
            log.take(line);
            done += line.startsWith("committed") || line.startsWith("labeled");
        }
        if (done >= rounds && log.inFlight >= done)
            break;
    }
    QThread::usleep(QRandomGenerator::global()->bounded(3000));  // a write takes longer than this
    child.kill();                                                // SIGKILL
    child.waitForFinished(10000);
    while (child.canReadLine())
        log.take(child.readLine());
    return log;
}

}  // namespace

class TestStoreConcurrency : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string file(const char* name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

private Q_SLOTS:
    void readersSeeWholeCasesWhileAWriterCommits()
    {
        const std::string path = file("concurrent.sqlite");
        SqliteCaseStore::open(path);  // create before readers start
        std::atomic<bool> writing{true};
        std::mutex mutex;
        std::vector<std::string> problems;
        std::atomic<int> reads{0};
        auto reader = [&] {
            try {
                auto store = SqliteCaseStore::open(path, OpenMode::ReadOnly);
                std::size_t seen = 0;
                while (writing) {
                    const auto cases = store->listCases();
                    if (cases.size() < seen)
                        throw std::runtime_error("case count went down");
                    seen = cases.size();
                    for (const auto& c : cases) {
                        const auto full = store->getCase(c.id);
                        const auto [symptoms, evidence] = testing::encodedCounts(c.bundlePath);
                        if (!full || int(full->symptoms.size()) != symptoms || int(full->evidence.size()) != evidence)
                            throw std::runtime_error("torn case " + std::to_string(c.id));
                    }
                    ++reads;
                }
            } catch (const std::exception& e) {
                std::lock_guard lock(mutex);
                problems.push_back(e.what());
            }
        };
        std::vector<std::thread> readers;
        readers.reserve(3);
        for (int i = 0; i < 3; ++i)
            readers.emplace_back(reader);
        {
            auto writer = SqliteCaseStore::open(path);
            for (int i = 0; i < 60; ++i)
                writer->addCase(testing::syntheticCase(i, 1 + i % 7, 10 + i, 2000));
        }
        writing = false;
        for (auto& t : readers)
            t.join();
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        QVERIFY(reads > 0);
        QCOMPARE(SqliteCaseStore::open(path)->caseCount(), std::size_t(60));
    }

    void killDuringCaseWriteLosesNothingCommitted()
    {
        const std::string path = file("killed.sqlite");
        std::set<long long> committed;
        int cut = 0;  // rounds where the write in flight was lost: the kill landed inside the transaction
        for (int round = 0; round < 3; ++round) {
            const ChildLog log = runAndKill({"cases", QString::fromStdString(path)}, 3);
            QVERIFY2(log.committed.size() >= 3, "the writer did not commit");
            committed.insert(log.committed.begin(), log.committed.end());
            auto store = SqliteCaseStore::open(path);
            QCOMPARE(store->integrityCheck(), std::string("ok"));
            for (const auto id : committed) {
                const auto c = store->getCase(id);
                QVERIFY2(c, ("committed case lost: " + std::to_string(id)).c_str());
                QCOMPARE(c->symptoms.size(), std::size_t(50));
                QCOMPARE(c->evidence.size(), std::size_t(2000));
            }
            for (const auto& c : store->listCases())  // the case in flight is whole or absent
                QCOMPARE(store->getCase(c.id)->evidence.size(), std::size_t(2000));
            cut += store->caseCount() == committed.size();
            committed.clear();
            for (const auto& c : store->listCases())
                committed.insert(c.id);
        }
        qInfo("the kill cut the case write in flight in %d of 3 rounds", cut);
        QVERIFY(cut > 0);
    }

    void killDuringLabelEditKeepsTheLastCommittedLabel()
    {
        const std::string path = file("label-killed.sqlite");
        const auto id = SqliteCaseStore::open(path)->addCase(testing::syntheticCase(1));
        for (int round = 0; round < 3; ++round) {
            const ChildLog log = runAndKill({"label", QString::fromStdString(path), QString::number(id)}, 20);
            QVERIFY(log.lastLabeled >= 0);
            auto store = SqliteCaseStore::open(path);
            QCOMPARE(store->integrityCheck(), std::string("ok"));
            const auto c = store->getCase(id);
            QVERIFY(c && c->summary.label);
            const std::string notes = c->summary.label->notes;
            const long long n = std::stoll(notes.substr(5, notes.find(' ', 5) - 5));
            QVERIFY2(n == log.lastLabeled || n == log.lastLabeled + 1, notes.substr(0, 20).c_str());
            QCOMPARE(c->summary.label->labeledAt, n + 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestStoreConcurrency)
#include "tst_store_concurrency.moc"
