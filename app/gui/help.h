// SPDX-License-Identifier: GPL-3.0-or-later
// Help for the workbench window: the keyboard shortcuts (collected from the live actions, so the list never goes
// stale, plus the plain keys the timeline and the evidence lines handle themselves), collision detection for
// the tests, the user guide and About.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QWidget;

namespace attrib::engine {
struct EngineInfo;
}

namespace attrib::app {

struct ShortcutEntry {
    QString keys;    ///< "Ctrl+F" in portable text
    QString action;  ///< "Find in evidence…"
    QString where;   ///< "window", "Evidence", "Timeline", "Rule debugger", ...
};

/// Every shortcut of `window`'s actions and QShortcuts, then the keys views handle themselves; sorted by place.
QList<ShortcutEntry> collectShortcuts(QWidget* window);
/// Pairs of shortcuts with the same keys that can be active at the same time (window-wide, or one pane inside
/// the other). Each entry reads "F5: Reload (window) / Run to breakpoint (Rule debugger)".
QStringList shortcutCollisions(QWidget* window);

void showShortcutsDialog(QWidget* window);
/// The user guide; `heading` (its text) scrolls to that section.
void showUserGuide(QWidget* window, const QString& heading = {});
/// About: the engine version and the catalog's version (and hash, once an analysis has run) and folder.
void showAbout(QWidget* window, const QString& rulesDir, const engine::EngineInfo* analysed = nullptr);

}  // namespace attrib::app
