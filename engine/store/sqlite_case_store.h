// SPDX-License-Identifier: GPL-3.0-or-later
// The SQLite case store: one file, WAL mode, foreign keys on, every write in one transaction.
#pragma once

#include "engine/store/case_store.h"

#include <memory>
#include <string>

namespace attrib::store {

class SqliteDb;

enum class OpenMode {
    ReadWrite,  ///< creates the file when missing; migrates an older schema forward
    ReadOnly    ///< never writes; refuses a store that would need migrating
};

/// One connection to a store file. Use one object per thread; several processes may share the file.
class SqliteCaseStore : public CaseStore {
public:
    /// Opens or creates the store. Throws StoreError naming the file when it is not a usable case store:
    /// not SQLite, corrupt or truncated, another application's database, a newer schema, or read-only
    /// when ReadWrite was asked. Never overwrites such a file.
    static std::unique_ptr<SqliteCaseStore> open(const std::string& path, OpenMode mode = OpenMode::ReadWrite);
    ~SqliteCaseStore() override;

    std::int64_t addCase(const CaseRecord& record) override;
    std::optional<CaseRecord> getCase(std::int64_t id) override;
    std::vector<CaseSummary> listCases(const CaseFilter& filter = {}) override;
    void setLabel(std::int64_t id, const CaseLabel& label) override;
    void removeLabel(std::int64_t id) override;
    std::size_t caseCount() override;
    std::optional<std::string> caseObservations(std::int64_t id) override;

    const std::string& path() const;
    bool readOnly() const { return m_readOnly; }
    int schemaVersion() const { return m_schemaVersion; }
    /// `PRAGMA integrity_check`: "ok" or the problems found.
    std::string integrityCheck();
    /// The connection, for the search index that lives in the same file.
    SqliteDb& db() { return *m_db; }

private:
    SqliteCaseStore(std::unique_ptr<SqliteDb> db, bool readOnly, int version);
    void requireWritable(const char* what) const;
    void writeSymptoms(std::int64_t id, const CaseRecord& record);
    void writeEvidence(std::int64_t id, const CaseRecord& record);
    void readDetails(CaseRecord& record);

    std::unique_ptr<SqliteDb> m_db;
    bool m_readOnly = false;
    int m_schemaVersion = 0;
};

/// Creates or migrates the schema of an open read-write connection up to `target` (tests build old stores
/// with a lower target) in one transaction; returns the version reached. Throws StoreError on failure (the
/// file is unchanged then), including for a foreign database or a newer schema.
int migrateSchema(SqliteDb& db, int target);

}  // namespace attrib::store
