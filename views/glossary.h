// SPDX-License-Identifier: GPL-3.0-or-later
// Plain-language explanations of the workbench's words, for tooltips next to where they appear.
#pragma once

#include "engine/model.h"

#include <QString>

namespace attrib::views {

enum class Term { Demoted, Scrubbed, Interesting, Inherited, YearInferred, BootRelative, ClockCorrected, Coverage };

/// One or two sentences explaining `term` to someone who has not read the docs.
QString glossary(Term term);
/// How a time was obtained, in words: "stamped", "inherited from an earlier line (a lower bound)", ...
QString timeSourceText(engine::TimeSource source);
/// The glossary entry for a time source (empty for stamped or unknown times).
QString timeSourceGlossary(engine::TimeSource source);

}  // namespace attrib::views
