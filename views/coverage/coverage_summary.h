// SPDX-License-Identifier: GPL-3.0-or-later
// One honest sentence about the evidence coverage, shared by the verdict panel and the Coverage pane: what
// was read, and by name what was not (skipped, errored, missing), with a level for its colour; plus the
// clock offsets the analysis applied per node.
#pragma once

#include "views/analysis_data.h"

#include <QColor>
#include <QString>
#include <QStringList>

namespace attrib::views {

struct CoverageSummary {
    enum class Level { Ok, Amber, Red };
    Level level = Level::Ok;
    QString headline;     ///< "Read 12 of 14 files on 3 nodes, 21:30:02 to 21:41:10 UTC."
    QStringList notRead;  ///< "core.bin: binary content", "node-03: no kernel log (missing)"
    QStringList clocks;   ///< "node-03: clock +2.10 s ±0.05 s, corrected"

    static CoverageSummary build(const engine::AnalysisResult& r);
    /// Text colour and background for the level.
    QColor foreground() const;
    QColor background() const;
    /// Headline, the first `maxItems` not-read entries (then "… N more"), and the clock lines.
    QString text(int maxItems = 6) const;
};

/// Why a file was not (fully) read, in the importer's own words without the "path: " and "skipped: " prefixes
/// ("binary content", "empty file"); the status name when the importer gave no reason.
QString coverageReason(const engine::FileCoverage& f);

}  // namespace attrib::views
