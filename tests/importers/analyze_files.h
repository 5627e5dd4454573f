// SPDX-License-Identifier: GPL-3.0-or-later
// A bundle of several files analysed in one call (tests that place evidence on nodes and in time).
#pragma once

#include "importer_test_util.h"

#include <QTemporaryDir>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace attrib::tests {

/// Analyses a bundle of the given files (path relative to the bundle, text) written to a fresh folder.
inline engine::AnalysisResult analyzeFiles(const std::vector<std::pair<std::string, std::string>>& files)
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    for (const auto& [path, text] : files)
        writeFile(root / path, text);
    auto outcome = analyze(root.string());
    if (!outcome.result)
        qFatal("analysis failed: %s", outcome.error.c_str());
    return *outcome.result;
}

}  // namespace attrib::tests
