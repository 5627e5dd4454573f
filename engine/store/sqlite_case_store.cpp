// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing cases and labels; every write is one transaction.
#include "engine/store/sqlite_case_store.h"

#include "engine/store/sqlite_db.h"
#include "engine/verdict.h"

#include <algorithm>

namespace attrib::store {

namespace {

constexpr char SummaryColumns[] =
    "c.id, c.created_at, c.bundle_path, c.bundle_hash, c.workload_id, c.job_start, c.job_end, c.terminal_state, "
    "c.sub_domain, c.root_node, c.root_symptom, c.engine_version, c.catalog_version, c.catalog_hash, "
    "l.terminal_state, l.sub_domain, l.node, l.notes, l.labeled_by, l.labeled_at";
constexpr int SummaryColumnCount = 20;

CaseSummary readSummary(const Statement& s)
{
    CaseSummary c;
    c.id = s.integer(0);
    c.createdAt = s.time(1);
    c.bundlePath = s.text(2);
    c.bundleHash = s.text(3);
    c.workloadId = s.text(4);
    c.jobStart = s.time(5);
    c.jobEnd = s.time(6);
    c.terminalState = s.text(7);
    c.subDomain = s.text(8);
    c.rootNode = s.text(9);
    c.rootSymptom = s.text(10);
    c.engineVersion = s.text(11);
    c.catalogVersion = s.text(12);
    c.catalogHash = s.text(13);
    if (!s.isNull(19))
        c.label = CaseLabel{s.text(14), s.text(15), s.text(16), s.text(17), s.text(18), s.time(19)};
    return c;
}

bool inVocabulary(const std::vector<std::string>& words, const std::string& w)
{
    return w.empty() || std::find(words.begin(), words.end(), w) != words.end();
}

}  // namespace

std::string labelProblem(const CaseLabel& label)
{
    if (!inVocabulary(engine::TerminalStates, label.terminalState))
        return "terminal state \"" + label.terminalState + "\" is not one of the verdict's terminal states";
    if (!inVocabulary(engine::SubDomains, label.subDomain))
        return "sub-domain \"" + label.subDomain + "\" is not one of the verdict's sub-domains";
    if (label.labeledAt == engine::NoTime)
        return "a label needs the time it was set";
    return {};
}

SqliteCaseStore::SqliteCaseStore(std::unique_ptr<SqliteDb> db, bool readOnly, int version)
    : m_db(std::move(db))
    , m_readOnly(readOnly)
    , m_schemaVersion(version)
{
}

SqliteCaseStore::~SqliteCaseStore() = default;

const std::string& SqliteCaseStore::path() const
{
    return m_db->path();
}

void SqliteCaseStore::requireWritable(const char* what) const
{
    if (m_readOnly)
        throw StoreError(StoreError::Kind::ReadOnly,
                         m_db->path() + ": cannot " + what + ": the case store is open read-only");
}

std::int64_t SqliteCaseStore::addCase(const CaseRecord& r)
{
    requireWritable("save a case");
    Transaction tx(*m_db);
    Statement s(*m_db,
                "INSERT INTO cases (created_at, bundle_path, bundle_hash, workload_id, scheduler, attempt, job_start, "
                "job_end, terminal_state, sub_domain, root_node, root_symptom, context_json, verdict_json, "
                "coverage_json, trace_json, engine_version, catalog_version, catalog_hash) VALUES "
                "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19) RETURNING id");
    const CaseSummary& c = r.summary;
    s.bindTime(1, c.createdAt).bind(2, c.bundlePath).bind(3, c.bundleHash).bindOptional(4, c.workloadId);
    s.bind(5, r.scheduler).bind(6, std::int64_t{r.attempt}).bindTime(7, c.jobStart).bindTime(8, c.jobEnd);
    s.bind(9, c.terminalState).bind(10, c.subDomain).bindOptional(11, c.rootNode).bindOptional(12, c.rootSymptom);
    s.bind(13, r.contextJson).bind(14, r.verdictJson).bind(15, r.coverageJson).bind(16, r.traceJson);
    s.bind(17, c.engineVersion).bind(18, c.catalogVersion).bind(19, c.catalogHash);
    if (!s.step())
        throw StoreError(StoreError::Kind::Io, m_db->path() + ": the new case got no id");
    const std::int64_t id = s.integer(0);
    s.reset();
    writeSymptoms(id, r);
    writeEvidence(id, r);
    if (!r.observations.empty()) {
        Statement o(*m_db, "INSERT INTO case_observations (case_id, observation_count, body) VALUES (?1, ?2, ?3)");
        o.bind(1, id).bind(2, static_cast<std::int64_t>(r.observationCount)).bind(3, r.observations).run();
    }
    if (!r.eventsJson.empty()) {
        Statement e(*m_db, "INSERT INTO case_events (case_id, event_count, body) VALUES (?1, ?2, ?3)");
        e.bind(1, id).bind(2, static_cast<std::int64_t>(r.eventCount)).bind(3, r.eventsJson).run();
    }
    tx.commit();
    return id;
}

void SqliteCaseStore::writeSymptoms(std::int64_t id, const CaseRecord& r)
{
    Statement s(*m_db,
                "INSERT INTO case_symptoms (case_id, symptom_id, name, domain, node, gpu, status, status_rule, "
                "status_reason, first_seen, last_seen, count, interesting) VALUES "
                "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    for (const auto& y : r.symptoms) {
        s.bind(1, id).bind(2, y.symptomId).bind(3, y.name).bind(4, y.domain).bindOptional(5, y.node);
        if (y.gpu >= 0)
            s.bind(6, std::int64_t{y.gpu});
        s.bind(7, y.status).bindOptional(8, y.statusRule).bindOptional(9, y.statusReason);
        s.bindTime(10, y.firstSeen).bindTime(11, y.lastSeen).bind(12, std::int64_t{y.count});
        s.bind(13, std::int64_t{y.interesting});
        s.run();
    }
}

void SqliteCaseStore::writeEvidence(std::int64_t id, const CaseRecord& r)
{
    Statement s(*m_db,
                "INSERT INTO case_evidence (case_id, observation_id, file, line, byte_offset, byte_length, node, "
                "time, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (const auto& e : r.evidence) {
        s.bind(1, id).bind(2, static_cast<std::int64_t>(e.observationId)).bind(3, e.file);
        s.bind(4, static_cast<std::int64_t>(e.line)).bind(5, static_cast<std::int64_t>(e.offset));
        s.bind(6, static_cast<std::int64_t>(e.length)).bindOptional(7, e.node).bindTime(8, e.time).bind(9, e.text);
        s.run();
    }
}

std::optional<CaseRecord> SqliteCaseStore::getCase(std::int64_t id)
{
    Statement s(*m_db,
                std::string("SELECT ") + SummaryColumns +
                    ", c.scheduler, c.attempt, c.context_json, c.verdict_json, c.coverage_json, c.trace_json "
                    "FROM cases c LEFT JOIN labels l ON l.case_id = c.id WHERE c.id = ?1");
    s.bind(1, id);
    if (!s.step())
        return std::nullopt;
    CaseRecord r;
    r.summary = readSummary(s);
    const int k = SummaryColumnCount;
    r.scheduler = s.text(k);
    r.attempt = static_cast<int>(s.integer(k + 1));
    r.contextJson = s.text(k + 2);
    r.verdictJson = s.text(k + 3);
    r.coverageJson = s.text(k + 4);
    r.traceJson = s.text(k + 5);
    readDetails(r);
    return r;
}

void SqliteCaseStore::readDetails(CaseRecord& r)
{
    Statement y(*m_db,
                "SELECT symptom_id, name, domain, node, gpu, status, status_rule, status_reason, first_seen, "
                "last_seen, count, interesting FROM case_symptoms WHERE case_id = ?1 ORDER BY symptom_id");
    y.bind(1, r.summary.id);
    while (y.step()) {
        r.symptoms.push_back({y.text(0), y.text(1), y.text(2), y.text(3), y.isNull(4) ? -1 : int(y.integer(4)),
                              y.text(5), y.text(6), y.text(7), y.time(8), y.time(9),
                              static_cast<std::uint32_t>(y.integer(10)), y.integer(11) != 0});
    }
    Statement e(*m_db,
                "SELECT observation_id, file, line, byte_offset, byte_length, node, time, text "
                "FROM case_evidence WHERE case_id = ?1 ORDER BY observation_id");
    e.bind(1, r.summary.id);
    while (e.step()) {
        r.evidence.push_back({static_cast<std::uint64_t>(e.integer(0)), e.text(1),
                              static_cast<std::uint64_t>(e.integer(2)), static_cast<std::uint64_t>(e.integer(3)),
                              static_cast<std::uint64_t>(e.integer(4)), e.text(5), e.time(6), e.text(7)});
    }
    Statement v(*m_db, "SELECT event_count, body FROM case_events WHERE case_id = ?1");
    if (v.bind(1, r.summary.id).step()) {
        r.eventCount = static_cast<std::size_t>(v.integer(0));
        r.eventsJson = v.text(1);
    }
}

std::vector<CaseSummary> SqliteCaseStore::listCases(const CaseFilter& f)
{
    std::string sql = std::string("SELECT ") + SummaryColumns +
        " FROM cases c LEFT JOIN labels l ON l.case_id = c.id WHERE"
        " (?1 IS NULL OR c.terminal_state = ?1) AND (?2 IS NULL OR c.sub_domain = ?2)"
        " AND (?3 IS NULL OR c.root_node = ?3) AND (?4 IS NULL OR c.created_at >= ?4)"
        " AND (?5 IS NULL OR c.id < ?5) AND (?6 = 0 OR l.case_id IS NOT NULL)"
        " ORDER BY c.id DESC LIMIT ?7";
    Statement s(*m_db, sql);
    s.bindOptional(1, f.terminalState).bindOptional(2, f.subDomain).bindOptional(3, f.node);
    s.bindTime(4, f.since);
    if (f.beforeId > 0)
        s.bind(5, f.beforeId);
    s.bind(6, std::int64_t{f.labeledOnly});
    s.bind(7, f.limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(f.limit));
    std::vector<CaseSummary> out;
    while (s.step())
        out.push_back(readSummary(s));
    return out;
}

void SqliteCaseStore::setLabel(std::int64_t id, const CaseLabel& label)
{
    requireWritable("save a label");
    if (const std::string problem = labelProblem(label); !problem.empty())
        throw StoreError(StoreError::Kind::Invalid, m_db->path() + ": case " + std::to_string(id) + ": " + problem);
    Transaction tx(*m_db);
    Statement exists(*m_db, "SELECT 1 FROM cases WHERE id = ?1");
    if (!exists.bind(1, id).step())
        throw StoreError(StoreError::Kind::NotFound, m_db->path() + ": no case " + std::to_string(id));
    Statement s(*m_db,
                "INSERT INTO labels (case_id, terminal_state, sub_domain, node, notes, labeled_by, labeled_at)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (case_id) DO UPDATE SET"
                " terminal_state = excluded.terminal_state, sub_domain = excluded.sub_domain,"
                " node = excluded.node, notes = excluded.notes, labeled_by = excluded.labeled_by,"
                " labeled_at = excluded.labeled_at");
    s.bind(1, id).bindOptional(2, label.terminalState).bindOptional(3, label.subDomain).bindOptional(4, label.node);
    s.bind(5, label.notes).bind(6, label.labeledBy).bindTime(7, label.labeledAt);
    s.run();
    tx.commit();
}

void SqliteCaseStore::removeLabel(std::int64_t id)
{
    requireWritable("remove a label");
    Transaction tx(*m_db);
    Statement(*m_db, "DELETE FROM labels WHERE case_id = ?1").bind(1, id).run();
    tx.commit();
}

std::size_t SqliteCaseStore::caseCount()
{
    return static_cast<std::size_t>(m_db->scalarInt("SELECT count(*) FROM cases").value_or(0));
}

std::optional<std::string> SqliteCaseStore::caseObservations(std::int64_t id)
{
    Statement s(*m_db, "SELECT o.body FROM cases c LEFT JOIN case_observations o ON o.case_id = c.id WHERE c.id = ?1");
    if (!s.bind(1, id).step())
        return std::nullopt;
    return s.isNull(0) ? std::string() : s.text(0);
}

std::string SqliteCaseStore::integrityCheck()
{
    Statement s(*m_db, "PRAGMA integrity_check");
    std::string out;
    while (s.step())
        out += (out.empty() ? "" : "\n") + s.text(0);
    return out;
}

}  // namespace attrib::store
