// SPDX-License-Identifier: GPL-3.0-or-later
// Leads: when no rule explains a failure, the earliest error-level lines of each file are a starting point.
#pragma once

#include "engine/verdict.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::importers {

/// True when a log line reads as error level: an error, failure, fatal or critical message, an exception or
/// traceback, a panic, a kill or abort, a segmentation fault (whole words, any case).
bool isErrorLevel(std::string_view text);

/// Collects, per file, the first few error-level lines (in file order).
class LeadCollector {
public:
    static constexpr std::size_t PerFile = 3;
    static constexpr std::size_t TextBytes = 300;

    /// Looks at one line of file `file` (index in bundle order); cheap once the file has its leads.
    void offer(std::size_t file, const std::string& path, std::uint64_t line, std::string_view text);
    /// The file last offered has all its leads.
    bool full() const { return m_count >= PerFile; }
    /// The leads of every file, in bundle order then line order; at most `limit` of them.
    std::vector<engine::Lead> take(std::size_t limit = 30) const;
    /// Adds the leads another collector gathered (of other files); take() sorts them into bundle order.
    void absorb(LeadCollector&& other);

private:
    std::vector<std::pair<std::size_t, engine::Lead>> m_leads;
    std::size_t m_file = SIZE_MAX;
    std::size_t m_count = 0;
};

}  // namespace attrib::importers
