// SPDX-License-Identifier: GPL-3.0-or-later
// Names of the progress stages.
#include "engine/progress.h"

#include "engine/enum_names.h"

namespace attrib::engine {

namespace {

constexpr EnumName<ProgressStage> kStages[] = {
    {ProgressStage::ReadingFiles, "reading files"},
    {ProgressStage::Correlating, "correlating"},
    {ProgressStage::ClockSkew, "estimating clock skew"},
    {ProgressStage::EarlyRules, "early rules"},
    {ProgressStage::Symptoms, "building symptoms"},
    {ProgressStage::Refine, "merging and refining"},
    {ProgressStage::Priority, "prioritizing"},
    {ProgressStage::Outcome, "choosing the outcome"},
    {ProgressStage::Leads, "finding leads"},
    {ProgressStage::Verdict, "verdict"},
    {ProgressStage::Replay, "replay"},
    {ProgressStage::Regex, "regex"},
    {ProgressStage::Index, "index"},
};

}  // namespace

const char* toString(ProgressStage stage)
{
    return nameIn(kStages, stage);
}

}  // namespace attrib::engine
