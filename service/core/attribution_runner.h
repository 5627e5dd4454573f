// SPDX-License-Identifier: GPL-3.0-or-later
// One attribution: the Service's input analysed by the same engine as `attrib analyze` (importers included),
// so a verdict from the Service equals the local verdict of the same input byte for byte.
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "engine/store/case_store.h"
#include "service/core/observation_document.h"

#include <memory>
#include <string>
#include <string_view>

namespace attrib::service {

/// What an upload is: observations (JSON / NDJSON, already parsed) or an evidence bundle archive.
enum class ArchiveKind { Tar, TarGz, Zip };

struct Attribution {
    std::shared_ptr<engine::AnalysisResult> result;
    std::string verdictJson;  ///< exactly `attrib analyze --json`
    std::string bundleHash;   ///< content hash of what was analysed
    std::string error;        ///< why there is no result ("" when there is one)
    bool cancelled = false;
};

/// Analyses an observation document: it is written as `observations.jsonl` into a private temporary folder
/// (removed afterwards) and analysed as a one-file bundle.
Attribution attributeObservations(const ObservationDocument& doc, const engine::CatalogPtr& catalog,
                                  const engine::CancelFlag* cancel = nullptr);

/// Analyses an uploaded bundle archive (read in place by the importers, with their decompression limits).
Attribution attributeArchive(std::string_view bytes, ArchiveKind kind, const engine::CatalogPtr& catalog,
                             const engine::CancelFlag* cancel = nullptr);

/// The verdict JSON of a local analysis of a document (what a client compares the Service's verdict with).
std::string localVerdictJson(const ObservationDocument& doc, const engine::CatalogPtr& catalog);

/// The case the Service keeps for an attribution: the analysis plus the observations it was computed from.
/// `source` says where it came from ("service:observations", "service:archive").
store::CaseRecord attributionRecord(const Attribution& a, const ObservationDocument* doc, const std::string& source,
                                    engine::TimeNs receivedAt);

}  // namespace attrib::service
