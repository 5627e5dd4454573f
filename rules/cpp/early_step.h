// SPDX-License-Identifier: GPL-3.0-or-later
// The trace step every C++ rule of the early phase starts its report from.
#pragma once

#include "engine/trace.h"

#include <string>

namespace attrib::rules {

/// A step of the early phase, by `rule`, doing `action`; the caller adds node, events and details.
engine::TraceStep earlyStep(const std::string& rule, engine::TraceAction action, std::string summary = {});

}  // namespace attrib::rules
