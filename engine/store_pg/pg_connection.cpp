// SPDX-License-Identifier: GPL-3.0-or-later
// libpq wrapper for the PostgreSQL case store.
#include "engine/store_pg/pg_connection.h"

#include "engine/number.h"

#include <libpq-fe.h>

namespace attrib::store {

PgResult::~PgResult()
{
    if (m_r)
        PQclear(m_r);
}

int PgResult::rows() const
{
    return PQntuples(m_r);
}

bool PgResult::isNull(int row, int column) const
{
    return PQgetisnull(m_r, row, column) != 0;
}

std::string PgResult::text(int row, int column) const
{
    return isNull(row, column) ? std::string() : std::string(PQgetvalue(m_r, row, column));
}

std::int64_t PgResult::integer(int row, int column) const
{
    return engine::parseInteger<std::int64_t>(text(row, column)).value_or(0);
}

engine::TimeNs PgResult::time(int row, int column) const
{
    return isNull(row, column) ? engine::NoTime : integer(row, column);
}

PgConnection::PgConnection(const std::string& conninfo)
{
    m_conn = PQconnectdb(conninfo.c_str());
    if (!m_conn)
        throw StoreError(StoreError::Kind::Io, "postgresql: out of memory connecting");
    const char* user = PQuser(m_conn);
    const char* host = PQhost(m_conn);
    const char* port = PQport(m_conn);
    const char* db = PQdb(m_conn);
    m_name = std::string("postgresql ") + (user ? user : "?") + "@" + (host ? host : "?") + ":" + (port ? port : "?") +
        "/" + (db ? db : "?");
    if (PQstatus(m_conn) != CONNECTION_OK) {
        const std::string message = PQerrorMessage(m_conn);
        PQfinish(m_conn);
        m_conn = nullptr;
        throw StoreError(StoreError::Kind::Io, m_name + ": cannot connect: " + message.substr(0, message.find('\n')));
    }
    exec("SET client_min_messages = warning");
}

PgConnection::~PgConnection()
{
    if (m_conn)
        PQfinish(m_conn);
}

PgResult PgConnection::exec(const std::string& sql, const std::vector<PgParam>& params)
{
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& p : params)
        values.push_back(p ? p->c_str() : nullptr);
    PgResult r(PQexecParams(m_conn, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                            nullptr, 0));
    const auto status = PQresultStatus(r.raw());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        const std::string message = PQerrorMessage(m_conn);
        const auto kind = PQstatus(m_conn) == CONNECTION_OK ? StoreError::Kind::Invalid : StoreError::Kind::Io;
        throw StoreError(kind, m_name + ": " + message.substr(0, message.find('\n')));
    }
    return r;
}

PgParam pgText(const std::string& s)
{
    return s;
}

PgParam pgOptional(const std::string& s)
{
    return s.empty() ? PgParam() : PgParam(s);
}

PgParam pgInt(std::int64_t v)
{
    return std::to_string(v);
}

PgParam pgTime(engine::TimeNs t)
{
    return t == engine::NoTime ? PgParam() : PgParam(std::to_string(t));
}

PgTransaction::PgTransaction(PgConnection& c)
    : m_c(c)
{
    m_c.exec("BEGIN");
}

PgTransaction::~PgTransaction()
{
    if (!m_done) {
        try {
            m_c.exec("ROLLBACK");
        } catch (const StoreError&) {  // the connection is gone: nothing was committed
        }
    }
}

void PgTransaction::commit()
{
    m_c.exec("COMMIT");
    m_done = true;
}

}  // namespace attrib::store
