// SPDX-License-Identifier: GPL-3.0-or-later
// Synthetic cases for the store tests: deterministic, any size, with a self-check (symptom and evidence counts
// are encoded in the bundle path so a reader can tell a complete case from a torn one).
#pragma once

#include "engine/store/case_store.h"

#include <string>

namespace attrib::store::testing {

inline CaseRecord syntheticCase(int i, int symptoms = 3, int evidence = 5, std::size_t traceBytes = 64)
{
    CaseRecord r;
    CaseSummary& s = r.summary;
    s.createdAt = 1'700'000'000'000'000'000LL + i * 1'000'000'000LL;
    s.bundlePath = "/bundles/job-" + std::to_string(i) + "?symptoms=" + std::to_string(symptoms) +
        "&evidence=" + std::to_string(evidence);
    s.bundleHash = "fnv1a64:" + std::to_string(1000 + i);
    s.workloadId = "job-" + std::to_string(i);
    s.jobStart = s.createdAt - 3'600'000'000'000LL;
    s.jobEnd = s.createdAt;
    s.terminalState = i % 2 ? "hardware_failure" : "application_failure";
    s.subDomain = i % 2 ? "nvlink" : "application";
    s.rootNode = "node-0" + std::to_string(i % 4);
    s.rootSymptom = i % 2 ? "nvlink_signal_integrity" : "python_exception";
    s.engineVersion = "0.1.0";
    s.catalogVersion = "test";
    s.catalogHash = "abc";
    r.scheduler = "slurm";
    r.attempt = i % 3;
    r.contextJson = R"({"workload_id":"job-)" + std::to_string(i) + R"("})";
    r.verdictJson = R"({"terminal_state":")" + s.terminalState + R"("})";
    r.coverageJson = "{}";
    r.traceJson = "[\"" + std::string(traceBytes, 't') + "\"]";
    for (int k = 0; k < symptoms; ++k)
        r.symptoms.push_back({"sym" + std::to_string(k) + "@" + s.rootNode, "sym" + std::to_string(k), "gpu",
                              s.rootNode, k, k ? "demoted" : "active", k ? "Rule" : "", k ? "explained" : "",
                              s.jobStart, s.jobEnd, static_cast<std::uint32_t>(k + 1), k % 2 == 1});
    for (int k = 0; k < evidence; ++k)
        r.evidence.push_back({static_cast<std::uint64_t>(k + 1), "logs/rank" + std::to_string(k) + ".log",
                              static_cast<std::uint64_t>(10 * k + 1), static_cast<std::uint64_t>(100 * k), 42,
                              s.rootNode, s.jobStart + k, "line <b>" + std::to_string(k) + "</b> | x"});
    return r;
}

/// The counts syntheticCase encoded in the bundle path.
inline std::pair<int, int> encodedCounts(const std::string& bundlePath)
{
    const auto sym = bundlePath.find("symptoms=");
    const auto ev = bundlePath.find("&evidence=");
    if (sym == std::string::npos || ev == std::string::npos)
        return {-1, -1};
    return {std::stoi(bundlePath.substr(sym + 9, ev - sym - 9)), std::stoi(bundlePath.substr(ev + 10))};
}

}  // namespace attrib::store::testing
