// SPDX-License-Identifier: GPL-3.0-or-later
// The contentless FTS5 line index: built once into a side file, renamed into place only when complete.
#include "engine/store/search_index.h"

#include "engine/store/sqlite_db.h"

#include "engine/number.h"

#include <chrono>
#include <filesystem>

namespace fs = std::filesystem;

namespace attrib::store {

namespace {

constexpr char IndexApplication[] = "attribution-workbench-search-index";
constexpr char IndexFormat[] = "1";
constexpr std::uint64_t CheckpointEvery = 64;  ///< a line offset is kept for every 64th line
constexpr std::uint64_t BatchLines = 200'000;  ///< lines per transaction while building

std::int64_t rowidOf(std::size_t file, std::uint64_t line)
{
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(file) << 32) | (line & 0xffffffffULL));
}

void removeIndexFiles(const std::string& path)
{
    std::error_code ec;
    for (const char* suffix : {"", "-journal", "-wal", "-shm"})
        fs::remove(path + suffix, ec);
}

std::string metaValue(SqliteDb& db, const char* key)
{
    Statement s(db, "SELECT value FROM index_meta WHERE key = ?1");
    s.bind(1, std::string_view(key));
    return s.step() ? s.text(0) : std::string();
}

/// Reads the stats of a complete index; false when the file is an index of another bundle / tokenizer or
/// incomplete. Throws StoreError when it is not an index at all.
bool readCompleteIndex(SqliteDb& db, const std::string& bundleHash, Tokenizer tokenizer, IndexStats& stats)
{
    const auto hasMeta = db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'index_meta'").value_or(0);
    if (!hasMeta || metaValue(db, "application") != IndexApplication)
        throw StoreError(StoreError::Kind::Foreign,
                         db.path() +
                             ": not a search index of a case store; it was not "
                             "changed (move it away to rebuild the index)");
    if (metaValue(db, "state") != "complete" || metaValue(db, "bundle_hash") != bundleHash ||
        metaValue(db, "tokenizer") != toString(tokenizer) || metaValue(db, "format") != IndexFormat)
        return false;
    stats.files = static_cast<std::uint64_t>(db.scalarInt("SELECT count(*) FROM files").value_or(0));
    // A figure that does not read (a damaged or hand-edited file) makes the index incomplete: it is rebuilt.
    const auto lines = engine::parseInteger<std::uint64_t>(metaValue(db, "lines"));
    const auto logBytes = engine::parseInteger<std::uint64_t>(metaValue(db, "log_bytes"));
    const auto buildSeconds = engine::parseFinite(metaValue(db, "build_seconds"));
    if (!lines || !logBytes || !buildSeconds)
        return false;
    stats.lines = *lines;
    stats.logBytes = *logBytes;
    stats.buildSeconds = *buildSeconds;
    Statement errors(db, "SELECT path || ': ' || error FROM files WHERE error IS NOT NULL ORDER BY file");
    while (errors.step())
        stats.errors.push_back(errors.text(0));
    return true;
}

void createSchema(SqliteDb& db, Tokenizer tokenizer, const std::string& bundleHash)
{
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192");
    db.exec("CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE files (file INTEGER PRIMARY KEY, path TEXT NOT NULL, node TEXT, lines INTEGER NOT NULL,"
            " bytes INTEGER NOT NULL, error TEXT);"
            "CREATE TABLE checkpoints (file INTEGER NOT NULL, line INTEGER NOT NULL, offset INTEGER NOT NULL,"
            " PRIMARY KEY (file, line)) WITHOUT ROWID;"
            "CREATE VIRTUAL TABLE fts_lines USING fts5(text, content='', columnsize=0, tokenize='" +
            std::string(toString(tokenizer)) + "')");
    Statement meta(db, "INSERT INTO index_meta (key, value) VALUES (?1, ?2)");
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"application", IndexApplication},
                               {"format", IndexFormat},
                               {"bundle_hash", bundleHash},
                               {"tokenizer", toString(tokenizer)},
                               {"state", "building"}})
        meta.bind(1, k).bind(2, v).run();
}

