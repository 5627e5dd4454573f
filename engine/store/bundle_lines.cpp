// SPDX-License-Identifier: GPL-3.0-or-later
// Bundle files as a LineSource for the search index.
#include "engine/store/bundle_lines.h"

#include "importers/bundle_access.h"
#include "importers/line_reader.h"

#include <map>
#include <memory>

namespace attrib::store {

LineSource bundleLineSource(const engine::AnalysisResult& result)
{
    std::map<std::string, const engine::FileCoverage*> coverage;
    for (const auto& c : result.fileCoverage)
        coverage[c.path] = &c;
    auto files = std::make_shared<std::vector<engine::BundleFile>>(result.files);
    auto skipped = std::make_shared<std::vector<bool>>();
    LineSource source;
    for (const auto& f : result.files) {
        const auto it = coverage.find(f.path);
        skipped->push_back(it != coverage.end() && it->second->status == engine::CoverageStatus::Skipped);
        source.files.push_back({f.path, it == coverage.end() ? std::string() : it->second->node});
    }
    source.readLines = [files, skipped](std::size_t index, const LineVisitor& visit) {
        if (skipped->at(index))
            return std::string("skipped by the collectors (binary, empty or unreadable)");
        std::string error;
        const auto read = importers::openBundleFile(files->at(index), error);
        if (!read)
            return error;
        const auto stats = importers::readLines(
            read, [&visit](const importers::RawLine& l) { return visit(l.number, l.offset, l.bytes); });
        return stats.error ? stats.errorText : std::string();
    };
    source.readBytes = [files](std::size_t index, std::uint64_t offset, std::uint64_t length, std::string& error) {
        return importers::readBundleBytes(files->at(index), offset, length, error);
    };
    return source;
}

}  // namespace attrib::store
