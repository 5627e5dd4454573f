// SPDX-License-Identifier: GPL-3.0-or-later
// An analysis snapshot plus the lookups every view needs; built once per result, off the GUI thread.
#pragma once

#include "engine/verdict.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace attrib::engine {
class Catalog;
}

namespace attrib::views {

/// How a symptom, event or evidence line relates to the verdict. Later values weigh more.
enum class EvidenceRole : std::uint8_t { Context, Scrubbed, Demoted, Interesting, Active, RootCause };

/// Immutable view-side index over one AnalysisResult (indices, not ids, everywhere).
struct AnalysisData {
    engine::AnalysisSnapshot result;
    int rootCauseSymptom = -1;
    std::vector<int> eventSymptom;                              ///< event -> symptom (-1: context event)
    std::vector<EvidenceRole> symptomRole;                      ///< symptom -> role
    std::vector<EvidenceRole> observationRole;                  ///< observation -> strongest role
    std::vector<std::vector<std::uint32_t>> observationEvents;  ///< observation -> events citing it
    std::vector<std::vector<std::uint32_t>> fileObservations;   ///< file -> observations, by line
    std::vector<std::string> symptomDescription;  ///< symptom -> the registry's description (empty without one)

    /// Builds the lookups; `result` may be a partial result (files only) while analysis runs. With a catalog,
    /// symptoms carry the registry's plain-language description (tooltips).
    static std::shared_ptr<const AnalysisData> build(engine::AnalysisSnapshot result,
                                                     const engine::Catalog* catalog = nullptr);

    const engine::AnalysisResult& r() const { return *result; }
    bool hasVerdict() const { return m_complete; }

    int eventIndex(std::uint64_t id) const;
    int observationIndex(std::uint64_t id) const;
    int symptomIndex(const std::string& id) const;
    /// Index of the bundle file with this relative path, -1 when there is none.
    int fileIndex(const std::string& path) const;
    /// Observations recorded on a 1-based line of a bundle file.
    std::span<const std::uint32_t> observationsAt(std::uint32_t file, std::uint64_t line) const;
    EvidenceRole eventRole(int event) const;
    /// The observation that best represents a symptom (decisive line of the root cause, else the first).
    int primaryObservation(int symptom) const;

private:
    bool m_complete = false;
};

using AnalysisPtr = std::shared_ptr<const AnalysisData>;

/// Role of a symptom given its status and whether it is the root cause.
EvidenceRole roleOf(const engine::Symptom& symptom, bool rootCause);

}  // namespace attrib::views
