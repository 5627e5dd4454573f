// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: the rule files of a rules folder. Symbolic links are followed only to regular files inside the
// folder; loops, links leading outside, unreadable files and folders, and nesting past a limit are reported as
// diagnostics (file:line 0) instead of stopping the load.
#pragma once

#include "engine/catalog.h"

#include <string>
#include <vector>

namespace attrib::engine {

struct CatalogFile {
    std::string rel;   ///< path relative to the rules folder, '/'-separated
    std::string path;  ///< where to read it
};

/// The `.json` files under `dir`, sorted by relative path.
std::vector<CatalogFile> listCatalogFiles(const std::string& dir, std::vector<Diagnostic>& diagnostics);

/// A rule file's text, at most `maxBytes`; sets `error` when it cannot be read or is larger.
std::string readCatalogFile(const std::string& path, std::size_t maxBytes, std::string& error);

}  // namespace attrib::engine
