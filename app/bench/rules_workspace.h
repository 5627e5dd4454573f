// SPDX-License-Identifier: GPL-3.0-or-later
// Which rules folder a rule author edits. A catalog chosen with --rules is edited in place; otherwise the
// shipped catalog is copied once into the user's data folder and the copy is what the bench loads, watches
// and saves, so an edit never changes the shipped catalog. An unmodified copy follows the shipped catalog
// when that changes (an upgrade); a modified one is kept, and the note says it is based on an older catalog.
#pragma once

#include <QString>

namespace attrib::bench {

struct RulesWorkspace {
    /// The folder the catalog is loaded from and the editor saves into.
    QString dir;
    /// The catalog the copy was made from; empty when the folder was chosen with --rules.
    QString shipped;
    bool isCopy = false;
    /// The copy was made from an older shipped catalog and has the author's edits.
    bool behindShipped = false;
    /// One line for the editor saying which folder is edited and what is left alone.
    QString note;
};

/// `rulesDir` is the catalog found for this run; `chosen` says whether the user named it (--rules or
/// ATTRIB_RULES). `copyRoot` is where the copy lives (see defaultRulesCopyRoot). When the copy cannot be
/// made, the shipped folder is used and the note says why.
RulesWorkspace prepareRulesWorkspace(const QString& rulesDir, bool chosen, const QString& copyRoot);

/// Replaces the copy with the shipped catalog as it is now (the author's edits are discarded).
/// False with `error` set when the copy cannot be written.
bool resetRulesCopy(RulesWorkspace& workspace, QString* error = nullptr);

/// <user data folder of the application>/rules.
QString defaultRulesCopyRoot();

/// A content hash of a catalog folder: every *.json below it, by relative path.
QString catalogContentHash(const QString& dir);

}  // namespace attrib::bench
