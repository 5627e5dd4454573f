// SPDX-License-Identifier: GPL-3.0-or-later
// Events to and from the case store's JSON body.
#include "engine/store/case_events.h"

#include <nlohmann/json.hpp>

#include <map>
#include <utility>

using nlohmann::json;
using nlohmann::ordered_json;

namespace attrib::store {

namespace {

std::string text(const json& j, const char* key)
{
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

template <typename T> T number(const json& j, const char* key, T fallback)
{
    return j.contains(key) && j[key].is_number_integer() ? j[key].get<T>() : fallback;
}

engine::TimeSource timeSourceOf(const std::string& name)
{
    for (auto s : {engine::TimeSource::Absolute, engine::TimeSource::YearInferred, engine::TimeSource::BootRelative,
                   engine::TimeSource::Inherited})
        if (name == engine::toString(s))
            return s;
    return engine::TimeSource::None;
}

ordered_json eventJson(const engine::Event& e)
{
    ordered_json j;
    j["id"] = e.id;
    j["type"] = e.type;
    j["rule"] = e.rule;
    j["symptom"] = e.symptom;
    j["node"] = e.node;
    j["gpu"] = e.gpu;
    j["rank"] = e.rank;
    j["link"] = e.link;
    j["time"] = e.time == engine::NoTime ? ordered_json(nullptr) : ordered_json(e.time);
    j["time_source"] = engine::toString(e.timeSource);
    ordered_json attrs = ordered_json::object();  // an object, key order kept (the pairs would make an array)
    for (const auto& [k, v] : e.attrs)
        attrs[k] = v;
    j["attributes"] = std::move(attrs);
    j["observations"] = e.observations;
    j["sympathetic"] = e.sympathetic;
    if (e.folded > 0)  // a storm's counted tail (cases saved before folding have none)
        j["folded"] = e.folded;
    return j;
}

engine::Event eventOf(const json& j)
{
    engine::Event e;
    e.id = number<std::uint64_t>(j, "id", 0);
    e.type = text(j, "type");
    e.rule = text(j, "rule");
    e.symptom = text(j, "symptom");
    e.node = text(j, "node");
    e.gpu = number<int>(j, "gpu", -1);
    e.rank = number<int>(j, "rank", -1);
    e.link = text(j, "link");
    e.time = number<engine::TimeNs>(j, "time", engine::NoTime);
    e.timeSource = timeSourceOf(text(j, "time_source"));
    if (j.contains("attributes") && j["attributes"].is_object())
        for (const auto& [k, v] : j["attributes"].items())
            if (v.is_string())
                e.attrs[k] = v.get<std::string>();
    if (j.contains("observations") && j["observations"].is_array())
        for (const auto& o : j["observations"])
            if (o.is_number_unsigned())
                e.observations.push_back(o.get<std::uint64_t>());
    e.sympathetic = j.contains("sympathetic") && j["sympathetic"].is_boolean() && j["sympathetic"].get<bool>();
    e.folded = number<std::uint64_t>(j, "folded", 0);
    return e;
}

}  // namespace

std::string eventsToJson(const engine::AnalysisResult& r)
{
    if (r.events.empty())
        return {};
    ordered_json events = ordered_json::array();
    for (const auto& e : r.events)
        events.push_back(eventJson(e));
    ordered_json links = ordered_json::object();
    for (const auto& s : r.symptoms)
        if (!s.events.empty())
            links[s.id] = s.events;
    ordered_json body;
    body["events"] = std::move(events);
    body["symptom_events"] = std::move(links);
    return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool restoreEvents(engine::AnalysisResult& r, const std::string& body)
{
    if (body.empty())
        return false;
    const json j = json::parse(body, nullptr, false);
    if (!j.is_object() || !j.contains("events") || !j["events"].is_array())
        return false;
    std::vector<engine::Event> events;
    for (const auto& e : j["events"])
        if (e.is_object())
            events.push_back(eventOf(e));
    std::map<std::string, std::vector<std::uint64_t>> links;
    if (j.contains("symptom_events") && j["symptom_events"].is_object())
        for (const auto& [id, ids] : j["symptom_events"].items())
            if (ids.is_array())
                for (const auto& n : ids)
                    if (n.is_number_unsigned())
                        links[id].push_back(n.get<std::uint64_t>());
    r.events = std::move(events);
    for (auto& s : r.symptoms)
        if (const auto it = links.find(s.id); it != links.end())
            s.events = it->second;
    return true;
}

}  // namespace attrib::store
