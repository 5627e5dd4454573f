// SPDX-License-Identifier: GPL-3.0-or-later
// Collector coverage summaries and missing-evidence entries.
#include "importers/coverage.h"

#include <algorithm>

namespace attrib::importers::detail {

using namespace attrib::engine;

std::vector<CollectorCoverage> summarize(const std::vector<FileCoverage>& files, const FileNodes& fileNodes)
{
    std::map<SourceKind, CollectorCoverage> byKind;
    std::map<SourceKind, std::set<std::string>> nodes;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& f = files[i];
        if (f.role == FileRole::Metadata)
            continue;
        std::uint64_t elsewhere = 0;  // lines of this file counted under another collector
        if (auto more = fileNodes.find(i); more != fileNodes.end() && f.lines > 0)
            for (const auto& [where, count] : more->second) {
                const auto& [kind, node] = where;
                nodes[kind].insert(node);
                if (kind == f.kind)
                    continue;
                auto& other = byKind[kind];  // records of another collector inside this file
                other.kind = kind;
                if (other.files.empty() || other.files.back() != f.path)
                    other.files.push_back(f.path);
                other.lines += count;
                elsewhere += count;
            }
        auto& c = byKind[f.kind];
        c.kind = f.kind;
        c.files.push_back(f.path);
        if (!f.node.empty())
            nodes[f.kind].insert(f.node);
        c.lines += f.lines - std::min(elsewhere, f.lines);
        c.skipped += f.skipped;
        if (f.first != NoTime)
            c.first = c.first == NoTime ? f.first : std::min(c.first, f.first);
        if (f.last != NoTime)
            c.last = c.last == NoTime ? f.last : std::max(c.last, f.last);
        c.errors.insert(c.errors.end(), f.errors.begin(), f.errors.end());
        if (f.status == CoverageStatus::Errored || f.status == CoverageStatus::Partial)
            c.status = c.status == CoverageStatus::Errored ? c.status : CoverageStatus::Partial;
        if (f.status == CoverageStatus::Skipped && c.status == CoverageStatus::Ok)
            c.status = CoverageStatus::Skipped;
    }
    std::vector<CollectorCoverage> out;
    for (auto& [kind, c] : byKind) {
        c.nodes.assign(nodes[kind].begin(), nodes[kind].end());
        out.push_back(std::move(c));
    }
    return out;
}

/// Nodes the job ran on but for which a collector delivered nothing: listed as missing coverage.
void addMissing(const ExecutionContext& ctx, std::vector<CollectorCoverage>& coverage)
{
    for (SourceKind kind : {SourceKind::Kernel, SourceKind::App}) {
        auto it = std::find_if(coverage.begin(), coverage.end(), [&](const auto& c) { return c.kind == kind; });
        std::vector<std::string> missing;
        for (const auto& node : ctx.nodes) {
            if (it == coverage.end() || std::find(it->nodes.begin(), it->nodes.end(), node) == it->nodes.end())
                missing.push_back(node);
        }
        if (missing.empty() || ctx.nodes.empty())
            continue;
        if (it == coverage.end()) {
            CollectorCoverage c;
            c.kind = kind;
            c.status = CoverageStatus::Missing;
            for (const auto& n : missing)
                c.errors.push_back(std::string(toString(kind)) + " log of " + n + " is missing");
            coverage.push_back(std::move(c));
        } else {
            if (it->status == CoverageStatus::Ok)
                it->status = CoverageStatus::Partial;
            for (const auto& n : missing)
                it->errors.push_back(std::string(toString(kind)) + " log of " + n + " is missing");
        }
    }
    std::sort(coverage.begin(), coverage.end(), [](const auto& a, const auto& b) { return a.kind < b.kind; });
}

}  // namespace attrib::importers::detail
