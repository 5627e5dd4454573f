// SPDX-License-Identifier: GPL-3.0-or-later
// The events of an analysis kept with its case (schema step 4), so a reopened case draws the same timeline
// points, lanes and time certainty as the analysis did, and each symptom lists the events that raised it.
#pragma once

#include "engine/verdict.h"

#include <string>

namespace attrib::store {

/// {"events": [...], "symptom_events": {symptom id: [event ids]}} as compact JSON; "" when there are no events.
std::string eventsToJson(const engine::AnalysisResult& result);

/// Puts the stored events into `result` and links them to its symptoms (matched by symptom id). Returns false,
/// changing nothing, when `body` is empty or not such a document (a case saved before step 4).
bool restoreEvents(engine::AnalysisResult& result, const std::string& body);

}  // namespace attrib::store
