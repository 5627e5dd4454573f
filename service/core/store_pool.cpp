// SPDX-License-Identifier: GPL-3.0-or-later
// Opening the Service's store by spec and pooling its connections.
#include "service/core/store_pool.h"

#include "engine/store/sqlite_case_store.h"
#include "service/core/store_backends.h"

namespace attrib::service {

bool isPostgresSpec(const std::string& spec)
{
    return spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0 ||
        spec.find("dbname=") != std::string::npos;
}

std::unique_ptr<store::CaseStore> openCaseStore(const std::string& spec)
{
    if (isPostgresSpec(spec))
        return openPostgresStore(spec);
    return store::SqliteCaseStore::open(spec, store::OpenMode::ReadWrite);
}

StorePool::StorePool(std::string spec)
    : m_spec(std::move(spec))
{
    give(openCaseStore(m_spec));
}

std::unique_ptr<store::CaseStore> StorePool::take()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_idle.empty()) {
            auto c = std::move(m_idle.back());
            m_idle.pop_back();
            return c;
        }
    }
    return openCaseStore(m_spec);
}

void StorePool::give(std::unique_ptr<store::CaseStore> c)
{
    std::lock_guard lock(m_mutex);
    m_idle.push_back(std::move(c));
}

}  // namespace attrib::service
