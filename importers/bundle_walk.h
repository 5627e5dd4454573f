// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: the pieces of bundle.cpp the folder walk (bundle_walk.cpp) builds on.
#pragma once

#include "importers/bundle.h"

#include <string>
#include <vector>

namespace attrib::importers::detail {

/// An entry for a bundle-relative path with its node, rank and metadata hints.
BundleEntry makeFolderEntry(const std::string& rel, const std::string& absolute);

/// The members of an archive found in a folder bundle, listed as `<rel>/<member>`.
void addFolderArchive(const std::string& absolute, const std::string& rel, DecompressionBudget& budget,
                      std::vector<BundleEntry>& out);

/// Stable order by relative path; a README.md, LESSON.md or SOURCE is a case's note (metadata) only when the
/// bundle has a root expected.json.
void finishBundleEntries(std::vector<BundleEntry>& out);

}  // namespace attrib::importers::detail
