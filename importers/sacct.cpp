// SPDX-License-Identifier: GPL-3.0-or-later
// sacct --parsable2 tables and sacct --json documents as scheduler-history records.
//
// Trap (Slurm 22.05): --json reports exit code 0 / SUCCESS for jobs that exited 1; only signals come through.
// The state is reliable in both forms; extractors key on the state, not on the exit code.
#include "importers/json_spans.h"

#include "engine/number.h"
#include "importers/scheduler_records.h"
#include "importers/timestamps.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace attrib::importers::detail {

TimeNs slurmTime(std::string_view s)
{
    if (s.size() < 19 || s == "Unknown" || s == "None")
        return engine::NoTime;
    const auto stamp = parseIso8601(s);
    return stamp && stamp->length == s.size() ? stamp->time : engine::NoTime;
}

namespace {

std::string isoOf(TimeNs t)
{
    if (t == engine::NoTime)
        return {};
    const engine::CivilTime c = engine::civilTime(t);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute,
                  c.second);
    return buf;
}

/// Appends ` key=value` when value is set; spaces inside values become `_`.
void field(std::string& text, const char* key, std::string value)
{
    if (value.empty())
        return;
    std::replace(value.begin(), value.end(), ' ', '_');
    text.append(" ").append(key).append("=").append(value);
}

std::string joinNodes(std::string_view list)
{
    std::string out;
    for (const auto& n : expandHostlist(list))
        out += (out.empty() ? "" : ",") + n;
    return out;
}

}  // namespace

void sacctRecord(const SacctRow& row, Record& out)
{
    const bool job = row.jobId.find('.') == std::string::npos;
    std::string state = row.state;
    std::string by;
    if (const auto pos = state.find(" by "); pos != std::string::npos) {  // "CANCELLED by 1000"
        by = state.substr(pos + 4);
        state.resize(pos);
    }
    out.text = std::string("sacct ") + (job ? "job " : "step ") + row.jobId;
    field(out.text, "state", state);
    field(out.text, "cancelled_by", by);
    field(out.text, "exit", row.exitCode);
    field(out.text, "derived", row.derivedExitCode);
    field(out.text, "nodes", row.nodeList);
    field(out.text, "start", row.start);
    field(out.text, "end", row.end);
    field(out.text, "elapsed", row.elapsed);
    field(out.text, "timelimit", row.timeLimit);
    field(out.text, "reason", row.reason);
    field(out.text, "name", row.name);
    out.kind = SourceKind::Accounting;
    out.time = row.endTime != engine::NoTime ? row.endTime : row.startTime;
    out.timeSource = out.time == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
    if (!job)
        return;
    out.labels["context.scheduler"] = "slurm";
    out.labels["context.job"] = row.jobId;
    out.labels["context.start"] = isoOf(row.startTime);
    out.labels["context.end"] = isoOf(row.endTime);
    out.labels["context.nodes"] = joinNodes(row.nodeList);
}

std::vector<std::string> expandHostlist(std::string_view list, std::size_t cap)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < list.size() && out.size() < cap) {
        // One element: prefix, optional [ranges], up to a comma outside brackets.
        std::size_t end = pos;
        int depth = 0;
        while (end < list.size() && (depth > 0 || list[end] != ',')) {
            depth += list[end] == '[' ? 1 : list[end] == ']' ? -1 : 0;
            ++end;
        }
        const std::string_view item = list.substr(pos, end - pos);
        pos = end + 1;
        const std::size_t open = item.find('[');
        const std::size_t close = item.find(']');
        if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
            if (!item.empty() && item != "None" && item != "(null)")
                out.emplace_back(item);
            continue;
        }
        const std::string prefix(item.substr(0, open));
        const std::string suffix(item.substr(close + 1));
        const std::string_view ranges = item.substr(open + 1, close - open - 1);
        std::size_t r = 0;
        while (r <= ranges.size() && out.size() < cap) {
            std::size_t comma = ranges.find(',', r);
            if (comma == std::string_view::npos)
                comma = ranges.size();
            const std::string_view range = ranges.substr(r, comma - r);
            r = comma + 1;
            const std::size_t dash = range.find('-');
            const std::string_view lo = range.substr(0, dash);
            const std::string_view hi = dash == std::string_view::npos ? lo : range.substr(dash + 1);
            if (lo.empty() || hi.empty() || lo.size() > 9 || hi.size() > 9 ||
                !std::all_of(lo.begin(), lo.end(), ::isdigit) || !std::all_of(hi.begin(), hi.end(), ::isdigit))
                continue;
            const long a = engine::parseInteger<long>(lo).value_or(0);
            const long b = engine::parseInteger<long>(hi).value_or(-1);
            for (long n = a; n <= b && out.size() < cap; ++n) {
                std::string digits = std::to_string(n);
                if (digits.size() < lo.size())
                    digits.insert(0, lo.size() - digits.size(), '0');
                out.push_back(prefix + digits + suffix);
            }
        }
    }
    return out;
}

