// SPDX-License-Identifier: GPL-3.0-or-later
// Folding repeated matched lines: the signature table of one file.
#include "importers/line_folds.h"

namespace attrib::importers::detail {

LineFolds::Slot* LineFolds::find(std::string signature)
{
    if (const auto it = m_slots.find(signature); it != m_slots.end())
        return &it->second;
    if (m_slots.size() >= MaxSignatures)
        return nullptr;
    return &m_slots.emplace(std::move(signature), Slot{}).first->second;
}

namespace {

/// Appends a length-prefixed field, so that no two different field lists give the same signature.
void field(std::string& out, std::string_view value)
{
    out += std::to_string(value.size());
    out += ':';
    out += value;
}

}  // namespace

std::string lineSignature(const engine::Observation& obs, const std::vector<engine::LineMatch>& matches)
{
    std::string s;
    s.reserve(128);
    field(s,
          std::to_string(static_cast<int>(obs.kind)) + "," + std::to_string(static_cast<int>(obs.timeSource)) + "," +
              std::to_string(obs.rank) + "," + std::to_string(obs.gpu));
    field(s, obs.node);
    for (const auto& [k, v] : obs.sample->labels) {
        field(s, k);
        field(s, v);
    }
    for (const auto& m : matches) {
        s += '|';
        field(s, m.rule->id);
        for (const auto& [k, v] : m.captures) {
            field(s, k);
            field(s, v);
        }
    }
    return s;
}

}  // namespace attrib::importers::detail
