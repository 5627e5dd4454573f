// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a bundle file again after the analysis, for evidence lines: plain files, .gz files and archive
// members alike. Offsets are positions in the file's *decompressed* content (what the analysis read), so an
// observation's SourceRef{offset, length} can be shown as is.
//
// Cost: a plain file is read at the offset directly. A compressed file (.gz, .xz, ...) or an archive member is
// decompressed again from its start up to the offset (and, for a member of a compressed tar, the archive from
// its start up to the member): acceptable for showing evidence, not meant for bulk reading.
#pragma once

#include "engine/verdict.h"
#include "importers/archive.h"
#include "importers/bundle.h"
#include "importers/line_reader.h"

#include <functional>
#include <string>
#include <vector>

namespace attrib::importers {

/// A reader over the decompressed content of a bundle file (archive member and/or compressed data handled).
/// Returns an empty function and sets `error` when it cannot be opened. Errors while reading are reported as
/// -1 from the reader with their text in `streamError` (when given).
ReadFn openBundleFile(const engine::BundleFile& file, std::string& error, ErrorSink streamError = {});

/// The bytes [offset, offset + length) of a bundle file's decompressed content (at most `maxBytes`).
std::string readBundleBytes(const engine::BundleFile& file, std::uint64_t offset, std::uint64_t length,
                            std::string& error, std::size_t maxBytes = 16 << 20);

/// The same range split into lines (without line ends), e.g. the lines of a joined record or traceback.
std::vector<std::string> readBundleLines(const engine::BundleFile& file, std::uint64_t offset, std::uint64_t length,
                                         std::string& error, std::size_t maxBytes = 16 << 20);

/// Streams the chosen entries once each: plain files are opened one by one, members of one archive are read in
/// a single pass over that archive (archive order). `visit` gets the entry index and a reader over the entry's
/// raw (not yet gzip-decoded) bytes; returning false stops everything.
void visitEntries(const std::vector<BundleEntry>& entries, const std::vector<std::size_t>& chosen,
                  const std::function<bool(std::size_t index, const ReadFn& raw, const ErrorSink& error,
                                           const std::string& openError)>& visit,
                  DecompressionBudget* budget);

/// `head` first, then whatever `rest` still delivers.
ReadFn replayReader(std::string head, ReadFn rest);

}  // namespace attrib::importers
