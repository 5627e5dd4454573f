// SPDX-License-Identifier: GPL-3.0-or-later
// Human-readable renderings of a result: terminal text (CLI) and Markdown (incident tickets).
#pragma once

#include "engine/verdict.h"

#include <string>

namespace attrib::engine {

/// The CLI's summary: verdict, root cause with its decisive line, action, demoted symptoms, coverage.
std::string reportText(const AnalysisResult& result);

/// The same content as Markdown, for pasting into an incident ticket.
std::string reportMarkdown(const AnalysisResult& result);

/// "file:line" of an observation, or "" when unknown.
std::string evidenceLocation(const AnalysisResult& result, std::uint64_t observation);

}  // namespace attrib::engine
