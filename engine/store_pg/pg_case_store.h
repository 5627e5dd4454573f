// SPDX-License-Identifier: GPL-3.0-or-later
// The case store on PostgreSQL (libpq), for Service replicas that share one database: the same schema steps as
// the SQLite store (engine/store/schema.h, Postgres dialect), applied once under an advisory lock so replicas
// starting together migrate exactly once. Every write is one transaction.
#pragma once

#include "engine/store/case_store.h"

#include <memory>
#include <string>

namespace attrib::store {

class PgConnection;

class PgCaseStore : public CaseStore {
public:
    /// Connects (a postgresql:// URL or a libpq "key=value" string), creates or migrates the schema. Throws
    /// StoreError naming the database (never the password) when it cannot connect, the database holds another
    /// application's store_meta, or its schema is newer than this build's.
    static std::unique_ptr<PgCaseStore> open(const std::string& conninfo);
    ~PgCaseStore() override;

    std::int64_t addCase(const CaseRecord& record) override;
    std::optional<CaseRecord> getCase(std::int64_t id) override;
    std::vector<CaseSummary> listCases(const CaseFilter& filter = {}) override;
    void setLabel(std::int64_t id, const CaseLabel& label) override;
    void removeLabel(std::int64_t id) override;
    std::size_t caseCount() override;
    std::optional<std::string> caseObservations(std::int64_t id) override;

    int schemaVersion() const { return m_version; }
    /// "user@host:port/db" for messages.
    const std::string& name() const;

private:
    explicit PgCaseStore(std::unique_ptr<PgConnection> connection);
    void migrate();
    void readDetails(CaseRecord& record);

    std::unique_ptr<PgConnection> m_db;
    int m_version = 0;
};

/// The advisory lock key the migration holds ("AWCS").
inline constexpr long long PgMigrationLock = 0x41574353;

}  // namespace attrib::store
