// SPDX-License-Identifier: GPL-3.0-or-later
// A file's context facts stated again (importers/context_facts.h).
#include "importers/context_facts.h"

#include <functional>
#include <string_view>

namespace attrib::importers::detail {

namespace {

std::size_t mix(std::size_t seed, std::size_t value)
{
    return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

std::size_t factHash(const engine::Event& e)
{
    const std::hash<std::string_view> text;
    std::size_t h = text(e.rule.str());
    h = mix(h, text(e.type.str()));
    h = mix(h, text(e.node.str()));
    h = mix(h, text(e.link.str()));
    h = mix(h, static_cast<std::size_t>(e.time));
    h = mix(h, static_cast<std::size_t>(e.gpu) * 31 + static_cast<std::size_t>(e.rank));
    for (const auto& [k, v] : e.attrs)
        h = mix(mix(h, text(k)), text(v));
    return h;
}

bool sameFact(const engine::Event& a, const engine::Event& b)
{
    return a.rule == b.rule && a.type == b.type && a.symptom == b.symptom && a.node == b.node && a.link == b.link &&
        a.time == b.time && a.timeSource == b.timeSource && a.gpu == b.gpu && a.rank == b.rank &&
        a.sympathetic == b.sympathetic && a.attrs == b.attrs;
}

}  // namespace

std::size_t ContextFacts::sameAs(const engine::Event& e, const std::vector<engine::Event>& events)
{
    const std::size_t h = factHash(e);
    const auto [first, last] = m_byHash.equal_range(h);
    for (auto it = first; it != last; ++it)
        if (it->second < events.size() && sameFact(events[it->second], e))
            return it->second;
    if (m_byHash.size() < MaxFacts)
        m_byHash.emplace(h, events.size());
    return None;
}

}  // namespace attrib::importers::detail
