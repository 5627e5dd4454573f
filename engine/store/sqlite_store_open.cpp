// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a store safely: header checks before SQLite touches the file, application id and schema version
// checks before anything is written, forward migrations in one transaction.
#include "engine/store/schema.h"
#include "engine/store/sqlite_case_store.h"
#include "engine/store/sqlite_db.h"

#include "engine/number.h"

#include <filesystem>
#include <fstream>
#include <limits>

namespace fs = std::filesystem;

namespace attrib::store {

namespace {

constexpr char StoreApplicationName[] = "attribution-workbench-case-store";

std::uint32_t bigEndian32(const unsigned char* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

/// Refuses files SQLite would reject later (or read as garbage): not SQLite, or shorter than the header says.
/// An empty file is accepted (it becomes a new store in read-write mode).
void checkHeader(const std::string& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw StoreError(StoreError::Kind::Io, path + ": cannot read the case store: " + ec.message());
    if (size == 0)
        return;
    unsigned char header[100] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(header), sizeof header);
    if (!in)
        throw StoreError(StoreError::Kind::NotDatabase,
                         path + ": not a case store: the file is " + std::to_string(size) +
                             " bytes, shorter than an SQLite header (truncated?)");
    if (std::string_view(reinterpret_cast<const char*>(header), 16) != std::string_view("SQLite format 3\0", 16))
        throw StoreError(StoreError::Kind::NotDatabase, path + ": not a case store: it is not an SQLite database");
    std::uint64_t pageSize = (std::uint32_t(header[16]) << 8) | header[17];
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint32_t pages = bigEndian32(header + 28);
    const bool pagesValid = bigEndian32(header + 24) == bigEndian32(header + 92);
    // A WAL checkpoint copies pages in page order, page 1 (with the new page count) first, and extends the file
    // as it goes: a writer killed inside it leaves a short file whose missing pages are still in the -wal file,
    // which SQLite replays on open. Only a short file without a WAL to complete it is truncated.
    std::error_code walEc;
    const bool walCompletes = fs::file_size(path + "-wal", walEc) > 0 && !walEc;
    if (pagesValid && pages > 0 && size < pageSize * pages && !walCompletes)
        throw StoreError(StoreError::Kind::NotDatabase,
                         path + ": the case store is truncated: its header counts " + std::to_string(pages) +
                             " pages of " + std::to_string(pageSize) + " bytes but the file has " +
                             std::to_string(size) + " bytes; it was not changed");
}

int parseVersion(const std::string& path, const std::string& text)
{
    const auto v = engine::parseIntegerIn<int>(text, 1, std::numeric_limits<int>::max());
    if (!v)
        throw StoreError(StoreError::Kind::NotDatabase,
                         path + ": store_meta.schema_version is \"" + text + "\", not a version number");
    return *v;
}

std::string tableList(SqliteDb& db)
{
    Statement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 6");
    std::string out;
    for (int n = 0; s.step(); ++n)
        out += (n ? ", " : "") + (n == 5 ? std::string("...") : s.text(0));
    return out;
}

/// 0 for an empty database; the store's schema version; throws for another application's database.
int detectVersion(SqliteDb& db)
{
    const auto appId = db.scalarInt("PRAGMA application_id").value_or(0);
    const auto tables = db.scalarInt("SELECT count(*) FROM sqlite_master").value_or(0);
    if (appId != StoreApplicationId) {
        if (tables == 0 && appId == 0)
            return 0;
        throw StoreError(StoreError::Kind::Foreign,
                         db.path() + ": an SQLite database of another application, not a case store (tables: " +
                             tableList(db) + "); it was not changed");
    }
    const auto name = db.scalarText("SELECT value FROM store_meta WHERE key = 'application'");
    const auto version = db.scalarText("SELECT value FROM store_meta WHERE key = 'schema_version'");
    if (name != StoreApplicationName || !version)
        throw StoreError(StoreError::Kind::NotDatabase,
                         db.path() + ": a damaged case store: store_meta lacks the application or schema_version");
    return parseVersion(db.path(), *version);
}

void refuseNewer(const SqliteDb& db, int version)
{
    if (version > CurrentSchemaVersion)
        throw StoreError(StoreError::Kind::NewerSchema,
                         db.path() + ": the case store has schema version " + std::to_string(version) +
                             ", written by a newer attrib; this build reads up to version " +
                             std::to_string(CurrentSchemaVersion) + ". It was not changed.");
}

/// The schema version of a store opened read-only. A WAL store in a folder this reader cannot write cannot be read
/// the normal way (SQLite cannot create its `-shm` file): it is then read as an immutable file, which is exact as
/// long as no write-ahead log holds changes not yet in the file (a writer that is still open, or was killed).
int readableVersion(std::unique_ptr<SqliteDb>& db, const std::string& path)
{
    try {
        return detectVersion(*db);
    } catch (const StoreError& e) {
        if (e.kind() != StoreError::Kind::ReadOnly)
            throw;
        std::error_code ec;
        const std::string wal = path + "-wal";
        if (fs::exists(wal, ec) && fs::file_size(wal, ec) > 0 && !ec)
            throw StoreError(StoreError::Kind::ReadOnly,
                             path + ": cannot read the case store: its write-ahead log " + wal +
                                 " holds changes not yet in the file, and this folder cannot be written (" + e.what() +
                                 ")");
        db = SqliteDb::openImmutable(path);
        return detectVersion(*db);
    }
}

}  // namespace

int migrateSchema(SqliteDb& db, int target)
{
    Transaction tx(db);
    const int from = detectVersion(db);  // again, under the write lock: another process may have migrated
    refuseNewer(db, from);
    if (from >= target)
        return from;
    for (const auto& step : schemaSteps(SqlDialect::Sqlite)) {
        if (step.version <= from || step.version > target)
            continue;
        for (const auto& sql : step.statements)
            db.exec(sql);
    }
    if (from == 0) {
        db.exec("PRAGMA application_id = " + std::to_string(StoreApplicationId));
        Statement(db, "INSERT INTO store_meta (key, value) VALUES ('application', ?1)")
            .bind(1, std::string_view(StoreApplicationName))
            .run();
    }
    Statement(db,
              "INSERT INTO store_meta (key, value) VALUES ('schema_version', ?1) "
              "ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        .bind(1, std::to_string(target))
        .run();
    tx.commit();
    return target;
}

std::unique_ptr<SqliteCaseStore> SqliteCaseStore::open(const std::string& path, OpenMode mode)
{
    const bool readOnly = mode == OpenMode::ReadOnly;
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (!exists && readOnly)
        throw StoreError(StoreError::Kind::Io, path + ": no such case store");
    if (exists && fs::is_directory(path, ec))
        throw StoreError(StoreError::Kind::Io, path + ": is a folder, not a case store file");
    if (exists)
        checkHeader(path);
    auto db = std::make_unique<SqliteDb>(path, readOnly, !readOnly);
    if (!readOnly && db->readOnly())
        throw StoreError(StoreError::Kind::ReadOnly,
                         path +
                             ": the case store is read-only (file permissions or a read-only file system); "
                             "open it read-only to view its cases");
    int version = readOnly ? readableVersion(db, path) : detectVersion(*db);
    db->exec("PRAGMA foreign_keys = ON");
    refuseNewer(*db, version);
    if (readOnly) {
        if (version == 0)
            throw StoreError(StoreError::Kind::Foreign, path + ": an empty database, not a case store");
        if (version < CurrentSchemaVersion)
            throw StoreError(StoreError::Kind::ReadOnly,
                             path + ": the case store has schema version " + std::to_string(version) +
                                 "; open it read-write once to migrate it to version " +
                                 std::to_string(CurrentSchemaVersion));
    } else {
        db->exec("PRAGMA journal_mode = WAL");
        db->exec("PRAGMA synchronous = FULL");
        if (version < CurrentSchemaVersion)
            version = migrateSchema(*db, CurrentSchemaVersion);
    }
    return std::unique_ptr<SqliteCaseStore>(new SqliteCaseStore(std::move(db), readOnly, version));
}

}  // namespace attrib::store
