// SPDX-License-Identifier: GPL-3.0-or-later
// Walking a bundle folder: the files in it (sorted), node hints from nodes/<host>/ folders, workload.json.
#pragma once

#include "engine/host_name.h"
#include "engine/model.h"
#include "engine/verdict.h"
#include "importers/archive.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attrib::importers {

/// A file found in the bundle, with the hints its path gives.
struct BundleEntry {
    engine::BundleFile file;
    std::string nodeHint;    ///< from a nodes/<host>/ folder (or <host>/ under a "nodes" style layout)
    int rankHint = -1;       ///< from a file name such as rank-11.log or rank11.out
    std::string problem;     ///< why it cannot be read (unreadable, special file, link loop), "" if fine
    bool metadata = false;   ///< a sample's expected.json / LESSON.md: listed, never analysed
    std::int64_t mtime = 0;  ///< seconds since epoch
};

/// Lists the bundle's files in a stable order (sorted by relative path). Does not follow directory links.
/// Archives found inside the folder (.tar, .tar.gz, .zip) are listed member by member as `<archive>/<member>`
/// (BundleFile::absolutePath = the archive, archiveMember = the member).
std::vector<BundleEntry> listBundle(const std::string& root, std::string& error);
std::vector<BundleEntry> listBundle(const std::string& root, const ArchiveLimits& limits, std::string& error);

/// Lists an archive bundle (.tar, .tar.gz/.tgz, .zip): its members, with a single top-level folder removed
/// from their paths. Rejected members (absolute paths, `..`, links) are listed with a problem.
std::vector<BundleEntry> listArchiveBundle(const std::string& archive, const ArchiveLimits& limits, std::string& error);

/// Reads workload.json from the bytes of the file (for bundles inside archives).
std::string readWorkloadText(const std::string& text, engine::ExecutionContext& context,
                             std::map<std::string, engine::TimeNs>* bootTimes = nullptr);

/// Reads workload.json (if present) into the context. Returns a problem text, or "" when fine or absent.
std::string readWorkload(const std::string& path, engine::ExecutionContext& context);

/// Node hint of a bundle-relative path (`nodes/<host>/...` or `hosts/<host>/...`), "" when none.
std::string nodeFromPath(std::string_view relativePath);

/// Rank hint of a file name (rank-11.log, rank11.out, worker-rank3.log), -1 when none.
int rankFromName(const std::string& name);

/// Short host name (see engine/host_name.h).
using engine::shortHost;

}  // namespace attrib::importers
