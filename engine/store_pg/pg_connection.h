// SPDX-License-Identifier: GPL-3.0-or-later
// A thin RAII layer over libpq: one connection, parameterised statements (text parameters, NULL as nullopt),
// results read by row and column. Every failure becomes a StoreError naming the database.
#pragma once

#include "engine/model.h"
#include "engine/store/store_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct pg_conn;
struct pg_result;

namespace attrib::store {

using PgParam = std::optional<std::string>;

class PgResult {
public:
    explicit PgResult(pg_result* r)
        : m_r(r)
    {
    }
    ~PgResult();
    PgResult(PgResult&& o) noexcept
        : m_r(o.m_r)
    {
        o.m_r = nullptr;
    }
    PgResult(const PgResult&) = delete;
    PgResult& operator=(const PgResult&) = delete;

    pg_result* raw() const { return m_r; }
    int rows() const;
    bool isNull(int row, int column) const;
    std::string text(int row, int column) const;  ///< "" for NULL
    std::int64_t integer(int row, int column) const;
    engine::TimeNs time(int row, int column) const;  ///< NoTime for NULL

private:
    pg_result* m_r = nullptr;
};

class PgConnection {
public:
    explicit PgConnection(const std::string& conninfo);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    /// Runs one statement ($1, $2, ... parameters); throws StoreError on failure.
    PgResult exec(const std::string& sql, const std::vector<PgParam>& params = {});
    const std::string& name() const { return m_name; }

private:
    pg_conn* m_conn = nullptr;
    std::string m_name;
};

/// Parameter helpers: NULL for empty text / NoTime.
PgParam pgText(const std::string& s);
PgParam pgOptional(const std::string& s);
PgParam pgInt(std::int64_t v);
PgParam pgTime(engine::TimeNs t);

/// BEGIN ... COMMIT; ROLLBACK when destroyed without commit().
class PgTransaction {
public:
    explicit PgTransaction(PgConnection& c);
    ~PgTransaction();
    void commit();

private:
    PgConnection& m_c;
    bool m_done = false;
};

}  // namespace attrib::store
