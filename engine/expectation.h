// SPDX-License-Identifier: GPL-3.0-or-later
// Checking a verdict against a sample's expected.json (used by the golden tests and `attrib eval`).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace attrib::engine {

/// Compares the verdict JSON with the fields an expected.json requires. Each failure is one line.
/// Supported fields: terminal_state, sub_domain, root_cause {symptom, node, gpu}, candidates (count or
/// node list), and symptoms {name: {status, status_rule, interesting}} (every symptom of that name must hold).
std::vector<std::string> compareWithExpected(const nlohmann::ordered_json& verdict, const nlohmann::json& expected);

}  // namespace attrib::engine
