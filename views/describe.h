// SPDX-License-Identifier: GPL-3.0-or-later
// Plain-text descriptions of symptoms, events and evidence lines for tooltips and headers.
#pragma once

#include "views/analysis_data.h"

#include <QString>

namespace attrib::views {

/// `nodes/node-02/dmesg.txt:99`
QString observationLocation(const AnalysisData& analysis, int observation);
/// Several lines: type, place, time, symptom and status, attributes, evidence line.
QString describeEvent(const AnalysisData& analysis, int event);
/// Several lines: name, place, span, count, status with rule and reason.
QString describeSymptom(const AnalysisData& analysis, int symptom);
/// One line: `demoted by Xid149AndNvlinkFiltering: reason` (or `active`).
QString statusLine(const engine::Symptom& symptom);

}  // namespace attrib::views
