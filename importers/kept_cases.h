// SPDX-License-Identifier: GPL-3.0-or-later
// Extractor cases read the way `attrib analyze` reads a line: the catalog checks a case on its raw line, but analyze
// first takes the line through the importers (stamps, syslog headers, launcher and pod prefixes, wrapped lines
// joined) and its extractors see only the text kept. A rule whose pattern needs what the importer takes off passes
// its cases and never fires on a real log. Lives here, not in the engine: the engine does not know the importers;
// `attrib rules test` and the tests use it.
#pragma once

#include "engine/catalog.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attrib::importers {

/// One record analyze makes of the lines: the text extractors match and the source kind they match it as.
struct KeptText {
    engine::SourceKind kind = engine::SourceKind::Text;
    std::string text;
};

/// The records of `lines` read as one plain text file (each line by the parser of its own form, wrapped lines and
/// tracebacks joined), in the order analyze matches them (a traceback's inner lines before its exception line).
std::vector<KeptText> keptTexts(const std::vector<std::string>& lines);

/// An extractor case that analyze decides otherwise than its raw line.
struct KeptCaseFinding {
    std::string rule;
    std::size_t caseIndex = 0;  ///< 1-based, as `attrib rules test -v` names cases
    engine::Location where;     ///< the case's file and line
    bool shouldMatch = true;
    std::string line;
    std::string kept;     ///< the kept texts, joined with " | " when there are several records
    std::string message;  ///< what differs, for the report
};

struct KeptCaseReport {
    std::size_t checked = 0;  ///< cases run through the importers
    std::vector<KeptCaseFinding> findings;
};

/// Runs every case of the catalog's loaded extractors (the rules whose raw cases pass) as a plain text file, the
/// case's context line first, and matches the records as analyze does (source kinds, literal prefilter, context
/// memory), with the rule alone in an extractor set of its own on fresh copies of its patterns. Reports a must-match
/// case whose rule does not fire on what is kept, and a must-not-match case whose rule fires there.
KeptCaseReport checkKeptCases(const engine::Catalog& catalog);

}  // namespace attrib::importers
