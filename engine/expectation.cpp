// SPDX-License-Identifier: GPL-3.0-or-later
// expected.json comparison.
#include "engine/expectation.h"

#include <cmath>

namespace attrib::engine {

namespace {

std::string show(const nlohmann::ordered_json& j)
{
    return j.is_null() ? "null" : j.dump();
}

void compareRootCause(const nlohmann::ordered_json& got, const nlohmann::json& want, std::vector<std::string>& out)
{
    if (got.is_null()) {
        out.push_back("root_cause: expected " + want.dump() + " but there is none");
        return;
    }
    for (const auto& [key, value] : want.items()) {
        const auto& have = got.contains(key) ? got[key] : nlohmann::ordered_json();
        if (have.dump() != value.dump())
            out.push_back("root_cause." + key + ": expected " + value.dump() + " but got " + show(have));
    }
}

void compareSymptoms(const nlohmann::ordered_json& symptoms, const nlohmann::json& want, std::vector<std::string>& out)
{
    for (const auto& [name, fields] : want.items()) {
        int seen = 0;
        for (const auto& s : symptoms) {
            if (s["name"].get<std::string>() != name)
                continue;
            ++seen;
            for (const auto& [key, value] : fields.items()) {
                if (key == "interesting") {
                    for (const auto& e : s["evidence"])
                        if (e["interesting"].dump() != value.dump())
                            out.push_back(s["id"].get<std::string>() + ": evidence not marked interesting");
                    continue;
                }
                if (!s.contains(key) || s[key].dump() != value.dump())
                    out.push_back(s["id"].get<std::string>() + "." + key + ": expected " + value.dump() + " but got " +
                                  (s.contains(key) ? show(s[key]) : std::string("<missing>")));
            }
        }
        if (seen == 0 && !(fields.is_object() && fields.value("status", "") == "absent"))
            out.push_back("symptom " + name + ": expected but not raised");
    }
}

void compareClockOffsets(const nlohmann::ordered_json& got, const nlohmann::json& want, std::vector<std::string>& out)
{
    for (const auto& [node, spec] : want.items()) {
        const double offset = spec.value("offset_s", 0.0);
        const double tolerance = spec.value("tolerance_s", 1.0);
        bool found = false;
        for (const auto& o : got) {
            if (o["node"].get<std::string>() != node)
                continue;
            found = true;
            const double measured = o["offset_ms"].get<double>() / 1000.0;
            if (std::abs(measured - offset) > tolerance || !o["applied"].get<bool>())
                out.push_back("clock offset of " + node + ": expected " + std::to_string(offset) +
                              " s (applied) but got " + std::to_string(measured) + " s" +
                              (o["applied"].get<bool>() ? "" : " (not applied)"));
        }
        if (!found)
            out.push_back("clock offset of " + node + ": not measured");
    }
}

}  // namespace

std::vector<std::string> compareWithExpected(const nlohmann::ordered_json& verdict, const nlohmann::json& expected)
{
    std::vector<std::string> out;
    for (const char* key : {"terminal_state", "sub_domain"}) {
        if (expected.contains(key) && verdict[key].dump() != expected[key].dump())
            out.push_back(std::string(key) + ": expected " + expected[key].dump() + " but got " + show(verdict[key]));
    }
    if (expected.contains("root_cause"))
        compareRootCause(verdict["root_cause"], expected["root_cause"], out);
    if (expected.contains("candidates")) {
        const auto& want = expected["candidates"];
        const auto& got = verdict["candidates"];
        if (want.is_number() && got.size() != want.get<std::size_t>())
            out.push_back("candidates: expected " + want.dump() + " but got " + std::to_string(got.size()));
        if (want.is_array()) {
            std::vector<std::string> nodes;
            for (const auto& c : got)
                nodes.push_back(c["node"].is_string() ? c["node"].get<std::string>() : "");
            for (const auto& n : want)
                if (std::find(nodes.begin(), nodes.end(), n.get<std::string>()) == nodes.end())
                    out.push_back("candidates: expected one on " + n.get<std::string>());
        }
    }
    if (expected.contains("symptoms"))
        compareSymptoms(verdict["symptoms"], expected["symptoms"], out);
    if (expected.contains("clock_offsets"))
        compareClockOffsets(verdict["clock_offsets"], expected["clock_offsets"], out);
    return out;
}

}  // namespace attrib::engine
