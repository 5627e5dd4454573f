// SPDX-License-Identifier: GPL-3.0-or-later
// The case store: round trip of a real analysis, labels, listing, migration from schema 1, and files that
// are not usable stores (corrupt, truncated, foreign, newer, read-only) refused with the file named.
#include "../common/event_compare.h"
#include "../common/test_catalog.h"
#include "store_fixtures.h"

#include "engine/store/case_record.h"
#include "engine/store/case_result.h"
#include "engine/store/schema.h"
#include "engine/store/sqlite_case_store.h"
#include "engine/store/sqlite_db.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace attrib;
using namespace attrib::store;

namespace {

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs `f`; it must throw a StoreError of `kind` whose message names `path`.
void expectError(const std::function<void()>& f, StoreError::Kind kind, const std::string& path)
{
    try {
        f();
    } catch (const StoreError& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(e.kind() == kind, e.what());
        return;
    }
    QFAIL(("no error for " + path).c_str());
}

CaseLabel label(const std::string& state, const std::string& domain, const std::string& node)
{
    return {state, domain, node, "cable reseated; <b>x</b> | y", "alice", 1'750'000'000'000'000'000LL};
}

constexpr int NobodyCannotReach = 7;

/// Run in a forked child as `nobody`: opening a read-only store for writing fails with ReadOnly naming the file,
/// opening it read-only works. Returns 0, or the number of the expectation that failed.
int readOnlyChecksAsNobody(const std::string& path)
{
    if (setgid(65534) != 0 || setuid(65534) != 0)
        return 1;
    if (access(path.c_str(), R_OK) != 0)
        return NobodyCannotReach;
    try {
        SqliteCaseStore::open(path);
        return 2;
    } catch (const StoreError& e) {
        if (e.kind() != StoreError::Kind::ReadOnly || std::string(e.what()).find(path) == std::string::npos)
            return 3;
    } catch (...) {
        return 4;
    }
    try {
        return SqliteCaseStore::open(path, OpenMode::ReadOnly)->caseCount() == 1 ? 0 : 5;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "read-only open as nobody: %s\n", e.what());  // in the test log, for the reason
        return 6;
    }
}

}  // namespace

class TestCaseStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string file(const char* name) const { return (fs::path(m_dir.path().toStdString()) / name).string(); }