/// Streams every file into the index; false when cancelled.
bool fillIndex(SqliteDb& db, const LineSource& source, engine::ProgressSink* progress, const engine::CancelFlag* cancel,
               IndexStats& stats)
{
    Statement insert(db, "INSERT INTO fts_lines (rowid, text) VALUES (?1, ?2)");
    Statement checkpoint(db, "INSERT INTO checkpoints (file, line, offset) VALUES (?1, ?2, ?3)");
    Statement file(db, "INSERT INTO files (file, path, node, lines, bytes, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    db.exec("BEGIN");
    bool cancelled = false;
    for (std::size_t i = 0; i < source.files.size() && !cancelled; ++i) {
        std::uint64_t lines = 0, bytes = 0, end = 0;
        const std::string error =
            source.readLines(i, [&](std::uint64_t line, std::uint64_t offset, std::string_view text) {
                if (cancel && cancel->load(std::memory_order_relaxed))
                    return !(cancelled = true);
                if ((line - 1) % CheckpointEvery == 0)
                    checkpoint.bind(1, std::int64_t(i)).bind(2, std::int64_t(line)).bind(3, std::int64_t(offset)).run();
                insert.bind(1, rowidOf(i, line)).bind(2, text).run();
                lines = line;
                bytes += text.size();
                end = offset + text.size() + 2;  // a bound only: "\r\n" endings stay inside it
                if (++stats.lines % BatchLines == 0) {
                    db.exec("COMMIT; BEGIN");
                    if (progress)
                        progress->progress(engine::ProgressStage::Index, stats.lines, 0);
                }
                return true;
            });
        checkpoint.bind(1, std::int64_t(i)).bind(2, std::int64_t(lines + 1)).bind(3, std::int64_t(end)).run();
        file.bind(1, std::int64_t(i)).bind(2, source.files[i].path).bindOptional(3, source.files[i].node);
        file.bind(4, std::int64_t(lines)).bind(5, std::int64_t(bytes)).bindOptional(6, error).run();
        stats.logBytes += bytes;
        if (!error.empty())
            stats.errors.push_back(source.files[i].path + ": " + error);
    }
    db.exec("COMMIT");
    stats.files = source.files.size();
    return !cancelled;
}

}  // namespace

const char* toString(Tokenizer tokenizer)
{
    return tokenizer == Tokenizer::Trigram ? "trigram" : "unicode61";
}

std::string SearchIndex::indexPathFor(const std::string& storePath, const std::string& bundleHash)
{
    const auto colon = bundleHash.find(':');
    const std::string name = colon == std::string::npos ? bundleHash : bundleHash.substr(colon + 1);
    return storePath + ".search/" + name + ".fts.sqlite";
}

SearchIndex::SearchIndex(std::unique_ptr<SqliteDb> db, LineSource source, Tokenizer tokenizer, IndexStats stats)
    : m_db(std::move(db))
    , m_source(std::move(source))
    , m_tokenizer(tokenizer)
    , m_stats(std::move(stats))
{
}

SearchIndex::~SearchIndex() = default;

std::unique_ptr<SearchIndex> SearchIndex::openOrBuild(const std::string& path, const std::string& bundleHash,
                                                      LineSource source, Tokenizer tokenizer,
                                                      engine::ProgressSink* progress, const engine::CancelFlag* cancel)
{
    std::error_code ec;
    IndexStats stats;
    if (fs::exists(path, ec)) {
        auto db = std::make_unique<SqliteDb>(path, true, false);
        if (readCompleteIndex(*db, bundleHash, tokenizer, stats)) {
            stats.reused = true;
            stats.indexBytes = fs::file_size(path, ec);
            return std::unique_ptr<SearchIndex>(new SearchIndex(std::move(db), std::move(source), tokenizer, stats));
        }
    }
    fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string partial = path + ".partial";
    removeIndexFiles(partial);
    const auto started = std::chrono::steady_clock::now();
    {
        SqliteDb db(partial, false, true);
        createSchema(db, tokenizer, bundleHash);
        if (!fillIndex(db, source, progress, cancel, stats)) {
            removeIndexFiles(partial);
            return nullptr;
        }
        db.exec("INSERT INTO fts_lines (fts_lines) VALUES ('optimize')");
        stats.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        Statement meta(db, "INSERT OR REPLACE INTO index_meta (key, value) VALUES (?1, ?2)");
        meta.bind(1, std::string_view("lines")).bind(2, std::to_string(stats.lines)).run();
        meta.bind(1, std::string_view("log_bytes")).bind(2, std::to_string(stats.logBytes)).run();
        meta.bind(1, std::string_view("build_seconds")).bind(2, std::to_string(stats.buildSeconds)).run();
        meta.bind(1, std::string_view("state")).bind(2, std::string_view("complete")).run();
    }
    removeIndexFiles(path);
    fs::rename(partial, path, ec);
    if (ec)
        throw StoreError(StoreError::Kind::Io, path + ": cannot put the search index in place: " + ec.message());
    stats.indexBytes = fs::file_size(path, ec);
    auto db = std::make_unique<SqliteDb>(path, true, false);
    return std::unique_ptr<SearchIndex>(new SearchIndex(std::move(db), std::move(source), tokenizer, stats));
}