ReaderStats readSacctParsable(const ReadFn& read, const ReaderOptions& options, const RecordSink& sink)
{
    ReaderStats stats;
    std::vector<std::string> header;
    forEachLine(read, options, stats, [&](const RawLine& raw, std::string_view clean) {
        if (clean.find_first_not_of(" \t") == std::string_view::npos)
            return true;
        std::vector<std::string> cells;
        for (std::size_t pos = 0; pos <= clean.size();) {
            std::size_t bar = clean.find('|', pos);
            if (bar == std::string_view::npos)
                bar = clean.size();
            cells.emplace_back(clean.substr(pos, bar - pos));
            pos = bar + 1;
        }
        if (header.empty() || cells == header) {
            header = cells;
            return true;
        }
        auto cell = [&](const char* name) -> std::string {
            const auto it = std::find(header.begin(), header.end(), name);
            const auto i = static_cast<std::size_t>(it - header.begin());
            return it != header.end() && i < cells.size() ? cells[i] : std::string();
        };
        SacctRow row{cell("JobID"),    cell("JobName"), cell("State"), cell("ExitCode"), cell("DerivedExitCode"),
                     cell("NodeList"), cell("Start"),   cell("End"),   cell("Elapsed"),  cell("Timelimit"),
                     cell("Reason"),   engine::NoTime,  engine::NoTime};
        if (row.jobId.empty() || row.state.empty()) {
            ++stats.skipped;
            stats.note(raw.number, "sacct row without JobID or State");
            return true;
        }
        row.startTime = slurmTime(row.start);
        row.endTime = slurmTime(row.end);
        Record r = lineRecord(raw);
        sacctRecord(row, r);
        stats.stamped += r.time != engine::NoTime ? 1 : 0;
        return sink(r);
    });
    return stats;
}

namespace {

std::string exitText(const nlohmann::json& code)
{
    if (!code.is_object())
        return {};
    const long long rc = jsonInt(jsonMember(code, "return_code"), 0);
    const long long sig = jsonInt(jsonMember(jsonMember(code, "signal"), "signal_id"), 0);
    return std::to_string(rc) + ":" + std::to_string(sig);
}

std::string stateText(const nlohmann::json& state)
{
    if (state.is_string())  // steps in Slurm 22.05: "state": "CANCELLED"
        return state.get<std::string>();
    const nlohmann::json& current = jsonMember(state, "current");
    if (current.is_string())
        return current.get<std::string>();
    std::string out;
    if (current.is_array())
        for (const auto& s : current)
            if (s.is_string())
                out += (out.empty() ? "" : ",") + s.get<std::string>();
    return out;
}

TimeNs epochTime(const nlohmann::json& j)
{
    const long long secs = jsonInt(j, 0);
    return secs > 0 && secs < 7'000'000'000LL ? static_cast<TimeNs>(secs) * engine::NsPerSec : engine::NoTime;
}

SacctRow jsonRow(const nlohmann::json& j, const std::string& id)
{
    SacctRow row;
    row.jobId = id;
    row.name = jsonString(j, "name");
    row.state = stateText(jsonMember(j, "state"));
    row.exitCode = exitText(jsonMember(j, "exit_code"));
    row.derivedExitCode = exitText(jsonMember(j, "derived_exit_code"));
    const nlohmann::json& nodes = jsonMember(j, "nodes");
    row.nodeList = nodes.is_string() ? nodes.get<std::string>() : jsonString(nodes, "range");
    const nlohmann::json& time = jsonMember(j, "time");
    row.startTime = epochTime(jsonMember(time, "start"));
    row.endTime = epochTime(jsonMember(time, "end"));
    row.start = isoOf(row.startTime);
    row.end = isoOf(row.endTime);
    row.reason = jsonString(jsonMember(j, "state"), "reason");
    const long long limit = jsonInt(jsonMember(time, "limit"), -1);
    row.timeLimit = limit >= 0 ? std::to_string(limit) + "min" : std::string();
    return row;
}

}  // namespace

bool sacctJsonRecords(const nlohmann::json& job, std::string_view text, std::size_t begin, std::size_t end,
                      const LineIndex& lines, const RecordSink& sink, ReaderStats& stats)
{
    const std::string id = std::to_string(jsonInt(jsonMember(job, "job_id"), 0));
    Record r;
    r.line = lines.lineOf(begin);
    r.offset = begin;
    r.length = end - begin;
    sacctRecord(jsonRow(job, id), r);
    stats.stamped += r.time != engine::NoTime ? 1 : 0;
    if (!sink(r))
        return false;
    const auto stepsSpan = memberValue(text, JsonSpan{begin, end}, "steps");
    const auto spans = stepsSpan ? arrayElements(text, *stepsSpan) : std::vector<JsonSpan>();
    const nlohmann::json& steps = jsonMember(job, "steps");
    if (!steps.is_array())
        return true;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const nlohmann::json& step = steps[i];
        const nlohmann::json& stepId = jsonMember(jsonMember(step, "step"), "id");
        const std::string sid = stepId.is_string() ? stepId.get<std::string>() : std::to_string(jsonInt(stepId, 0));
        Record s;
        const JsonSpan span = i < spans.size() ? spans[i] : JsonSpan{begin, end};
        s.line = lines.lineOf(span.begin);
        s.offset = span.begin;
        s.length = span.end - span.begin;
        SacctRow row = jsonRow(step, id + "." + sid);
        row.name = jsonString(jsonMember(step, "step"), "name");
        sacctRecord(row, s);
        if (!sink(s))
            return false;
    }
    return true;
}

}  // namespace attrib::importers::detail
