// SPDX-License-Identifier: GPL-3.0-or-later
#include "rules/cpp/early_step.h"

namespace attrib::rules {

engine::TraceStep earlyStep(const std::string& rule, engine::TraceAction action, std::string summary)
{
    engine::TraceStep step;
    step.phase = engine::TracePhase::Early;
    step.rule = rule;
    step.action = action;
    step.summary = std::move(summary);
    return step;
}

}  // namespace attrib::rules
