// SPDX-License-Identifier: GPL-3.0-or-later
// Streams a file line by line through one reused buffer (never the whole file in memory).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace attrib::importers {

/// One physical line: 1-based number, byte offset of its start, its bytes without the newline.
struct RawLine {
    std::uint64_t number = 0;
    std::uint64_t offset = 0;
    std::string_view bytes;
    bool truncated = false;  ///< the line was longer than the cap; `bytes` holds its head
    std::uint64_t fullLength = 0;
};

/// Reads bytes from some source into a buffer; returns bytes read, 0 at end, -1 on error.
using ReadFn = std::function<long(char* buffer, std::size_t capacity)>;

struct ReadStats {
    std::uint64_t lines = 0;
    std::uint64_t bytes = 0;
    bool error = false;
    std::string errorText;
};

/// Where a progress bar's statistics end when other output follows them on the same physical line (the bar's
/// `\r` lost in a paste, or another process writing after it): the position after the `]` of tqdm's
/// `[<elapsed>[<<remaining>], <rate>[, <postfix>]]` (`[58:54,  4.53it/s]`, `[00:12<01:40, 1.20s/it, loss=0.3]`), the
/// first such bracket with text after it; npos when there is none.
std::size_t progressBarEnd(std::string_view line);

/// Calls `onLine` for each line. A line a terminal would have shown as several (`\r`-separated progress bar
/// segments, or text written right after a progress bar) is handed on segment by segment, each with its own offset.
/// Lines longer than `maxLine` are cut to `maxLine` bytes (flagged truncated) while the reader skips to the next
/// newline. `\r\n` endings are handled. `onLine` returning false stops reading (cancellation).
ReadStats readLines(const ReadFn& read, const std::function<bool(const RawLine&)>& onLine,
                    std::size_t maxLine = 1 << 20, std::size_t chunk = 1 << 20);

/// Frees the read buffers the calling thread keeps for its next files (after the last file of an analysis: they
/// would otherwise stay resident, a megabyte each, through correlation).
void releaseReadBuffers();

/// Convenience: a ReadFn over a file descriptor opened on `path`. Returns an empty function and
/// sets `error` when the file cannot be opened.
ReadFn fileReader(const std::string& path, std::string& error);

}  // namespace attrib::importers
