// SPDX-License-Identifier: GPL-3.0-or-later
// Folding repeated matched lines (issue 13, log storms): N lines with the same matches and captures become the
// first LineFolds::Kept observations plus one tail that counts the rest; symptom counts, first/last times,
// evidence_total and the NCCL peer reports still count every line. Different captures are never folded.
#include "importer_test_util.h"

#include "importers/line_folds.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <map>

using namespace attrib;
using importers::detail::LineFolds;

namespace {

/// An ISO-stamped NCCL storm line, `ms` milliseconds after 10:00:00; the peer's port changes every line.
std::string stormLine(int ms, const std::string& peer)
{
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "2026-03-01T10:%02d:%02d.%03dZ", ms / 60000, ms / 1000 % 60, ms % 1000);
    return std::string(stamp) + " node-01:4100:4231 [3] misc/socket.cc:538 NCCL WARN Net : Connection closed by " +
        "remote peer " + peer + ".cluster<" + std::to_string(40000 + ms % 20000) + ">\n";
}

std::uint64_t linesOf(const engine::AnalysisResult& r, std::uint32_t file)
{
    std::uint64_t lines = 0;
    for (const auto& o : r.observations)
        lines += o.source.file == file ? 1 + o.folded : 0;
    return lines;
}

std::size_t observationsOf(const engine::AnalysisResult& r, std::uint32_t file)
{
    return static_cast<std::size_t>(
        std::count_if(r.observations.begin(), r.observations.end(), [&](auto& o) { return o.source.file == file; }));
}

const engine::Symptom* symptomNamed(const engine::AnalysisResult& r, const std::string& name)
{
    for (const auto& s : r.symptoms)
        if (s.name == name)
            return &s;
    return nullptr;
}

}  // namespace

class TestLineFolds : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    engine::AnalysisSnapshot analyze(const std::string& name, const std::string& log,
                                     const std::string& file = "rank-0003.log")
    {
        const auto root = std::filesystem::path(m_tmp.path().toStdString()) / name;
        tests::writeFile(root / "nodes" / "node-01" / file, log);
        const auto outcome = importers::analyzeBundle(root.string(), tests::sourceCatalog());
        if (!outcome.result)
            qWarning("%s", outcome.error.c_str());
        return outcome.result;
    }