std::vector<SearchHit> SearchIndex::search(std::string_view text, std::size_t limit)
{
    if (m_tokenizer == Tokenizer::Trigram && text.size() < 3)
        throw StoreError(StoreError::Kind::Invalid,
                         m_db->path() + ": search needs at least 3 characters (\"" + std::string(text) + "\")");
    std::string phrase = "\"";
    for (char c : text)
        phrase += c == '"' ? std::string("\"\"") : std::string(1, c);
    phrase += '"';
    if (m_files.empty()) {
        Statement f(*m_db, "SELECT file, path, node FROM files ORDER BY file");
        while (f.step())
            m_files[static_cast<std::size_t>(f.integer(0))] = {f.text(1), f.text(2)};
    }
    Statement s(*m_db, "SELECT rowid FROM fts_lines WHERE fts_lines MATCH ?1 ORDER BY rowid LIMIT ?2");
    s.bind(1, phrase).bind(2, static_cast<std::int64_t>(limit));
    std::vector<SearchHit> hits;
    while (s.step()) {
        const auto rowid = static_cast<std::uint64_t>(s.integer(0));
        const auto file = static_cast<std::size_t>(rowid >> 32);
        const auto it = m_files.find(file);
        hits.push_back({file,
                        it == m_files.end() ? std::string() : it->second.first,
                        it == m_files.end() ? std::string() : it->second.second,
                        rowid & 0xffffffffULL,
                        {}});
    }
    for (auto& hit : hits) {
        std::string error;
        hit.text = lineText(hit.file, hit.line, error);
    }
    return hits;
}

std::string SearchIndex::lineText(std::size_t file, std::uint64_t line, std::string& error)
{
    if (!m_source.readBytes)
        return {};
    Statement before(*m_db,
                     "SELECT line, offset FROM checkpoints WHERE file = ?1 AND line <= ?2 "
                     "ORDER BY line DESC LIMIT 1");
    before.bind(1, std::int64_t(file)).bind(2, std::int64_t(line));
    if (!before.step())
        return {};
    const auto firstLine = static_cast<std::uint64_t>(before.integer(0));
    const auto start = static_cast<std::uint64_t>(before.integer(1));
    Statement after(*m_db, "SELECT offset FROM checkpoints WHERE file = ?1 AND line > ?2 ORDER BY line LIMIT 1");
    after.bind(1, std::int64_t(file)).bind(2, std::int64_t(line));
    const std::uint64_t end = after.step() ? static_cast<std::uint64_t>(after.integer(0)) : start + (1 << 20);
    const std::string chunk = m_source.readBytes(file, start, end - start, error);
    std::size_t pos = 0;
    for (std::uint64_t n = firstLine; n < line && pos != std::string::npos; ++n) {
        pos = chunk.find('\n', pos);
        pos = pos == std::string::npos ? pos : pos + 1;
    }
    if (pos == std::string::npos)
        return {};
    std::string out = chunk.substr(pos, chunk.find('\n', pos) - pos);
    if (!out.empty() && out.back() == '\r')
        out.pop_back();
    return out;
}

}  // namespace attrib::store
