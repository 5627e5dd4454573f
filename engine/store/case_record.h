// SPDX-License-Identifier: GPL-3.0-or-later
// Turning an analysis into a case record: context JSON, coverage JSON, evidence lines, bundle content hash.
#pragma once

#include "engine/store/case_store.h"
#include "engine/verdict.h"

#include <nlohmann/json.hpp>

namespace attrib::store {

/// The whole ExecutionContext as JSON (times as ns integers and ISO text; null when unknown).
nlohmann::ordered_json contextToJson(const engine::ExecutionContext& context);

/// Per collector (as in the verdict) and per bundle file: format, node, lines, status, errors.
nlohmann::ordered_json coverageToJson(const engine::AnalysisResult& result);

/// A content hash of the bundle: "fnv1a64:" + 16 hex digits over the archive bytes, or over every file's
/// relative path, size and bytes in path order. It identifies a bundle; it is not a security hash.
/// Throws StoreError(Io) naming the file that cannot be read.
std::string bundleContentHash(const engine::AnalysisResult& result);

/// Everything a case keeps of one analysis. `bundleHash` from bundleContentHash; `createdAt` in UTC ns.
CaseRecord makeCaseRecord(const engine::AnalysisResult& result, std::string bundleHash, engine::TimeNs createdAt);

/// Which label fields were stated and which of them the verdict matches (terminal state, sub-domain, node).
struct LabelAgreement {
    int stated = 0;
    int agreed = 0;
    bool terminalState = true;
    bool subDomain = true;
    bool node = true;
    bool agrees() const { return stated > 0 && stated == agreed; }
};
LabelAgreement compareLabel(const CaseLabel& label, const std::string& terminalState, const std::string& subDomain,
                            const std::string& rootNode);
/// "yes" / "no" / "-" (no label, or a label that states none of the three).
std::string agreementText(const CaseSummary& summary);

/// Now, UTC ns.
engine::TimeNs nowNs();

}  // namespace attrib::store
