// SPDX-License-Identifier: GPL-3.0-or-later
// Cases and labels on PostgreSQL; the schema and its migrations are engine/store/schema.cpp's.
#include "engine/store_pg/pg_case_store.h"

#include "engine/store/schema.h"
#include "engine/store_pg/pg_connection.h"

#include <algorithm>

namespace attrib::store {

namespace {

constexpr char ApplicationName[] = "attribution-workbench-case-store";

constexpr char SummaryColumns[] =
    "c.id, c.created_at, c.bundle_path, c.bundle_hash, c.workload_id, c.job_start, c.job_end, c.terminal_state, "
    "c.sub_domain, c.root_node, c.root_symptom, c.engine_version, c.catalog_version, c.catalog_hash, "
    "l.terminal_state, l.sub_domain, l.node, l.notes, l.labeled_by, l.labeled_at";
constexpr int SummaryColumnCount = 20;

CaseSummary readSummary(const PgResult& r, int row)
{
    CaseSummary c;
    c.id = r.integer(row, 0);
    c.createdAt = r.time(row, 1);
    c.bundlePath = r.text(row, 2);
    c.bundleHash = r.text(row, 3);
    c.workloadId = r.text(row, 4);
    c.jobStart = r.time(row, 5);
    c.jobEnd = r.time(row, 6);
    c.terminalState = r.text(row, 7);
    c.subDomain = r.text(row, 8);
    c.rootNode = r.text(row, 9);
    c.rootSymptom = r.text(row, 10);
    c.engineVersion = r.text(row, 11);
    c.catalogVersion = r.text(row, 12);
    c.catalogHash = r.text(row, 13);
    if (!r.isNull(row, 19))
        c.label = CaseLabel{r.text(row, 14), r.text(row, 15), r.text(row, 16),
                            r.text(row, 17), r.text(row, 18), r.time(row, 19)};
    return c;
}

}  // namespace

PgCaseStore::PgCaseStore(std::unique_ptr<PgConnection> connection)
    : m_db(std::move(connection))
{
}

PgCaseStore::~PgCaseStore() = default;

const std::string& PgCaseStore::name() const
{
    return m_db->name();
}

std::unique_ptr<PgCaseStore> PgCaseStore::open(const std::string& conninfo)
{
    std::unique_ptr<PgCaseStore> store(new PgCaseStore(std::make_unique<PgConnection>(conninfo)));
    store->migrate();
    return store;
}

void PgCaseStore::migrate()
{
    PgTransaction tx(*m_db);
    // Replicas starting together queue here; the second one sees the first one's version.
    m_db->exec("SELECT pg_advisory_xact_lock($1)", {pgInt(PgMigrationLock)});
    int version = 0;
    if (!m_db->exec("SELECT to_regclass('store_meta')").isNull(0, 0)) {
        const auto app = m_db->exec("SELECT value FROM store_meta WHERE key = 'application'");
        const auto ver = m_db->exec("SELECT value FROM store_meta WHERE key = 'schema_version'");
        if (app.rows() != 1 || app.text(0, 0) != ApplicationName || ver.rows() != 1)
            throw StoreError(StoreError::Kind::Foreign,
                             m_db->name() + ": its store_meta table belongs to another application, not a case store");
        version = static_cast<int>(ver.integer(0, 0));
    } else if (m_db->exec("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'cases'")
                   .integer(0, 0) > 0) {
        throw StoreError(StoreError::Kind::Foreign, m_db->name() + ": has a cases table but no store_meta");
    }
    if (version > CurrentSchemaVersion)
        throw StoreError(StoreError::Kind::NewerSchema,
                         m_db->name() + ": the case store has schema version " + std::to_string(version) +
                             ", written by a newer attrib; this build reads up to version " +
                             std::to_string(CurrentSchemaVersion) + ". It was not changed.");
    for (const auto& step : schemaSteps(SqlDialect::Postgres)) {
        if (step.version <= version)
            continue;
        for (const auto& statement : step.statements)
            m_db->exec(statement);
    }
    if (version < CurrentSchemaVersion) {
        m_db->exec("INSERT INTO store_meta (key, value) VALUES ('application', $1) ON CONFLICT (key) DO NOTHING",
                   {pgText(ApplicationName)});
        m_db->exec("INSERT INTO store_meta (key, value) VALUES ('schema_version', $1) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                   {pgText(std::to_string(CurrentSchemaVersion))});
    }
    tx.commit();
    m_version = CurrentSchemaVersion;
}

std::int64_t PgCaseStore::addCase(const CaseRecord& r)
{
    PgTransaction tx(*m_db);
    const CaseSummary& c = r.summary;
    const auto inserted = m_db->exec(
        "INSERT INTO cases (created_at, bundle_path, bundle_hash, workload_id, scheduler, attempt, job_start, "
        "job_end, terminal_state, sub_domain, root_node, root_symptom, context_json, verdict_json, coverage_json, "
        "trace_json, engine_version, catalog_version, catalog_hash) VALUES "
        "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id",
        {pgTime(c.createdAt), pgText(c.bundlePath), pgText(c.bundleHash), pgOptional(c.workloadId), pgText(r.scheduler),
         pgInt(r.attempt), pgTime(c.jobStart), pgTime(c.jobEnd), pgText(c.terminalState), pgText(c.subDomain),
         pgOptional(c.rootNode), pgOptional(c.rootSymptom), pgText(r.contextJson), pgText(r.verdictJson),
         pgText(r.coverageJson), pgText(r.traceJson), pgText(c.engineVersion), pgText(c.catalogVersion),
         pgText(c.catalogHash)});
    const std::int64_t id = inserted.integer(0, 0);
    for (const auto& y : r.symptoms)
        m_db->exec("INSERT INTO case_symptoms (case_id, symptom_id, name, domain, node, gpu, status, status_rule, "
                   "status_reason, first_seen, last_seen, count, interesting) VALUES "
                   "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                   {pgInt(id), pgText(y.symptomId), pgText(y.name), pgText(y.domain), pgOptional(y.node),
                    y.gpu >= 0 ? pgInt(y.gpu) : PgParam(), pgText(y.status), pgOptional(y.statusRule),
                    pgOptional(y.statusReason), pgTime(y.firstSeen), pgTime(y.lastSeen), pgInt(y.count),
                    pgInt(y.interesting ? 1 : 0)});
    for (const auto& e : r.evidence)
        m_db->exec("INSERT INTO case_evidence (case_id, observation_id, file, line, byte_offset, byte_length, node, "
                   "time, text) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                   {pgInt(id), pgInt(static_cast<std::int64_t>(e.observationId)), pgText(e.file),
                    pgInt(static_cast<std::int64_t>(e.line)), pgInt(static_cast<std::int64_t>(e.offset)),
                    pgInt(static_cast<std::int64_t>(e.length)), pgOptional(e.node), pgTime(e.time), pgText(e.text)});
    if (!r.observations.empty())
        m_db->exec("INSERT INTO case_observations (case_id, observation_count, body) VALUES ($1, $2, $3)",
                   {pgInt(id), pgInt(static_cast<std::int64_t>(r.observationCount)), pgText(r.observations)});
    if (!r.eventsJson.empty())
        m_db->exec("INSERT INTO case_events (case_id, event_count, body) VALUES ($1, $2, $3)",
                   {pgInt(id), pgInt(static_cast<std::int64_t>(r.eventCount)), pgText(r.eventsJson)});
    tx.commit();
    return id;
}

