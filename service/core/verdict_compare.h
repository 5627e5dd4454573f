// SPDX-License-Identifier: GPL-3.0-or-later
// Two verdicts of the same observations side by side (the Service's and the local engine's): terminal state,
// sub-domain, root cause, each symptom's status, engine and catalog versions. Works on the verdict JSON
// (docs/verdict.md), which is all a client has of the Service's analysis.
#pragma once

#include <string>
#include <vector>

namespace attrib::service {

struct ComparisonRow {
    std::string field;  ///< "terminal_state", "root_cause", "symptom nvlink_signal_integrity@node-02/gpu3", ...
    std::string local;
    std::string remote;  ///< "" = absent there
    bool differs = false;
    bool versionOnly = false;  ///< engine / catalog version rows: informative, not a verdict difference
};

struct VerdictComparison {
    std::vector<ComparisonRow> rows;
    /// True when a verdict field (not only a version) differs.
    bool differs() const;
    /// One line a row: "  field  local | service  (differs)"; markers for differences.
    std::string text(const std::string& localName = "local", const std::string& remoteName = "service") const;
};

/// Compares two verdict JSON texts; throws std::runtime_error when either is not a verdict.
VerdictComparison compareVerdicts(const std::string& localJson, const std::string& remoteJson);

}  // namespace attrib::service
