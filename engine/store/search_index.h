// SPDX-License-Identifier: GPL-3.0-or-later
// Full-text search over every line of a bundle: an SQLite FTS5 index in its own file beside the case store
// (docs/store.md). The index is contentless (it keeps no copy of the logs): each row is keyed by file and line,
// and a hit's text is read back from the bundle through sparse line-offset checkpoints.
#pragma once

#include "engine/progress.h"
#include "engine/store/store_error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attrib::store {

class SqliteDb;

/// `trigram` serves substring search in log text (any 3+ characters, case-insensitive); `unicode61` matches
/// whole words only. Chosen on numbers (docs/store.md).
enum class Tokenizer { Trigram, Unicode61 };
const char* toString(Tokenizer tokenizer);

/// Streams one line: 1-based number, byte offset, bytes without the newline. Return false to stop.
using LineVisitor = std::function<bool(std::uint64_t line, std::uint64_t offset, std::string_view text)>;

/// A bundle's files as the index sees them.
struct LineSource {
    struct File {
        std::string path;  ///< relative to the bundle root
        std::string node;
    };
    std::vector<File> files;
    /// Streams every line of file `index`; returns "" or an error (the file is then left out of the index).
    std::function<std::string(std::size_t index, const LineVisitor& visit)> readLines;
    /// The bytes [offset, offset + length) of file `index`; sets `error` when they cannot be read.
    std::function<std::string(std::size_t index, std::uint64_t offset, std::uint64_t length, std::string& error)>
        readBytes;
};

struct SearchHit {
    std::size_t file = 0;
    std::string path;
    std::string node;
    std::uint64_t line = 0;
    std::string text;  ///< read back from the bundle ("" when the bundle is gone)
};

struct IndexStats {
    std::uint64_t files = 0;
    std::uint64_t lines = 0;
    std::uint64_t logBytes = 0;    ///< bytes of log text indexed
    std::uint64_t indexBytes = 0;  ///< size of the index file
    double buildSeconds = 0;       ///< as recorded when it was built
    bool reused = false;           ///< opened, not built, this time
    std::vector<std::string> errors;
};

class SearchIndex {
public:
    /// The index file of a bundle, beside the store: "<store>.search/<hash without prefix>.fts.sqlite".
    static std::string indexPathFor(const std::string& storePath, const std::string& bundleHash);

    /// Opens the complete index at `path` when there is one for `bundleHash` (reused: built once), else builds
    /// it from `source`, reporting progress as ("index", lines done, 0) and stopping when `cancel` is set
    /// (returns nullptr then, and leaves no partial index behind). Throws StoreError naming the file.
    static std::unique_ptr<SearchIndex> openOrBuild(const std::string& path, const std::string& bundleHash,
                                                    LineSource source, Tokenizer tokenizer = Tokenizer::Trigram,
                                                    engine::ProgressSink* progress = nullptr,
                                                    const engine::CancelFlag* cancel = nullptr);
    ~SearchIndex();

    /// Lines containing `text` (trigram: any substring of 3+ characters, case-insensitive), in file and line
    /// order, at most `limit`. Throws StoreError(Invalid) for a query the tokenizer cannot serve.
    std::vector<SearchHit> search(std::string_view text, std::size_t limit = 1000);
    const IndexStats& stats() const { return m_stats; }
    Tokenizer tokenizer() const { return m_tokenizer; }
    /// The bundle's lines as the index read them (the regex mode streams them again).
    const LineSource& source() const { return m_source; }

private:
    SearchIndex(std::unique_ptr<SqliteDb> db, LineSource source, Tokenizer tokenizer, IndexStats stats);
    std::string lineText(std::size_t file, std::uint64_t line, std::string& error);

    std::unique_ptr<SqliteDb> m_db;
    LineSource m_source;
    Tokenizer m_tokenizer;
    IndexStats m_stats;
    std::map<std::size_t, std::pair<std::string, std::string>> m_files;  ///< file -> (path, node)
};

}  // namespace attrib::store
