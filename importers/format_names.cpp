// SPDX-License-Identifier: GPL-3.0-or-later
// Names of the sniffed formats, as coverage and tests spell them.
#include "engine/enum_names.h"
#include "importers/line_format.h"

namespace attrib::importers {

namespace {

constexpr engine::EnumName<Format> kFormats[] = {
    {Format::None, ""},
    {Format::DmesgRaw, "dmesg-raw"},
    {Format::DmesgT, "dmesg-T"},
    {Format::DmesgReltime, "dmesg-reltime"},
    {Format::DmesgIso, "dmesg-iso"},
    {Format::KernelBare, "kernel-bare"},
    {Format::Rfc3164, "rfc3164"},
    {Format::Iso8601, "iso8601"},
    {Format::Rfc5424, "rfc5424"},
    {Format::App, "app"},
    {Format::SlurmOut, "slurm-out"},
    {Format::SlurmDaemon, "slurm-daemon"},
    {Format::FabricManager, "fabricmanager"},
    {Format::Plain, "plain"},
    {Format::JournalJson, "journal-json"},
    {Format::JournalExport, "journal-export"},
    {Format::SacctParsable, "sacct-parsable"},
    {Format::SacctJson, "sacct-json"},
    {Format::K8sEvents, "k8s-events"},
    {Format::KueueWorkload, "kueue-workload"},
    {Format::Prometheus, "prometheus"},
    {Format::MetricsCsv, "metrics-csv"},
    {Format::NvidiaSmiCsv, "nvidia-smi-csv"},
    {Format::ObservationsJsonl, "observations-jsonl"},
    {Format::NvidiaBugReport, "nvidia-bug-report"},
};

}  // namespace

const char* toString(Format format)
{
    return engine::nameIn(kFormats, format);
}

std::optional<Format> formatFrom(std::string_view name)
{
    return engine::valueIn(kFormats, name);
}

}  // namespace attrib::importers
