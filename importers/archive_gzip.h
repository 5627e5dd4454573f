// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: gzip files decoded with zlib so that their CRC-32 and length trailers are checked (a damaged or
// truncated .gz is an error with a name, not a silent `ok`). Concatenated members are read in turn.
#pragma once

#include "importers/archive.h"

#include <functional>

namespace attrib::importers::detail {

/// Charges decompressed bytes; returns "" or why reading must stop (caps, ratio).
using ChargeFn = std::function<std::string(std::uint64_t bytes)>;

/// A reader over the decompressed content of the gzip data `inner` delivers.
ReadFn gzipReader(ReadFn inner, ChargeFn charge, ErrorSink error);

}  // namespace attrib::importers::detail
