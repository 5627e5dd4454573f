// SPDX-License-Identifier: GPL-3.0-or-later
// The process-wide pool behind Name: a set of strings whose nodes never move, under a reader-writer lock.
#include "engine/name.h"

#include <mutex>
#include <ostream>
#include <shared_mutex>
#include <unordered_set>

namespace attrib::engine {

namespace {

struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>()(text); }
};

struct Pool {
    std::shared_mutex mutex;
    std::unordered_set<std::string, Hash, std::equal_to<>> names;
    const std::string* empty = &*names.emplace().first;
};

Pool& pool()
{
    static Pool* instance = new Pool;  // never destroyed: names may be read by other statics' destructors
    return *instance;
}

}  // namespace

Name::Name() noexcept
    : m_text(pool().empty)
{
}

Name::Name(std::string_view text)
{
    Pool& p = pool();
    if (text.empty()) {
        m_text = p.empty;
        return;
    }
    {
        std::shared_lock lock(p.mutex);
        if (auto it = p.names.find(text); it != p.names.end()) {
            m_text = &*it;
            return;
        }
    }
    std::unique_lock lock(p.mutex);
    m_text = &*p.names.emplace(text).first;
}

void Name::clear() noexcept
{
    m_text = pool().empty;
}

std::ostream& operator<<(std::ostream& out, const Name& name)
{
    return out << *name.m_text;
}

}  // namespace attrib::engine
