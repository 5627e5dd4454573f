// SPDX-License-Identifier: GPL-3.0-or-later
// A stored case back as an AnalysisResult, without re-running the engine: context, files and coverage,
// the kept evidence lines as observations, symptoms, verdict, trace and events. A case saved before events were
// kept (schema step 4) gets one stand-in event per symptom at its first sighting (type "stored", its evidence
// attached) so timelines can still draw it.
#pragma once

#include "engine/store/case_store.h"
#include "engine/verdict.h"

#include <memory>

namespace attrib::store {

/// `bundleMoved` is set when the bundle is no longer where the case says: files then have no absolute path
/// (evidence comes from the stored lines only) and the case is for reading.
std::shared_ptr<engine::AnalysisResult> caseToResult(const CaseRecord& record, bool* bundleMoved = nullptr);

}  // namespace attrib::store
