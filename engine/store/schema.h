// SPDX-License-Identifier: GPL-3.0-or-later
// The case-store schema as forward migration steps (docs/store.md). The same steps serve SQLite and
// PostgreSQL; only the auto-increment key is spelled per dialect.
#pragma once

#include <string>
#include <vector>

namespace attrib::store {

/// The schema this build writes. A store with a higher version is refused (never downgraded).
inline constexpr int CurrentSchemaVersion = 4;
/// SQLite `PRAGMA application_id` of a case store ("AWCS"), so foreign databases are told apart.
inline constexpr int StoreApplicationId = 0x41574353;

enum class SqlDialect { Sqlite, Postgres };

/// Statements that take a store from version - 1 to version. Version 1 creates the store.
struct SchemaStep {
    int version = 0;
    std::string what;
    std::vector<std::string> statements;
};

/// All steps in order (version 1, 2, ...). Apply those above the store's version, in one transaction.
std::vector<SchemaStep> schemaSteps(SqlDialect dialect);

}  // namespace attrib::store
