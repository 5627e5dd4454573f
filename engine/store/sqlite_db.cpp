// SPDX-License-Identifier: GPL-3.0-or-later
// RAII over the SQLite C API; errors name the file and the operation.
#include "engine/store/sqlite_db.h"

#include <cctype>

#include <sqlite3.h>

namespace attrib::store {

namespace {

constexpr int BusyTimeoutMs = 10'000;

StoreError::Kind kindOf(int code)
{
    switch (code & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT: return StoreError::Kind::NotDatabase;
    case SQLITE_READONLY: return StoreError::Kind::ReadOnly;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return StoreError::Kind::Busy;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE: return StoreError::Kind::Invalid;
    default: return StoreError::Kind::Io;
    }
}

int openFlags(bool readOnly, bool create)
{
    int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
    if (create && !readOnly)
        flags |= SQLITE_OPEN_CREATE;
    return flags;
}

/// `file:` URI of a path: every byte outside the unreserved set percent-encoded (`?`, `#` and `%` would cut it).
std::string fileUri(const std::string& path)
{
    static constexpr char Hex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const char c : path) {
        const auto b = static_cast<unsigned char>(c);
        if (std::isalnum(b) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
            uri += c;
        else
            uri += {'%', Hex[b >> 4], Hex[b & 15]};
    }
    return uri;
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, bool readOnly, bool create)
    : SqliteDb(path, path, openFlags(readOnly, create))
{
}

std::unique_ptr<SqliteDb> SqliteDb::openImmutable(const std::string& path)
{
    return std::unique_ptr<SqliteDb>(
        new SqliteDb(path, fileUri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI));
}

SqliteDb::SqliteDb(const std::string& path, const std::string& uri, int flags)
    : m_path(path)
{
    const int rc = sqlite3_open_v2(uri.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError(kindOf(rc), path + ": cannot open the case store: " + message);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, BusyTimeoutMs);
}

SqliteDb::~SqliteDb()
{
    sqlite3_close(m_db);
}

bool SqliteDb::readOnly() const
{
    return sqlite3_db_readonly(m_db, "main") == 1;
}

void SqliteDb::fail(int code, std::string_view what) const
{
    std::string message = m_path + ": " + std::string(what) + ": " + sqlite3_errmsg(m_db);
    if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
        message += " (the file is damaged or not a case store; it was not changed)";
    throw StoreError(kindOf(code), message);
}

void SqliteDb::check(int code, std::string_view what) const
{
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW)
        fail(code, what);
}

void SqliteDb::exec(const std::string& sql)
{
    char* error = nullptr;
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error);
    sqlite3_free(error);
    check(rc, "cannot run \"" + sql.substr(0, 60) + "\"");
}

std::optional<std::string> SqliteDb::scalarText(const std::string& sql)
{
    Statement s(*this, sql);
    if (!s.step() || s.isNull(0))
        return std::nullopt;
    return s.text(0);
}

std::optional<std::int64_t> SqliteDb::scalarInt(const std::string& sql)
{
    Statement s(*this, sql);
    if (!s.step() || s.isNull(0))
        return std::nullopt;
    return s.integer(0);
}

Statement::Statement(SqliteDb& db, std::string_view sql)
    : m_db(db)
{
    const int rc = sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        db.fail(rc, "cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement& Statement::bind(int index, std::string_view text)
{
    m_db.check(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
               "cannot bind a value");
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value)
{
    m_db.check(sqlite3_bind_int64(m_stmt, index, value), "cannot bind a value");
    return *this;
}

Statement& Statement::bindNull(int index)
{
    m_db.check(sqlite3_bind_null(m_stmt, index), "cannot bind a value");
    return *this;
}

Statement& Statement::bindOptional(int index, std::string_view text)
{
    return text.empty() ? bindNull(index) : bind(index, text);
}

Statement& Statement::bindTime(int index, engine::TimeNs time)
{
    return time == engine::NoTime ? bindNull(index) : bind(index, static_cast<std::int64_t>(time));
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    m_db.fail(rc, "statement failed");
}

void Statement::run()
{
    while (step()) { }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::string Statement::text(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

std::int64_t Statement::integer(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

engine::TimeNs Statement::time(int column) const
{
    return isNull(column) ? engine::NoTime : static_cast<engine::TimeNs>(integer(column));
}

Transaction::Transaction(SqliteDb& db)
    : m_db(db)
{
    m_db.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction()
{
    if (m_open)
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit()
{
    m_db.exec("COMMIT");
    m_open = false;
}

}  // namespace attrib::store
