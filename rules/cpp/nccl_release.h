// SPDX-License-Identifier: GPL-3.0-or-later
// KnownNcclReleaseIssue: a logged NCCL release with a documented failure that the bundle's symptoms show.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeKnownNcclReleaseIssue(const nlohmann::json& config);

}  // namespace attrib::rules
