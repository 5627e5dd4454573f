// SPDX-License-Identifier: GPL-3.0-or-later
// A thin RAII layer over the SQLite C API: one connection, prepared statements, transactions. Every failure
// becomes a StoreError that names the database file.
#pragma once

#include "engine/model.h"
#include "engine/store/store_error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace attrib::store {

/// One SQLite connection. Not shared between threads: each thread opens its own.
class SqliteDb {
public:
    /// Opens `path` (creating it when `create`); throws StoreError naming the file.
    SqliteDb(const std::string& path, bool readOnly, bool create);
    /// Opens `path` read-only as an immutable file (SQLite's `immutable=1`: no locks, no `-shm`). For a WAL store
    /// in a folder the reader cannot write, where SQLite cannot create the shared-memory file a normal read needs.
    static std::unique_ptr<SqliteDb> openImmutable(const std::string& path);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }
    bool readOnly() const;

    /// Runs one or more statements without results.
    void exec(const std::string& sql);
    /// The first column of the first row of `sql` as text (nullopt when no row or NULL).
    std::optional<std::string> scalarText(const std::string& sql);
    std::optional<std::int64_t> scalarInt(const std::string& sql);

    /// Throws StoreError "FILE: what: sqlite message" for a non-OK code.
    [[noreturn]] void fail(int code, std::string_view what) const;
    void check(int code, std::string_view what) const;

private:
    SqliteDb(const std::string& path, const std::string& uri, int flags);

    sqlite3* m_db = nullptr;
    std::string m_path;
};

/// A prepared statement; bind by 1-based index, step, read columns by 0-based index.
class Statement {
public:
    Statement(SqliteDb& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, std::int64_t value);
    Statement& bindNull(int index);
    /// Binds NULL for an empty string, else the text.
    Statement& bindOptional(int index, std::string_view text);
    /// Binds NULL for engine::NoTime, else the nanoseconds.
    Statement& bindTime(int index, engine::TimeNs time);

    /// true while a row is available; false when done.
    bool step();
    /// Steps a statement that returns no rows and resets it for the next binding.
    void run();
    void reset();

    std::string text(int column) const;
    std::int64_t integer(int column) const;
    bool isNull(int column) const;
    engine::TimeNs time(int column) const;

private:
    SqliteDb& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

/// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed without commit() (an exception left the scope).
class Transaction {
public:
    explicit Transaction(SqliteDb& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    SqliteDb& m_db;
    bool m_open = true;
};

}  // namespace attrib::store
