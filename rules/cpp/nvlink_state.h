// SPDX-License-Identifier: GPL-3.0-or-later
// NvlinkLinkStates: `nvidia-smi nvlink -s` listings turned into a per-GPU judgement on inactive links.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeNvlinkLinkStates(const nlohmann::json& config);

}  // namespace attrib::rules