std::optional<CaseRecord> PgCaseStore::getCase(std::int64_t id)
{
    const auto r = m_db->exec(std::string("SELECT ") + SummaryColumns +
                                  ", c.scheduler, c.attempt, c.context_json, c.verdict_json, c.coverage_json, "
                                  "c.trace_json FROM cases c LEFT JOIN labels l ON l.case_id = c.id WHERE c.id = $1",
                              {pgInt(id)});
    if (r.rows() == 0)
        return std::nullopt;
    CaseRecord record;
    record.summary = readSummary(r, 0);
    const int k = SummaryColumnCount;
    record.scheduler = r.text(0, k);
    record.attempt = static_cast<int>(r.integer(0, k + 1));
    record.contextJson = r.text(0, k + 2);
    record.verdictJson = r.text(0, k + 3);
    record.coverageJson = r.text(0, k + 4);
    record.traceJson = r.text(0, k + 5);
    readDetails(record);
    return record;
}

void PgCaseStore::readDetails(CaseRecord& record)
{
    const auto y = m_db->exec("SELECT symptom_id, name, domain, node, gpu, status, status_rule, status_reason, "
                              "first_seen, last_seen, count, interesting FROM case_symptoms WHERE case_id = $1 "
                              "ORDER BY symptom_id COLLATE \"C\"",
                              {pgInt(record.summary.id)});
    for (int i = 0; i < y.rows(); ++i)
        record.symptoms.push_back({y.text(i, 0), y.text(i, 1), y.text(i, 2), y.text(i, 3),
                                   y.isNull(i, 4) ? -1 : static_cast<int>(y.integer(i, 4)), y.text(i, 5), y.text(i, 6),
                                   y.text(i, 7), y.time(i, 8), y.time(i, 9),
                                   static_cast<std::uint32_t>(y.integer(i, 10)), y.integer(i, 11) != 0});
    const auto e = m_db->exec("SELECT observation_id, file, line, byte_offset, byte_length, node, time, text "
                              "FROM case_evidence WHERE case_id = $1 ORDER BY observation_id",
                              {pgInt(record.summary.id)});
    for (int i = 0; i < e.rows(); ++i)
        record.evidence.push_back(
            {static_cast<std::uint64_t>(e.integer(i, 0)), e.text(i, 1), static_cast<std::uint64_t>(e.integer(i, 2)),
             static_cast<std::uint64_t>(e.integer(i, 3)), static_cast<std::uint64_t>(e.integer(i, 4)), e.text(i, 5),
             e.time(i, 6), e.text(i, 7)});
    const auto v =
        m_db->exec("SELECT event_count, body FROM case_events WHERE case_id = $1", {pgInt(record.summary.id)});
    if (v.rows() > 0) {
        record.eventCount = static_cast<std::size_t>(v.integer(0, 0));
        record.eventsJson = v.text(0, 1);
    }
}

