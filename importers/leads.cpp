// SPDX-License-Identifier: GPL-3.0-or-later
// Error-level line detection (one RE2 DFA pass per line) and the per-file lead collector.
#include "importers/leads.h"

#include "importers/records.h"

#include <re2/re2.h>

#include <algorithm>

namespace attrib::importers {

bool isErrorLevel(std::string_view text)
{
    // Whole words in any case, or an exception class name (`RuntimeError`, `torch.OutOfMemoryError`).
    static const re2::RE2 pattern("(?i:\\b(?:errors?|fatal|failed|failure|fail|critical|crit|panic|traceback|"
                                  "exception|segmentation fault|segfault|core dumped|killed|abort(?:ed|ing)?|"
                                  "oops|unrecoverable|uncorrectable)\\b)|(?:Error|Exception)\\b");
    return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), pattern);
}

void LeadCollector::offer(std::size_t file, const std::string& path, std::uint64_t line, std::string_view text)
{
    if (file != m_file) {
        m_file = file;
        m_count = 0;
    }
    if (m_count >= PerFile || text.empty() || !isErrorLevel(text))
        return;
    ++m_count;
    engine::Lead lead;
    lead.file = path;
    lead.line = line;
    lead.text.assign(text.substr(0, TextBytes));
    sanitizeUtf8(lead.text);  // a cut may split a character; JSON needs valid UTF-8
    m_leads.emplace_back(file, std::move(lead));
}

void LeadCollector::absorb(LeadCollector&& other)
{
    for (auto& lead : other.m_leads)
        m_leads.push_back(std::move(lead));
    other.m_leads.clear();
}

std::vector<engine::Lead> LeadCollector::take(std::size_t limit) const
{
    auto sorted = m_leads;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first, a.second.line) < std::tie(b.first, b.second.line);
    });
    std::vector<engine::Lead> out;
    for (std::size_t i = 0; i < sorted.size() && out.size() < limit; ++i)
        out.push_back(sorted[i].second);
    return out;
}

}  // namespace attrib::importers
