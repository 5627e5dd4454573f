// SPDX-License-Identifier: GPL-3.0-or-later
// Which optional store backends this build has.
#include "service/core/store_backends.h"

#ifdef ATTRIB_HAVE_POSTGRES
#include "engine/store_pg/pg_case_store.h"
#endif

namespace attrib::service {

std::unique_ptr<store::CaseStore> openPostgresStore(const std::string& spec)
{
#ifdef ATTRIB_HAVE_POSTGRES
    return store::PgCaseStore::open(spec);
#else
    (void)spec;
    throw store::StoreError(store::StoreError::Kind::Io,
                            "PostgreSQL store: this attrib was built without libpq (install libpq-dev and rebuild)");
#endif
}

}  // namespace attrib::service
