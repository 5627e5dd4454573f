// SPDX-License-Identifier: GPL-3.0-or-later
// Names of the model's enumerations, as written in verdict JSON and shown in views.
#include "engine/model.h"

#include <array>

namespace attrib::engine {

namespace {
constexpr std::array<const char*, SourceKindCount> SourceKindNames = {
    "kernel", "syslog", "app", "fabricmanager", "slurm", "accounting", "metrics", "inventory", "text", "unknown"};
}

const char* toString(SourceKind kind)
{
    return SourceKindNames[static_cast<std::size_t>(kind)];
}

std::optional<SourceKind> sourceKindFromString(const std::string& name)
{
    for (std::size_t i = 0; i < SourceKindNames.size(); ++i) {
        if (name == SourceKindNames[i])
            return static_cast<SourceKind>(i);
    }
    return std::nullopt;
}

const char* toString(TimeSource source)
{
    switch (source) {
    case TimeSource::Absolute: return "absolute";
    case TimeSource::YearInferred: return "year-inferred";
    case TimeSource::BootRelative: return "boot-relative";
    case TimeSource::Inherited: return "inherited";
    case TimeSource::None: return "none";
    }
    return "none";
}

void makeJobWide(Event& e)
{
    e.node = Name();
    e.gpu = -1;
    e.rank = -1;
    e.attrs["job_wide"] = "true";
}

const char* toString(SymptomStatus status)
{
    switch (status) {
    case SymptomStatus::Active: return "active";
    case SymptomStatus::Demoted: return "demoted";
    case SymptomStatus::Scrubbed: return "scrubbed";
    }
    return "active";
}

const char* toString(CoverageStatus status)
{
    switch (status) {
    case CoverageStatus::Ok: return "ok";
    case CoverageStatus::Partial: return "partial";
    case CoverageStatus::Errored: return "errored";
    case CoverageStatus::Missing: return "missing";
    case CoverageStatus::Skipped: return "skipped";
    }
    return "ok";
}

const char* toString(FileRole role)
{
    switch (role) {
    case FileRole::Evidence: return "evidence";
    case FileRole::Metadata: return "metadata";
    case FileRole::Workload: return "workload";
    }
    return "evidence";
}

}  // namespace attrib::engine
