// SPDX-License-Identifier: GPL-3.0-or-later
// Checking and normalising the Service's observation input; exporting a local analysis in the same format.
#include "service/core/observation_document.h"

#include "engine/json_util.h"

#include <nlohmann/json.hpp>

namespace attrib::service {

namespace {

using nlohmann::json;

const char* typeName(const json& j)
{
    return j.type_name();
}

void requireType(const json& j, const char* key, json::value_t type, const std::string& where, const char* what)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return;
    const bool ok = type == json::value_t::number_integer ? it->is_number_integer()
        : type == json::value_t::number_float             ? it->is_number()
                                                          : it->type() == type;
    if (!ok)
        throw InputError(where + "." + key, std::string("expected ") + what + ", got " + typeName(*it));
}

void checkTime(const json& j, const char* key, const std::string& where)
{
    requireType(j, key, json::value_t::string, where, "an ISO 8601 time string");
    if (j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty() &&
        engine::parseIsoTime(j[key].get<std::string>()) == engine::NoTime)
        throw InputError(where + "." + key,
                         "\"" + engine::jsonEscapedPrefix(j[key].get<std::string>()) +
                             "\" is not an ISO 8601 time (2026-04-22T21:34:20Z)");
}

void checkContext(const json& c, const std::string& where)
{
    if (!c.is_object())
        throw InputError(where, std::string("expected an object, got ") + typeName(c));
    for (const char* key : {"id", "scheduler", "platform"})
        requireType(c, key, json::value_t::string, where, "a string");
    checkTime(c, "start", where);
    checkTime(c, "end", where);
    requireType(c, "nodes", json::value_t::array, where, "an array of node names");
    if (c.contains("nodes") && c["nodes"].is_array())
        for (std::size_t i = 0; i < c["nodes"].size(); ++i)
            if (!c["nodes"][i].is_string())
                throw InputError(where + ".nodes[" + std::to_string(i) + "]", "expected a string");
}

void checkSourceAndPlace(const json& o, const std::string& where)
{
    const auto source = o.find("source");
    if (source == o.end())
        throw InputError(where + ".source", "missing (the collector kind: kernel, syslog, app, ...)");
    if (!source->is_string())
        throw InputError(where + ".source", std::string("expected a string, got ") + typeName(*source));
    if (!engine::sourceKindFromString(source->get<std::string>()))
        throw InputError(where + ".source",
                         "unknown source kind \"" + engine::jsonEscapedPrefix(source->get<std::string>()) + "\"");
    requireType(o, "node", json::value_t::string, where, "a string");
    requireType(o, "rank", json::value_t::number_integer, where, "an integer");
    requireType(o, "gpu", json::value_t::number_integer, where, "an integer");
    requireType(o, "line", json::value_t::number_integer, where, "an integer");
    requireType(o, "file", json::value_t::string, where, "a string");
    requireType(o, "time_ns", json::value_t::number_integer, where, "an integer (nanoseconds since the epoch)");
    checkTime(o, "time", where);
    requireType(o, "time_source", json::value_t::string, where, "a string");
    if (o.contains("time_source") && o["time_source"].is_string()) {
        const std::string ts = o["time_source"].get<std::string>();
        if (ts != "absolute" && ts != "year-inferred" && ts != "boot-relative" && ts != "inherited")
            throw InputError(where + ".time_source",
                             "\"" + engine::jsonEscapedPrefix(ts) +
                                 "\" is not one of absolute, year-inferred, boot-relative, inherited");
    }
}

void checkObservation(const json& o, const std::string& where)
{
    if (!o.is_object())
        throw InputError(where, std::string("expected an observation object, got ") + typeName(o));
    checkSourceAndPlace(o, where);
    requireType(o, "labels", json::value_t::object, where, "an object of strings");
    if (o.contains("labels") && o["labels"].is_object())
        for (const auto& [k, v] : o["labels"].items())
            if (!v.is_string())
                throw InputError(where + ".labels." + k, std::string("expected a string, got ") + typeName(v));
    if (o.contains("metric")) {
        requireType(o, "metric", json::value_t::string, where, "a string");
        if (!o.contains("value") || !o["value"].is_number())
            throw InputError(where + ".value", "a metric sample needs a numeric value");
        return;
    }
    if (!o.contains("text"))
        throw InputError(where + ".text", "missing (a log observation needs text, a metric sample metric + value)");
    requireType(o, "text", json::value_t::string, where, "a string");
}

/// Adds one element (a context or an observation) to the document.
void addElement(const json& element, const std::string& where, ObservationDocument& doc, std::size_t limit)
{
    if (element.is_object() && element.contains("context")) {
        if (doc.hasContext)
            throw InputError(where + ".context", "a second context (one workload per attribution)");
        checkContext(element["context"], where + ".context");
        doc.ndjson.insert(0, json{{"context", element["context"]}}.dump() + "\n");
        doc.hasContext = true;
        return;
    }
    checkObservation(element, where);
    if (limit > 0 && doc.observations >= limit)
        throw InputError(where, "more than " + std::to_string(limit) + " observations in one request");
    doc.ndjson += element.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    ++doc.observations;
}

ObservationDocument parseNdjson(std::string_view body, std::size_t limit)
{
    ObservationDocument doc;
    std::size_t lineNo = 0;
    while (!body.empty()) {
        const std::size_t nl = body.find('\n');
        std::string_view line = body.substr(0, nl);
        body = nl == std::string_view::npos ? std::string_view() : body.substr(nl + 1);
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const json j = json::parse(line, nullptr, false);
        const std::string where = "line " + std::to_string(lineNo);
        if (j.is_discarded())
            throw InputError(where, "not valid JSON");
        addElement(j, where, doc, limit);
    }
    return doc;
}

}  // namespace

ObservationDocument parseObservationBody(std::string_view body, std::size_t maxObservations)
{
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        throw InputError("body", "empty (send a JSON object with context and observations, an array, or NDJSON)");
    if (body[first] != '{' && body[first] != '[')
        throw InputError("body", "expected a JSON object, a JSON array or NDJSON observations");
    const json whole = json::parse(body, nullptr, false);
    if (whole.is_discarded()) {
        if (body[first] == '[')
            throw InputError("body", "malformed JSON array");
        return parseNdjson(body, maxObservations);  // several objects, one a line
    }
    ObservationDocument doc;
    if (whole.is_array()) {
        for (std::size_t i = 0; i < whole.size(); ++i)
            addElement(whole[i], "[" + std::to_string(i) + "]", doc, maxObservations);
    } else if (whole.contains("observations")) {
        const json& list = whole["observations"];
        if (!list.is_array())
            throw InputError("observations", std::string("expected an array, got ") + typeName(list));
        if (whole.contains("context"))
            addElement(json{{"context", whole["context"]}}, "body", doc, maxObservations);
        for (std::size_t i = 0; i < list.size(); ++i)
            addElement(list[i], "observations[" + std::to_string(i) + "]", doc, maxObservations);
    } else {
        addElement(whole, "line 1", doc, maxObservations);  // NDJSON of one line
    }
    if (doc.observations == 0)
        throw InputError("observations", "no observations to analyse");
    return doc;
}

}  // namespace attrib::service