private Q_SLOTS:
    void roundTripOfARealAnalysis()
    {
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const auto& result = *outcome.result;
        const std::string hash = bundleContentHash(result);
        QVERIFY(hash.rfind("fnv1a64:", 0) == 0);
        QCOMPARE(bundleContentHash(result), hash);
        const CaseRecord record = makeCaseRecord(result, hash, nowNs());
        const std::string path = file("roundtrip.sqlite");
        std::int64_t id = 0;
        {
            auto store = SqliteCaseStore::open(path);
            QCOMPARE(store->schemaVersion(), CurrentSchemaVersion);
            id = store->addCase(record);
            QVERIFY(id > 0);
        }
        auto store = SqliteCaseStore::open(path, OpenMode::ReadOnly);
        const auto back = store->getCase(id);
        QVERIFY(back);
        QCOMPARE(back->verdictJson, engine::dumpJson(engine::verdictToJson(result)));
        QCOMPARE(back->contextJson, record.contextJson);
        QCOMPARE(back->traceJson, record.traceJson);
        QCOMPARE(back->coverageJson, record.coverageJson);
        QCOMPARE(back->summary.bundleHash, hash);
        QCOMPARE(back->summary.terminalState, std::string("hardware_failure"));
        QCOMPARE(back->summary.rootNode, std::string("node-02"));
        QCOMPARE(back->summary.catalogHash, tests::sourceCatalog()->hash());
        QCOMPARE(back->symptoms.size(), result.symptoms.size());
        QCOMPARE(back->symptoms.front().symptomId, result.symptoms.front().id);
        QCOMPARE(back->evidence.size(), result.observations.size());
        for (std::size_t i = 0; i < back->evidence.size(); ++i) {
            QCOMPARE(back->evidence[i].text, record.evidence[i].text);
            QCOMPARE(back->evidence[i].line, record.evidence[i].line);
            QCOMPARE(back->evidence[i].time, record.evidence[i].time);
        }
        QVERIFY(!back->summary.label);
        QCOMPARE(store->integrityCheck(), std::string("ok"));
    }

    void caseReopensWithoutTheEngine()
    {
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        engine::AnalysisResult stormy = *outcome.result;
        stormy.events.back().folded = 41;  // a storm's counted tail must come back counted
        const auto& original = stormy;
        auto store = SqliteCaseStore::open(file("reopen.sqlite"));
        const auto id = store->addCase(makeCaseRecord(original, bundleContentHash(original), nowNs()));
        auto record = store->getCase(id);
        bool moved = true;
        const auto back = caseToResult(*record, &moved);
        QVERIFY(!moved);
        QCOMPARE(back->verdict.terminalState, original.verdict.terminalState);
        QCOMPARE(back->verdict.rootCause->node, original.verdict.rootCause->node);
        QCOMPARE(back->verdict.rootCause->decisiveObservation, original.verdict.rootCause->decisiveObservation);
        QCOMPARE(back->symptoms.size(), original.symptoms.size());
        for (std::size_t i = 0; i < back->symptoms.size(); ++i) {
            QCOMPARE(back->symptoms[i].status, original.symptoms[i].status);
            QCOMPARE(back->symptoms[i].causedBy, original.symptoms[i].causedBy);
        }
        QCOMPARE(back->observation(original.verdict.rootCause->decisiveObservation)->text,
                 original.observation(original.verdict.rootCause->decisiveObservation)->text);
        QCOMPARE(back->trace.size(), original.trace.size());
        QCOMPARE(back->fileCoverage.size(), original.fileCoverage.size());
        for (std::size_t i = 0; i < back->fileCoverage.size(); ++i) {
            QCOMPARE(back->fileCoverage[i].role, original.fileCoverage[i].role);
            QCOMPARE(back->fileCoverage[i].format, original.fileCoverage[i].format);
        }
        {  // a record written before coverage had a role: metadata and workload.json still known as such
            CaseRecord old = *record;
            auto coverage = nlohmann::json::parse(old.coverageJson);
            for (auto& f : coverage["files"])
                f.erase("role");
            old.coverageJson = coverage.dump();
            const auto legacy = caseToResult(old, &moved);
            for (std::size_t i = 0; i < legacy->fileCoverage.size(); ++i)
                QCOMPARE(legacy->fileCoverage[i].role, original.fileCoverage[i].role);
        }
        // The events come back as analysed: same ids, times, time certainty, evidence and symptom links.
        QCOMPARE(back->events.size(), original.events.size());
        QVERIFY(original.events.size() > original.symptoms.size());
        for (std::size_t i = 0; i < back->events.size() && !QTest::currentTestFailed(); ++i)
            tests::compareEvents(back->events[i], original.events[i]);
        QVERIFY(!QTest::currentTestFailed());
        for (std::size_t i = 0; i < back->symptoms.size(); ++i)
            QCOMPARE(back->symptoms[i].events, original.symptoms[i].events);
        QCOMPARE(back->files.front().absolutePath.empty(), false);
        QCOMPARE(engine::verdictToJson(*back)["root_cause"], engine::verdictToJson(original)["root_cause"]);
        auto older = *record;  // saved before events were kept: one stand-in event per symptom
        older.eventsJson.clear();
        const auto standIns = caseToResult(older);
        QCOMPARE(standIns->events.size(), standIns->symptoms.size());
        for (const auto& s : standIns->symptoms)
            QCOMPARE(s.events.size(), std::size_t(1));
        record->summary.bundlePath = "/no/longer/here";  // the bundle moved: stored lines only
        const auto readOnly = caseToResult(*record, &moved);
        QVERIFY(moved);
        QVERIFY(readOnly->files.front().absolutePath.empty());
        QCOMPARE(readOnly->observations.size(), original.observations.size());
    }

    void labelsAreSetReplacedAndChecked()
    {
        const std::string path = file("labels.sqlite");
        auto store = SqliteCaseStore::open(path);
        const auto id = store->addCase(testing::syntheticCase(1));
        store->setLabel(id, label("hardware_failure", "nvlink", "node-01"));
        store->setLabel(id, label("hardware_failure", "gpu", "node-03"));
        const auto back = store->getCase(id);
        QVERIFY(back && back->summary.label);
        QCOMPARE(back->summary.label->subDomain, std::string("gpu"));
        QCOMPARE(back->summary.label->node, std::string("node-03"));
        QCOMPARE(back->summary.label->notes, std::string("cable reseated; <b>x</b> | y"));
        QCOMPARE(back->summary.label->labeledBy, std::string("alice"));
        expectError([&] { store->setLabel(id, label("broken", "gpu", "n")); }, StoreError::Kind::Invalid, path);
        expectError([&] { store->setLabel(id, label("", "gpus", "n")); }, StoreError::Kind::Invalid, path);
        expectError([&] { store->setLabel(id + 99, label("", "", "n")); }, StoreError::Kind::NotFound, path);
        QCOMPARE(store->getCase(id)->summary.label->subDomain, std::string("gpu"));
        store->removeLabel(id);
        QVERIFY(!store->getCase(id)->summary.label);
        QVERIFY(!store->getCase(id + 99));
    }

    void listFiltersAndPages()
    {
        auto store = SqliteCaseStore::open(file("list.sqlite"));
        for (int i = 0; i < 10; ++i)
            store->addCase(testing::syntheticCase(i));
        QCOMPARE(store->caseCount(), std::size_t(10));
        const auto all = store->listCases();
        QCOMPARE(all.size(), std::size_t(10));
        QVERIFY(all.front().id > all.back().id);  // newest first
        CaseFilter f;
        f.terminalState = "hardware_failure";
        QCOMPARE(store->listCases(f).size(), std::size_t(5));
        f.node = "node-01";
        QCOMPARE(store->listCases(f).size(), std::size_t(3));  // 1, 5, 9
        CaseFilter page;
        page.limit = 4;
        const auto first = store->listCases(page);
        page.beforeId = first.back().id;
        const auto second = store->listCases(page);
        QCOMPARE(second.size(), std::size_t(4));
        QVERIFY(second.front().id < first.back().id);
        store->setLabel(first.front().id, label("", "", "node-00"));
        CaseFilter labeled;
        labeled.labeledOnly = true;
        QCOMPARE(store->listCases(labeled).size(), std::size_t(1));
    }

    void migratesASchemaOneStore()
    {
        const std::string path = file("v1.sqlite");
        {
            SqliteDb db(path, false, true);
            QCOMPARE(migrateSchema(db, 1), 1);
            db.exec("INSERT INTO cases (created_at, bundle_path, bundle_hash, scheduler, attempt, terminal_state, "
                    "sub_domain, root_node, context_json, verdict_json, coverage_json, trace_json, engine_version, "
                    "catalog_version, catalog_hash) VALUES (1, '/old', 'h', 'none', 0, 'hardware_failure', 'gpu', "
                    "'node-7', '{}', '{}', '{}', '[]', '0.0.9', 'v', 'c')");
            db.exec("INSERT INTO labels (case_id, notes, labeled_by, labeled_at) VALUES (1, 'old note', 'bob', 2)");
        }
        expectError([&] { SqliteCaseStore::open(path, OpenMode::ReadOnly); }, StoreError::Kind::ReadOnly, path);
        auto store = SqliteCaseStore::open(path);
        QCOMPARE(store->schemaVersion(), CurrentSchemaVersion);
        const auto old = store->getCase(1);
        QVERIFY(old);
        QCOMPARE(old->summary.rootNode, std::string("node-7"));
        QCOMPARE(old->summary.label->notes, std::string("old note"));
        QVERIFY(old->evidence.empty());
        QVERIFY(old->eventsJson.empty());  // saved before events were kept: stand-ins on reopening
        const auto id = store->addCase(testing::syntheticCase(2));
        QCOMPARE(store->getCase(id)->evidence.size(), std::size_t(5));
        QCOMPARE(store->integrityCheck(), std::string("ok"));
    }

    void refusesFilesThatAreNotStores()
    {
        const std::string garbage = file("garbage.sqlite");
        std::ofstream(garbage, std::ios::binary) << std::string(8192, '\x5a');
        expectError([&] { SqliteCaseStore::open(garbage); }, StoreError::Kind::NotDatabase, garbage);
        QCOMPARE(readBytes(garbage), std::string(8192, '\x5a'));

        const std::string tiny = file("tiny.sqlite");
        std::ofstream(tiny, std::ios::binary) << "SQLite format 3";
        expectError([&] { SqliteCaseStore::open(tiny); }, StoreError::Kind::NotDatabase, tiny);

        const std::string foreign = file("foreign.sqlite");
        {
            SqliteDb db(foreign, false, true);
            db.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('x')");
        }
        const std::string before = readBytes(foreign);
        expectError([&] { SqliteCaseStore::open(foreign); }, StoreError::Kind::Foreign, foreign);
        expectError([&] { SqliteCaseStore::open(foreign, OpenMode::ReadOnly); }, StoreError::Kind::Foreign, foreign);
        QCOMPARE(readBytes(foreign), before);

        const std::string folder = file("a-folder");
        fs::create_directories(folder);
        expectError([&] { SqliteCaseStore::open(folder); }, StoreError::Kind::Io, folder);
        const std::string missing = file("missing.sqlite");
        expectError([&] { SqliteCaseStore::open(missing, OpenMode::ReadOnly); }, StoreError::Kind::Io, missing);
        QVERIFY(!fs::exists(missing));
    }

    void refusesTruncatedAndCorruptStores()
    {
        const std::string path = file("truncated.sqlite");
        {
            auto store = SqliteCaseStore::open(path);
            for (int i = 0; i < 40; ++i)
                store->addCase(testing::syntheticCase(i, 3, 20, 4000));
        }
        const std::string whole = readBytes(path);
        QVERIFY(whole.size() > 100'000);
        fs::resize_file(path, whole.size() / 2);
        expectError([&] { SqliteCaseStore::open(path); }, StoreError::Kind::NotDatabase, path);
        QCOMPARE(fs::file_size(path), whole.size() / 2);

        // Same size, damaged pages: every operation either works or throws a StoreError naming the file.
        const std::string corrupt = file("corrupt.sqlite");
        std::string bytes = whole;
        for (std::size_t i = 4096; i < bytes.size(); i += 3)
            bytes[i] = static_cast<char>(i * 7);
        std::ofstream(corrupt, std::ios::binary) << bytes;
        bool refused = false;
        try {
            auto store = SqliteCaseStore::open(corrupt);
            const std::string check = store->integrityCheck();
            refused = check != "ok";
            for (const auto& c : store->listCases())
                store->getCase(c.id);
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find(corrupt) != std::string::npos, e.what());
            refused = true;
        }
        QVERIFY(refused);
    }

    void refusesANewerSchema()
    {
        const std::string path = file("newer.sqlite");
        {
            auto store = SqliteCaseStore::open(path);
            store->addCase(testing::syntheticCase(1));
            store->db().exec("UPDATE store_meta SET value = '99' WHERE key = 'schema_version'");
        }
        const std::string before = readBytes(path);
        for (auto mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
            try {
                SqliteCaseStore::open(path, mode);
                QFAIL("a newer schema was opened");
            } catch (const StoreError& e) {
                QCOMPARE(e.kind(), StoreError::Kind::NewerSchema);
                QVERIFY(std::string(e.what()).find(path) != std::string::npos);
                QVERIFY(std::string(e.what()).find("99") != std::string::npos);
            }
        }
        QCOMPARE(readBytes(path), before);
    }

    void readOnlyStoresRefuseWrites()
    {
        const std::string path = file("readonly.sqlite");
        SqliteCaseStore::open(path)->addCase(testing::syntheticCase(1));
        auto store = SqliteCaseStore::open(path, OpenMode::ReadOnly);
        QCOMPARE(store->caseCount(), std::size_t(1));
        expectError([&] { store->addCase(testing::syntheticCase(2)); }, StoreError::Kind::ReadOnly, path);
        expectError([&] { store->setLabel(1, label("", "", "n")); }, StoreError::Kind::ReadOnly, path);
        QCOMPARE(store->caseCount(), std::size_t(1));
    }

    void readOnlyFileIsNamed()
    {
        const std::string path = file("chmod.sqlite");
        SqliteCaseStore::open(path)->addCase(testing::syntheticCase(1));
        fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
        if (geteuid() != 0) {
            expectError([&] { SqliteCaseStore::open(path); }, StoreError::Kind::ReadOnly, path);
            QCOMPARE(SqliteCaseStore::open(path, OpenMode::ReadOnly)->caseCount(), std::size_t(1));
            return;
        }
        // Root writes through file permissions, so the check runs as `nobody` in a child process. The folder is
        // readable but not writable for it, so SQLite cannot create the WAL store's -shm file and the read-only
        // open goes through the immutable fallback. The child's exit code says which expectation failed.
        fs::permissions(m_dir.path().toStdString(),
                        fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                            fs::perms::others_exec);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0)
            _exit(readOnlyChecksAsNobody(path));
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        if (WEXITSTATUS(status) == NobodyCannotReach)
            QSKIP("the temporary folder cannot be reached by nobody (TMPDIR below a private folder)");
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    void schemaStepsAreContiguous()
    {
        for (auto dialect : {SqlDialect::Sqlite, SqlDialect::Postgres}) {
            const auto steps = schemaSteps(dialect);
            QCOMPARE(static_cast<int>(steps.size()), CurrentSchemaVersion);
            for (std::size_t i = 0; i < steps.size(); ++i) {
                QCOMPARE(steps[i].version, static_cast<int>(i + 1));
                QVERIFY(!steps[i].statements.empty());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestCaseStore)
#include "tst_case_store.moc"
