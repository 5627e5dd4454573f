// SPDX-License-Identifier: GPL-3.0-or-later
// Sniffing of structured formats by content: key names in JSON heads, table headers, exposition lines.
#include "importers/sniff_structured.h"

#include "importers/log_export_csv.h"

#include "importers/metric_parse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace attrib::importers::detail {

namespace {

bool contains(std::string_view s, std::string_view needle)
{
    return s.find(needle) != std::string_view::npos;
}

Sniffed make(SourceKind kind, Format format, std::string reason)
{
    return Sniffed{kind, format, std::move(reason)};
}

/// The first non-blank line of `head` (without `\r`), and whether it ended with a newline inside the head.
std::string_view firstLine(std::string_view head, bool& complete)
{
    std::size_t pos = 0;
    while (pos < head.size()) {
        std::size_t end = head.find('\n', pos);
        complete = end != std::string_view::npos;
        if (!complete)
            end = head.size();
        std::string_view line = head.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") != std::string_view::npos)
            return line;
        pos = end + 1;
    }
    complete = false;
    return {};
}

/// A JSON key followed (after optional spaces) by a colon and `value`: `"kind": "Workload"`.
bool hasKeyValue(std::string_view head, std::string_view key, std::string_view value)
{
    const std::string quoted = "\"" + std::string(key) + "\"";
    for (std::size_t pos = head.find(quoted); pos != std::string_view::npos; pos = head.find(quoted, pos + 1)) {
        std::size_t i = pos + quoted.size();
        while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
            ++i;
        if (i >= head.size() || head[i] != ':')
            continue;
        ++i;
        while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
            ++i;
        if (head.substr(i, value.size()) == value)
            return true;
    }
    return false;
}

std::optional<Sniffed> sniffJsonLine(std::string_view line)
{
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return std::nullopt;
    if (j.contains("__REALTIME_TIMESTAMP") && j.contains("MESSAGE")) {
        const bool kernel = j.value("_TRANSPORT", nlohmann::json()).is_string() && j["_TRANSPORT"] == "kernel";
        return make(kernel ? SourceKind::Kernel : SourceKind::Syslog, Format::JournalJson,
                    "journalctl -o json entries");
    }
    if (j.contains("context") || j.contains("text") || j.contains("metric"))
        return make(SourceKind::Unknown, Format::ObservationsJsonl, "pre-normalized observations (observations.jsonl)");
    return std::nullopt;
}

}  // namespace

std::optional<Sniffed> sniffStructuredText(std::string_view head)
{
    // The report's own header, not any mention: the driver's crash-dump note in dmesg says "run nvidia-bug-report.sh".
    if (contains(head, "nvidia-bug-report.sh Version") || contains(head, "NVIDIA bug report log file") ||
        contains(head, "==============NVSMI LOG=============="))
        return make(SourceKind::Inventory, Format::NvidiaBugReport,
                    "nvidia-bug-report log (kernel log and nvidia-smi -q)");
    bool complete = false;
    const std::string_view first = firstLine(head, complete);
    if (first.substr(0, 9) == "__CURSOR=" || first.substr(0, 21) == "__REALTIME_TIMESTAMP=") {
        const bool kernel = contains(head, "\n_TRANSPORT=kernel\n");
        return make(kernel ? SourceKind::Kernel : SourceKind::Syslog, Format::JournalExport,
                    "journalctl -o export entries");
    }
    return std::nullopt;
}

std::optional<Sniffed> sniffJson(std::string_view head)
{
    // Events first: an event about a Workload (`kubectl get events -o json` in a Kueue namespace) names the kind
    // and the kueue.x-k8s.io group in its involvedObject, and is still an event.
    if (contains(head, "\"involvedObject\"") || hasKeyValue(head, "kind", "\"EventList\"") ||
        hasKeyValue(head, "kind", "\"Event\""))
        return make(SourceKind::Accounting, Format::K8sEvents, "Kubernetes events JSON");
    if (hasKeyValue(head, "kind", "\"Workload\"") || hasKeyValue(head, "kind", "\"WorkloadList\"") ||
        contains(head, "\"kueue.x-k8s.io/"))
        return make(SourceKind::Accounting, Format::KueueWorkload, "Kueue Workload JSON");
    if (contains(head, "\"jobs\"") && (contains(head, "\"job_id\"") || contains(head, "\"Slurm\"")))
        return make(SourceKind::Accounting, Format::SacctJson, "sacct --json");
    bool complete = false;
    const std::string_view first = firstLine(head, complete);
    if (complete)
        return sniffJsonLine(first);
    return std::nullopt;
}

std::vector<std::string> splitCsv(std::string_view line, char separator)
{
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i <= line.size(); ++i) {
        const char c = i < line.size() ? line[i] : separator;
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == separator || i == line.size()) {
            const std::size_t a = field.find_first_not_of(" \t");
            const std::size_t b = field.find_last_not_of(" \t\r");
            fields.push_back(a == std::string::npos ? std::string() : field.substr(a, b - a + 1));
            field.clear();
        } else {
            field += c;
        }
    }
    return fields;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

namespace {

bool isTimeColumn(const std::string& name)
{
    return name == "timestamp" || name == "time" || name == "ts" || name == "date" || name == "datetime" ||
        name == "@timestamp";
}

std::optional<Sniffed> sniffCsv(std::string_view head, std::string_view header)
{
    const auto columns = splitCsv(header);
    if (columns.size() < 2)
        return std::nullopt;
    if (isLogExportHeader(header))
        return make(SourceKind::Text, Format::Plain, "read as plain text: log export CSV with a message column");
    bool time = false;
    bool index = false;
    bool pci = false;
    for (const auto& c : columns) {
        const std::string name = lower(c);
        time = time || isTimeColumn(name);
        index = index || name == "index";
        pci = pci || name.rfind("pci.bus_id", 0) == 0;
    }
    if (time)
        return make(SourceKind::Metrics, Format::MetricsCsv, "metric CSV with a time column");
    if (index && pci)
        return make(SourceKind::Inventory, Format::NvidiaSmiCsv, "nvidia-smi --query-gpu CSV (index, pci.bus_id)");
    (void)head;
    return std::nullopt;
}

/// Exposition format: `# HELP` / `# TYPE` comments or a majority of `name{...} value` lines.
bool looksLikePrometheus(std::string_view head)
{
    int samples = 0;
    int other = 0;
    std::size_t pos = 0;
    for (int lines = 0; pos < head.size() && lines < 50; ++lines) {
        std::size_t end = head.find('\n', pos);
        if (end == std::string_view::npos)
            end = head.size();
        const std::string_view line = head.substr(pos, end - pos);
        pos = end + 1;
        if (line.empty())
            continue;
        PromSample sample;
        if (line.substr(0, 7) == "# HELP " || line.substr(0, 7) == "# TYPE " || parsePrometheusLine(line, sample))
            ++samples;
        else
            ++other;
    }
    return samples > 0 && samples >= 2 * other;
}

}  // namespace

std::optional<Sniffed> sniffTable(std::string_view head)
{
    bool complete = false;
    const std::string_view first = firstLine(head, complete);
    if (first.substr(0, 6) == "JobID|" || contains(first, "|JobID|") || first.substr(0, 9) == "JobIDRaw|")
        return make(SourceKind::Accounting, Format::SacctParsable, "sacct --parsable2 table");
    if (looksLikePrometheus(head))
        return make(SourceKind::Metrics, Format::Prometheus, "Prometheus / DCGM exporter samples");
    if (complete && first.find(',') != std::string_view::npos)
        return sniffCsv(head, first);
    return std::nullopt;
}

}  // namespace attrib::importers::detail