std::vector<CaseSummary> PgCaseStore::listCases(const CaseFilter& f)
{
    const auto r =
        m_db->exec(std::string("SELECT ") + SummaryColumns +
                       " FROM cases c LEFT JOIN labels l ON l.case_id = c.id WHERE"
                       " ($1::text IS NULL OR c.terminal_state = $1) AND ($2::text IS NULL OR c.sub_domain = $2)"
                       " AND ($3::text IS NULL OR c.root_node = $3) AND ($4::bigint IS NULL OR c.created_at >= $4)"
                       " AND ($5::bigint IS NULL OR c.id < $5) AND ($6::int = 0 OR l.case_id IS NOT NULL)"
                       " ORDER BY c.id DESC LIMIT $7",
                   {pgOptional(f.terminalState), pgOptional(f.subDomain), pgOptional(f.node), pgTime(f.since),
                    f.beforeId > 0 ? pgInt(f.beforeId) : PgParam(), pgInt(f.labeledOnly ? 1 : 0),
                    f.limit == 0 ? PgParam() : pgInt(static_cast<std::int64_t>(f.limit))});
    std::vector<CaseSummary> out;
    out.reserve(static_cast<std::size_t>(std::max(0, r.rows())));
    for (int i = 0; i < r.rows(); ++i)
        out.push_back(readSummary(r, i));
    return out;
}

void PgCaseStore::setLabel(std::int64_t id, const CaseLabel& label)
{
    if (const std::string problem = labelProblem(label); !problem.empty())
        throw StoreError(StoreError::Kind::Invalid, m_db->name() + ": case " + std::to_string(id) + ": " + problem);
    PgTransaction tx(*m_db);
    if (m_db->exec("SELECT 1 FROM cases WHERE id = $1", {pgInt(id)}).rows() == 0)
        throw StoreError(StoreError::Kind::NotFound, m_db->name() + ": no case " + std::to_string(id));
    m_db->exec("INSERT INTO labels (case_id, terminal_state, sub_domain, node, notes, labeled_by, labeled_at)"
               " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (case_id) DO UPDATE SET"
               " terminal_state = excluded.terminal_state, sub_domain = excluded.sub_domain,"
               " node = excluded.node, notes = excluded.notes, labeled_by = excluded.labeled_by,"
               " labeled_at = excluded.labeled_at",
               {pgInt(id), pgOptional(label.terminalState), pgOptional(label.subDomain), pgOptional(label.node),
                pgText(label.notes), pgText(label.labeledBy), pgTime(label.labeledAt)});
    tx.commit();
}

void PgCaseStore::removeLabel(std::int64_t id)
{
    m_db->exec("DELETE FROM labels WHERE case_id = $1", {pgInt(id)});
}

std::size_t PgCaseStore::caseCount()
{
    return static_cast<std::size_t>(m_db->exec("SELECT count(*) FROM cases").integer(0, 0));
}

std::optional<std::string> PgCaseStore::caseObservations(std::int64_t id)
{
    const auto r = m_db->exec(
        "SELECT o.body FROM cases c LEFT JOIN case_observations o ON o.case_id = c.id WHERE c.id = $1", {pgInt(id)});
    if (r.rows() == 0)
        return std::nullopt;
    return r.text(0, 0);
}

}  // namespace attrib::store
