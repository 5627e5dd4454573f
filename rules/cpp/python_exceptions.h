// SPDX-License-Identifier: GPL-3.0-or-later
// PythonExceptionOrigin: which Python exception lines are a failure of their own and which are effects.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makePythonExceptionOrigin(const nlohmann::json& config);

}  // namespace attrib::rules
