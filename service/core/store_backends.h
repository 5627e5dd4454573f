// SPDX-License-Identifier: GPL-3.0-or-later
// Store backends that are optional at build time.
#pragma once

#include "engine/store/case_store.h"

#include <memory>
#include <string>

namespace attrib::service {

/// A PostgreSQL case store (engine/store_pg); throws store::StoreError when this build has no libpq.
std::unique_ptr<store::CaseStore> openPostgresStore(const std::string& spec);

}  // namespace attrib::service
