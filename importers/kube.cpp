// SPDX-License-Identifier: GPL-3.0-or-later
// Kubernetes events and Kueue Workloads as scheduler-history records, and the JSON document reader that
// dispatches sacct --json, events lists and workload lists element by element.
#include "importers/json_spans.h"
#include "importers/scheduler_records.h"
#include "importers/timestamps.h"

#include "engine/json_util.h"

#include <algorithm>

namespace attrib::importers::detail {

namespace {

std::string oneLine(std::string s)
{
    for (auto& c : s)
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
    return s;
}

TimeNs kubeTime(const nlohmann::json& j, std::initializer_list<const char*> keys)
{
    for (const char* key : keys)
        if (const TimeNs t = isoTime(jsonString(j, key)); t != engine::NoTime)
            return t;
    return engine::NoTime;
}

}  // namespace

bool kubeEventRecords(const nlohmann::json& event, const Record& base, const RecordSink& sink, ReaderStats& stats)
{
    if (!event.is_object())
        return true;
    const nlohmann::json& object = jsonMember(event, "involvedObject");
    const nlohmann::json& source = jsonMember(event, "source");
    Record r = base;
    r.kind = SourceKind::Accounting;
    std::string what = jsonString(object, "kind");
    if (!jsonString(object, "namespace").empty())
        what += "/" + jsonString(object, "namespace");
    what += "/" + jsonString(object, "name");
    r.text = oneLine("k8s event " + jsonString(event, "type") + " " + jsonString(event, "reason") + " " + what + ": " +
                     jsonString(event, "message"));
    r.host = jsonString(source, "host");
    if (r.host.empty() && jsonString(object, "kind") == "Node")
        r.host = jsonString(object, "name");
    if (!r.host.empty())
        r.text += " (on " + r.host + ")";
    r.time = kubeTime(event, {"lastTimestamp", "eventTime", "firstTimestamp"});
    if (r.time == engine::NoTime)
        r.time = kubeTime(jsonMember(event, "metadata"), {"creationTimestamp"});
    r.timeSource = r.time == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
    stats.stamped += r.time != engine::NoTime ? 1 : 0;
    Record copy = r;
    return sink(copy);
}

bool kueueWorkloadRecords(const nlohmann::json& workload, std::string_view text, std::size_t begin, std::size_t end,
                          const LineIndex& lines, const RecordSink& sink, ReaderStats& stats)
{
    if (!workload.is_object())
        return true;
    const nlohmann::json& meta = jsonMember(workload, "metadata");
    const std::string name = jsonString(meta, "namespace") + "/" + jsonString(meta, "name");
    const nlohmann::json& status = jsonMember(workload, "status");
    const nlohmann::json& conditions = jsonMember(status, "conditions");
    if (!conditions.is_array())
        return true;
    const auto statusSpan = memberValue(text, JsonSpan{begin, end}, "status");
    const auto condSpan = statusSpan ? memberValue(text, *statusSpan, "conditions") : std::nullopt;
    const auto spans = condSpan ? arrayElements(text, *condSpan) : std::vector<JsonSpan>();
    TimeNs admitted = engine::NoTime;
    TimeNs finished = engine::NoTime;
    for (std::size_t i = 0; i < conditions.size(); ++i) {
        const nlohmann::json& c = conditions[i];
        const JsonSpan span = i < spans.size() ? spans[i] : JsonSpan{begin, end};
        Record r;
        r.line = lines.lineOf(span.begin);
        r.offset = span.begin;
        r.length = span.end - span.begin;
        r.kind = SourceKind::Accounting;
        const std::string type = jsonString(c, "type");
        r.text = oneLine("kueue workload " + name + " condition " + type + "=" + jsonString(c, "status") +
                         " reason=" + jsonString(c, "reason") + ": " + jsonString(c, "message"));
        r.time = kubeTime(c, {"lastTransitionTime"});
        r.timeSource = r.time == engine::NoTime ? TimeSource::None : TimeSource::Absolute;
        if (type == "Admitted" && jsonString(c, "status") == "True")
            admitted = r.time;
        if (type == "Finished" && jsonString(c, "status") == "True")
            finished = r.time;
        r.labels["context.scheduler"] = "kueue";
        r.labels["context.job"] = name;
        if (admitted != engine::NoTime)
            r.labels["context.start"] = engine::formatTime(admitted);
        if (finished != engine::NoTime)
            r.labels["context.end"] = engine::formatTime(finished);
        stats.stamped += r.time != engine::NoTime ? 1 : 0;
        if (!sink(r))
            return false;
    }
    return true;
}

namespace {

/// Elements of a document: `items` / `jobs` arrays, a bare array, or the object itself.
std::vector<JsonSpan> documentElements(std::string_view text, JsonSpan top, const char* listKey)
{
    if (text[top.begin] == '[')
        return arrayElements(text, top);
    if (const auto list = memberValue(text, top, listKey))
        return arrayElements(text, *list);
    if (std::string_view(listKey) == "jobs")
        return {};
    return {top};
}

bool readElement(const Sniffed& sniffed, std::string_view text, JsonSpan span, const LineIndex& lines,
                 const RecordSink& sink, ReaderStats& stats)
{
    const nlohmann::json j = nlohmann::json::parse(text.substr(span.begin, span.end - span.begin), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        ++stats.skipped;
        stats.note(lines.lineOf(span.begin), "unparsable JSON element");
        return true;
    }
    try {
        if (sniffed.format == Format::SacctJson)
            return sacctJsonRecords(j, text, span.begin, span.end, lines, sink, stats);
        if (sniffed.format == Format::KueueWorkload)
            return kueueWorkloadRecords(j, text, span.begin, span.end, lines, sink, stats);
        Record base;
        base.line = lines.lineOf(span.begin);
        base.offset = span.begin;
        base.length = span.end - span.begin;
        return kubeEventRecords(j, base, sink, stats);
    } catch (const std::exception& e) {  // a field of an unexpected type: the element is skipped, not the file
        ++stats.skipped;
        stats.note(lines.lineOf(span.begin), std::string("unusable element: ") + e.what());
        return true;
    }
}

}  // namespace

ReaderStats readJsonDocument(const ReadFn& read, const Sniffed& sniffed, const ReaderOptions& options,
                             const RecordSink& sink)
{
    ReaderStats stats;
    std::string text;
    std::vector<char> chunk(std::max<std::size_t>(options.chunkBytes, 16));
    for (;;) {
        const long got = read(chunk.data(), chunk.size());
        if (got < 0) {
            stats.error = true;
            stats.errorText = "read error";
            break;
        }
        if (got == 0)
            break;
        if (text.size() + static_cast<std::size_t>(got) > options.maxDocumentBytes) {
            stats.error = true;
            stats.errorText =
                "JSON document larger than " + std::to_string(options.maxDocumentBytes >> 20) + " MiB; not parsed";
            return stats;
        }
        text.append(chunk.data(), static_cast<std::size_t>(got));
    }
    stats.bytes = text.size();
    const LineIndex lines(text);
    stats.lines = lines.lineOf(text.size());
    const char* listKey = sniffed.format == Format::SacctJson ? "jobs" : "items";
    for (const JsonSpan top : topLevelValues(text)) {
        for (const JsonSpan element : documentElements(text, top, listKey)) {
            if (!readElement(sniffed, text, element, lines, sink, stats)) {
                stats.stopped = true;
                return stats;
            }
        }
    }
    return stats;
}

}  // namespace attrib::importers::detail
