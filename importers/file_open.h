// SPDX-License-Identifier: GPL-3.0-or-later
// Opening bundle files safely: never blocks on a FIFO or device, never follows a final symbolic link, checks
// the opened descriptor is a regular file, and reads only the size the file had when opened (a file that grows
// or shrinks while read ends with an error text saying so, so coverage marks it).
#pragma once

#include "importers/line_reader.h"

#include <cstdint>
#include <memory>
#include <string>

namespace attrib::importers {

/// An open regular file: owns the descriptor.
class RegularFile {
public:
    RegularFile() = default;
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    /// Opens `path` (O_NONBLOCK, O_NOFOLLOW, O_NOCTTY) and checks with fstat that it is a regular file.
    /// Returns "" or why it cannot be read.
    std::string open(const std::string& path);
    int fd() const { return m_fd; }
    std::uint64_t sizeAtOpen() const { return m_size; }

private:
    int m_fd = -1;
    std::uint64_t m_size = 0;
};

/// A reader over a regular file up to the size it had when opened. Returns an empty function and sets `error`
/// when it cannot be opened; read errors (including growth or truncation while reading) return -1 with the
/// text in `streamError` (when given).
ReadFn regularFileReader(const std::string& path, std::string& error, std::shared_ptr<std::string> streamError = {});

/// The first bytes (at most `max`) of a regular file; "" when it cannot be opened safely.
std::string regularFileHead(const std::string& path, std::size_t max);

}  // namespace attrib::importers
