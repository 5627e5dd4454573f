// SPDX-License-Identifier: GPL-3.0-or-later
// Running the engine on the Service's input through a private temporary bundle.
#include "service/core/attribution_runner.h"

#include "engine/store/case_record.h"
#include "engine/verdict_json.h"
#include "importers/analyzer.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace attrib::service {

namespace {

namespace fs = std::filesystem;

/// A folder only this process can read, removed with everything in it when the object goes.
class TempFolder {
public:
    TempFolder()
    {
        std::string pattern = (fs::temp_directory_path() / "attrib-serve-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a temporary folder in " + fs::temp_directory_path().string());
        m_path = pattern;
    }
    ~TempFolder()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

void writeFile(const fs::path& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

Attribution analyse(const std::string& path, const engine::CatalogPtr& catalog, const engine::CancelFlag* cancel)
{
    importers::AnalyzeOptions options;
    options.cancel = cancel;
    Attribution a;
    const auto outcome = importers::analyzeBundle(path, catalog, options);
    a.cancelled = outcome.cancelled;
    a.error = outcome.error;
    if (!outcome.result)
        return a;
    a.result = outcome.result;
    a.verdictJson = engine::dumpJson(engine::verdictToJson(*a.result));
    a.bundleHash = store::bundleContentHash(*a.result);  // reads the files: before the folder goes
    return a;
}

const char* archiveName(ArchiveKind kind)
{
    switch (kind) {
    case ArchiveKind::Tar: return "upload.tar";
    case ArchiveKind::TarGz: return "upload.tar.gz";
    case ArchiveKind::Zip: break;
    }
    return "upload.zip";
}

}  // namespace

Attribution attributeObservations(const ObservationDocument& doc, const engine::CatalogPtr& catalog,
                                  const engine::CancelFlag* cancel)
{
    TempFolder dir;
    writeFile(dir.path() / "observations.jsonl", doc.ndjson);
    return analyse(dir.path().string(), catalog, cancel);
}

Attribution attributeArchive(std::string_view bytes, ArchiveKind kind, const engine::CatalogPtr& catalog,
                             const engine::CancelFlag* cancel)
{
    TempFolder dir;
    const fs::path file = dir.path() / archiveName(kind);
    writeFile(file, bytes);
    return analyse(file.string(), catalog, cancel);
}

std::string localVerdictJson(const ObservationDocument& doc, const engine::CatalogPtr& catalog)
{
    const Attribution a = attributeObservations(doc, catalog);
    if (!a.result)
        throw std::runtime_error("the local analysis of the observations failed: " + a.error);
    return a.verdictJson;
}

store::CaseRecord attributionRecord(const Attribution& a, const ObservationDocument* doc, const std::string& source,
                                    engine::TimeNs receivedAt)
{
    store::CaseRecord record = store::makeCaseRecord(*a.result, a.bundleHash, receivedAt);
    record.summary.bundlePath = source;
    record.verdictJson = a.verdictJson;
    if (doc) {
        record.observations = doc->ndjson;
        record.observationCount = doc->observations;
    }
    return record;
}

}  // namespace attrib::service
