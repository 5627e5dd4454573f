// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the importer tests: fixture paths, records of an in-memory file, archives written at run time
// with libarchive (nothing binary is committed), bundle analysis shortcuts.
#pragma once

#include "../common/test_catalog.h"

#include "engine/verdict_json.h"
#include "importers/analyzer.h"
#include "importers/records.h"

#include <QTemporaryDir>

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace attrib::tests {

inline std::string fixturePath(const std::string& name)
{
    return std::string(ATTRIB_SOURCE_DIR) + "/tests/fixtures/importers/" + name;
}

inline std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

inline std::string fixture(const std::string& name)
{
    return readText(fixturePath(name));
}

/// A reader over a string, handing out at most `step` bytes per call.
inline importers::ReadFn stringReader(std::string data, std::size_t step = 1 << 20)
{
    auto state = std::make_shared<std::pair<std::string, std::size_t>>(std::move(data), 0);
    return [state, step](char* buffer, std::size_t capacity) -> long {
        auto& [text, pos] = *state;
        const std::size_t n = std::min({capacity, step, text.size() - pos});
        std::copy_n(text.data() + pos, n, buffer);
        pos += n;
        return static_cast<long>(n);
    };
}

/// What reading one in-memory file gave.
struct ReadResult {
    importers::Sniffed sniffed;
    importers::ReaderStats stats;
    std::vector<importers::Record> records;
};

/// Sniffs `data` as a file at `path` and reads all its records.
inline ReadResult readAll(const std::string& data, const std::string& path = "file.log", int year = 2026,
                          std::size_t step = 1 << 20)
{
    ReadResult out;
    const std::string head = data.substr(0, std::size_t{64} * 1024);
    out.sniffed = importers::sniff(head, path);
    importers::ReaderOptions options;
    options.wrapWidth = importers::detectWrapWidth(head, out.sniffed);
    options.column = out.sniffed.column;
    options.notebook = out.sniffed.notebook;
    out.stats = importers::readRecords(stringReader(data, step), out.sniffed,
                                       importers::TimeHints{year, engine::NoTime}, options, [&](importers::Record& r) {
                                           out.records.push_back(r);
                                           return true;
                                       });
    return out;
}

/// Writes an archive: format "tar", "tgz", "zip" or "gz" (a single gzip stream of the first member's data).
inline bool writeArchive(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members,
                         const std::string& format)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    archive* a = archive_write_new();
    if (format == "zip") {
        archive_write_set_format_zip(a);
    } else if (format == "gz") {
        archive_write_add_filter_gzip(a);
        archive_write_set_format_raw(a);
    } else {
        if (format == "tgz")
            archive_write_add_filter_gzip(a);
        archive_write_set_format_pax_restricted(a);
    }
    bool ok = archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK;
    for (const auto& [name, data] : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_mtime(e, 1776890000, 0);
        ok = ok && archive_write_header(a, e) == ARCHIVE_OK;
        ok = ok && archive_write_data(a, data.data(), data.size()) == static_cast<la_ssize_t>(data.size());
        archive_entry_free(e);
        if (format == "gz")
            break;
    }
    ok = archive_write_close(a) == ARCHIVE_OK && ok;
    archive_write_free(a);
    return ok;
}

/// Every file under `root` as (prefix + relative path, content), sorted.
inline std::vector<std::pair<std::string, std::string>> folderMembers(const std::filesystem::path& root,
                                                                      const std::string& prefix)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
        if (entry.is_regular_file())
            out.emplace_back(prefix + std::filesystem::relative(entry.path(), root).generic_string(),
                             readText(entry.path().string()));
    std::sort(out.begin(), out.end());
    return out;
}

inline importers::AnalyzeOutcome analyze(const std::string& bundle, const importers::AnalyzeOptions& options = {})
{
    return importers::analyzeBundle(bundle, sourceCatalog(), options);
}

/// Analyses a bundle of one file (`name`, `text`) written to a fresh folder.
inline importers::AnalyzeOutcome analyzeOneFile(const std::string& name, const std::string& text)
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    writeFile(root / name, text);
    return analyze(root.string());
}

/// The verdict JSON with the bundle path blanked (so folder and archive versions compare equal).
inline std::string verdictJson(const std::string& bundle)
{
    auto outcome = analyze(bundle);
    if (!outcome.result)
        return "error: " + outcome.error;
    outcome.result->bundlePath = "<bundle>";
    return engine::dumpJson(engine::verdictToJson(*outcome.result));
}

inline const engine::Symptom* findSymptom(const engine::AnalysisResult& r, const std::string& id)
{
    for (const auto& s : r.symptoms)
        if (s.id == id)
            return &s;
    return nullptr;
}

inline const engine::FileCoverage* fileCoverage(const engine::AnalysisResult& r, const std::string& path)
{
    for (const auto& f : r.fileCoverage)
        if (f.path == path)
            return &f;
    return nullptr;
}

/// The first record whose text starts with `start`, or nullptr.
inline const importers::Record* findText(const std::vector<importers::Record>& records, const std::string& start)
{
    for (const auto& r : records)
        if (r.text.rfind(start, 0) == 0)
            return &r;
    return nullptr;
}

}  // namespace attrib::tests
