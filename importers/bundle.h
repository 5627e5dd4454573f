// SPDX-License-Identifier: GPL-3.0-or-later
// Walking a bundle folder: the files in it (sorted), node hints from nodes/<host>/ folders, workload.json.
#pragma once

#include "engine/model.h"
#include "engine/verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace attrib::importers {

/// A file found in the bundle, with the hints its path gives.
struct BundleEntry {
    engine::BundleFile file;
    std::string nodeHint;  ///< from a nodes/<host>/ folder (or <host>/ under a "nodes" style layout)
    int rankHint = -1;     ///< from a file name such as rank-11.log or rank11.out
    std::string problem;   ///< why it cannot be read (unreadable, special file, link loop), "" if fine
    bool metadata = false; ///< a sample's expected.json / LESSON.md: listed, never analysed
    std::int64_t mtime = 0;  ///< seconds since epoch
};

/// Lists the bundle's files in a stable order (sorted by relative path). Does not follow directory links.
std::vector<BundleEntry> listBundle(const std::string& root, std::string& error);

/// Reads workload.json (if present) into the context. Returns a problem text, or "" when fine or absent.
std::string readWorkload(const std::string& path, engine::ExecutionContext& context);

/// Short host name: up to the first dot, lower case.
std::string shortHost(std::string_view host);

}  // namespace attrib::importers