private slots:
    void identicalLinesFoldIntoOneCountedTail()
    {
        constexpr int Lines = 1000;
        std::string log;
        for (int i = 0; i < Lines; ++i)
            log += stormLine(i, "node-02");
        const auto result = analyze("storm", log);
        QVERIFY(result);
        const auto& r = *result;
        QCOMPARE(r.files.size(), std::size_t(1));
        QCOMPARE(observationsOf(r, 0), std::size_t(LineFolds::Kept + 1));
        QCOMPARE(linesOf(r, 0), std::uint64_t(Lines));
        const auto& tail = r.observations.back();  // ids follow (file, offset): the tail holds the latest line
        QCOMPARE(tail.source.line, std::uint64_t(Lines));
        QCOMPARE(tail.folded, std::uint64_t(Lines - LineFolds::Kept - 1));

        const engine::Symptom* reporter = symptomNamed(r, "nccl_connection_error");
        QVERIFY(reporter);
        QCOMPARE(reporter->count, std::uint32_t(Lines));
        QCOMPARE(r.evidenceLines(*reporter), std::uint64_t(Lines));
        QCOMPARE(reporter->evidence.size(), std::size_t(LineFolds::Kept + 1));
        const auto json = engine::verdictToJson(r);
        bool listed = false;
        for (const auto& s : json["symptoms"]) {
            if (s["id"] != reporter->id)
                continue;
            listed = true;
            QCOMPARE(s["evidence_total"].get<std::uint64_t>(), std::uint64_t(Lines));
            QCOMPARE(s["evidence"].size(), engine::MaxEvidencePerSymptom);
            QCOMPARE(QString::fromStdString(s["first_seen"].get<std::string>()).left(19),
                     QStringLiteral("2026-03-01T10:00:00"));
            QCOMPARE(QString::fromStdString(s["last_seen"].get<std::string>()).left(23),
                     QStringLiteral("2026-03-01T10:00:00.999"));
        }
        QVERIFY(listed);

        // The peer named by every report: its symptom counts every report line too.
        const engine::Symptom* peer = symptomNamed(r, "network_peer_unreachable");
        QVERIFY(peer);
        QCOMPARE(peer->node, std::string("node-02"));
        QCOMPARE(peer->count, std::uint32_t(Lines));
        QCOMPARE(peer->attrs.at("reports"), std::to_string(Lines));
    }

    void xidBurstCountsFoldedLines()
    {
        // 100 identical Xid lines within one second: the burst rule sees 33 events but names 100 Xids.
        constexpr int Lines = 100;
        std::string log;
        for (int i = 0; i < Lines; ++i)
            log += "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, pid=1, name=x, GPU has fallen off "
                   "the bus.\n";
        const auto result = analyze("xidstorm", log, "dmesg.txt");
        QVERIFY(result);
        QCOMPARE(linesOf(*result, 0), std::uint64_t(Lines));
        QVERIFY(observationsOf(*result, 0) < std::size_t(Lines));
        bool found = false;
        for (const auto& step : result->trace)
            if (step.action == engine::TraceAction::Burst) {
                found = true;
                QVERIFY2(step.summary.rfind("burst of 100 Xid(s)", 0) == 0, step.summary.c_str());
            }
        QVERIFY(found);
    }

    void aPauseStartsTheNextTail()
    {
        // Lines 1 ms apart, then the same lines again 5 s later: the pause stays visible as a second tail.
        constexpr int Half = 200;
        std::string log;
        for (int i = 0; i < Half; ++i)
            log += stormLine(i, "node-02");
        for (int i = 0; i < Half; ++i)
            log += stormLine(5000 + i, "node-02");
        const auto result = analyze("pause", log);
        QVERIFY(result);
        QCOMPARE(observationsOf(*result, 0), std::size_t(LineFolds::Kept + 2));
        QCOMPARE(linesOf(*result, 0), std::uint64_t(2 * Half));
        std::vector<std::uint64_t> tails;
        for (const auto& o : result->observations)
            if (o.folded > 0)
                tails.push_back(o.source.line);
        QCOMPARE(tails, (std::vector<std::uint64_t>{Half, std::uint64_t{2} * Half}));
    }

    void differentCapturesAreKeptWhole()
    {
        // Every line names another peer: nothing repeats, nothing folds.
        constexpr int Lines = 3 * LineFolds::Kept;
        std::string log;
        for (int i = 0; i < Lines; ++i)
            log += stormLine(i, "node-" + std::to_string(100 + i));
        const auto result = analyze("distinct", log);
        QVERIFY(result);
        QCOMPARE(observationsOf(*result, 0), std::size_t(Lines));
        for (const auto& o : result->observations)
            QCOMPARE(o.folded, std::uint64_t(0));
    }

    /// NCCL's communicator line at Init START and again at Init COMPLETE states the same context facts: one event
    /// each, with both lines as its evidence. A different rank's line, or a later time, stays an event of its own.
    void contextFactsStatedAgainJoinTheFirstEvent()
    {
        auto initLine = [](int rank, const char* stamp, const char* phase) {
            return std::string(stamp) + " node-01:4100:4231 [" + std::to_string(rank) +
                "] NCCL INFO ncclCommInitRank comm 0x55a02b0a rank " + std::to_string(rank) + " nranks 16 cudaDev " +
                std::to_string(rank) + " nvmlDev " + std::to_string(rank) +
                " busId 1b000 commId 0x7f3a9c1e2b4d5e6f - Init " + phase + "\n";
        };
        const std::string t0 = "2026-03-01T10:00:00.000Z", t1 = "2026-03-01T10:00:09.000Z";
        const std::string log = initLine(3, t0.c_str(), "START") + initLine(3, t0.c_str(), "COMPLETE") +
            initLine(4, t0.c_str(), "START") + initLine(3, t1.c_str(), "COMPLETE");
        const auto result = analyze("facts", log);
        QVERIFY(result);
        QCOMPARE(observationsOf(*result, 0), std::size_t(4));  // every line stays evidence
        // (communicator rank, time) -> per event: its lines and the events it stands for (1 + folded)
        using Counts = std::vector<std::pair<std::size_t, std::uint64_t>>;
        std::map<std::pair<std::string, engine::TimeNs>, Counts> comm;
        for (const auto& e : result->events)
            if (e.type == "nccl_comm_init")
                comm[{e.attrs.at("comm_rank"), e.time}].push_back({e.observations.size(), 1 + e.folded});
        QCOMPARE(comm.size(), std::size_t(3));
        const engine::TimeNs first = comm.begin()->first.second;
        QCOMPARE(comm[std::make_pair(std::string("3"), first)], (Counts{{2, 2}}));  // START and COMPLETE, one event
        QCOMPARE(comm[std::make_pair(std::string("4"), first)], (Counts{{1, 1}}));
        QCOMPARE(comm.rbegin()->second, (Counts{{1, 1}}));  // rank 3 at a later time
    }

    void signatureIgnoresTimeAndPositionOnly()
    {
        engine::Observation a;
        a.node = "node-01";
        a.rank = 3;
        a.gpu = 3;
        a.time = 1;
        a.source.line = 1;
        engine::Observation b = a;
        b.time = 2;
        b.source.line = 2;
        b.text = "other text";
        QCOMPARE(importers::detail::lineSignature(a, {}), importers::detail::lineSignature(b, {}));
        b.gpu = 4;
        QVERIFY(importers::detail::lineSignature(a, {}) != importers::detail::lineSignature(b, {}));
        b = a;
        b.node = "node-0";  // length-prefixed fields: "node-0" + "1..." never reads as "node-01" + "..."
        QVERIFY(importers::detail::lineSignature(a, {}) != importers::detail::lineSignature(b, {}));
    }
};

QTEST_APPLESS_MAIN(TestLineFolds)
#include "tst_line_folds.moc"
