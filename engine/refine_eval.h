// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluation of one declarative refinement (or scrub) rule over a symptom set.
#pragma once

#include "engine/catalog.h"

namespace attrib::engine {

/// Applies `rule` to `symptoms` in place: every active cause demotes (or scrubs) the matching targets in
/// scope and window. Records each firing and each non-firing evaluation (for "why didn't this fire").
void applyRefineRule(const Catalog& catalog, const RefineRule& rule, std::vector<Symptom>& symptoms, TraceSink& trace);

}  // namespace attrib::engine
