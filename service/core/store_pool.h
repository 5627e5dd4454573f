// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's case store: a file path (SQLite) or a postgresql:// URL, with one connection per concurrent
// user (a store connection is not shared between threads). Connections are opened on demand and reused.
#pragma once

#include "engine/store/case_store.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attrib::service {

/// True for "postgresql://..." and "postgres://..." (and libpq "host=... dbname=..." strings).
bool isPostgresSpec(const std::string& spec);

/// Opens one connection to the store named by `spec`; throws store::StoreError naming it.
std::unique_ptr<store::CaseStore> openCaseStore(const std::string& spec);

class StorePool {
public:
    /// Opens (and creates or migrates) the store once, so a bad spec fails at startup.
    explicit StorePool(std::string spec);
    const std::string& spec() const { return m_spec; }

    /// Runs `work` with a connection of its own; a connection that threw is dropped, not reused.
    template <typename F> auto with(F&& work) -> decltype(work(std::declval<store::CaseStore&>()))
    {
        std::unique_ptr<store::CaseStore> c = take();  // an exception drops it with `c`
        if constexpr (std::is_void_v<decltype(work(*c))>) {
            work(*c);
            give(std::move(c));
        } else {
            auto value = work(*c);
            give(std::move(c));
            return value;
        }
    }

private:
    std::unique_ptr<store::CaseStore> take();
    void give(std::unique_ptr<store::CaseStore> c);

    std::string m_spec;
    std::mutex m_mutex;
    std::vector<std::unique_ptr<store::CaseStore>> m_idle;
};

}  // namespace attrib::service
