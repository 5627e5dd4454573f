// SPDX-License-Identifier: GPL-3.0-or-later
// SoleNodeFromCommandLine: the one node a posted srun/sbatch/salloc command line ran the job on.
#pragma once

#include "engine/catalog.h"

namespace attrib::rules {

std::unique_ptr<engine::CodeRule> makeSoleNodeFromCommandLine(const nlohmann::json& config);

}  // namespace attrib::rules
