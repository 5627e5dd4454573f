// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's main window as GUI tests use it: settings in a throw-away folder, no restored layout, shown and
// exposed; opening a bundle waits until its verdict (or its timeline) is on screen.
#pragma once

#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>

namespace attrib::tests {

/// Creates `settings` in `dir` and a shown main window on `rulesDir`; null when the window is never exposed.
inline std::unique_ptr<app::MainWindow> showWorkbench(std::unique_ptr<app::Settings>& settings,
                                                      const QTemporaryDir& dir,
                                                      const QString& rulesDir = QStringLiteral(ATTRIB_SOURCE_RULES_DIR))
{
    settings = std::make_unique<app::Settings>(dir.filePath(QStringLiteral("settings.ini")));
    auto window = std::make_unique<app::MainWindow>(settings.get(), rulesDir, false);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    return window;
}

/// Opens a bundle and waits for its verdict, or with `timeline` for its timeline; false on timeout.
inline bool openAndWait(app::MainWindow& window, const QString& bundle, bool timeline = false, int timeoutMs = 120000)
{
    QSignalSpy verdict(window.bundleController(), &app::BundleController::verdictShown);
    QSignalSpy drawn(window.bundleController(), &app::BundleController::timelineShown);
    QSignalSpy& shown = timeline ? drawn : verdict;
    window.openBundle(bundle);
    return shown.wait(timeoutMs);
}

/// openAndWait on one of the project's samples.
inline bool openSampleAndWait(app::MainWindow& window, const std::string& sample, bool timeline = false)
{
    return openAndWait(window, QString::fromStdString(std::string(ATTRIB_SOURCE_DIR) + "/samples/" + sample), timeline);
}

}  // namespace attrib::tests
