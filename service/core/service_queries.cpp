// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's read operations: listing and fetching stored attributions, the catalog.
#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/verdict.h"
#include "engine/verdict_json.h"
#include "service/core/service_api.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace attrib::service {

namespace {

using nlohmann::ordered_json;

constexpr std::size_t DefaultPage = 50;
constexpr std::size_t MaxPage = 500;

ordered_json nullable(const std::string& s)
{
    return s.empty() ? ordered_json(nullptr) : ordered_json(s);
}

ordered_json summaryJson(const store::CaseSummary& c)
{
    ordered_json j;
    j["id"] = c.id;
    j["received_at"] = engine::formatTime(c.createdAt);
    j["source"] = c.bundlePath;
    j["workload_id"] = nullable(c.workloadId);
    j["terminal_state"] = c.terminalState;
    j["sub_domain"] = c.subDomain;
    j["root_node"] = nullable(c.rootNode);
    j["root_symptom"] = nullable(c.rootSymptom);
    j["engine_version"] = c.engineVersion;
    j["catalog_version"] = c.catalogVersion;
    j["catalog_hash"] = c.catalogHash;
    return j;
}

/// Reads the list filter from the query; nullopt + `problem` set on a bad value.
std::optional<store::CaseFilter> listFilter(const std::map<std::string, std::string>& q, Reply& problem)
{
    store::CaseFilter f;
    for (const auto& [key, value] : q) {
        if (key == "terminal_state" || key == "sub_domain") {
            const auto& words = key == "terminal_state" ? engine::TerminalStates : engine::SubDomains;
            if (std::find(words.begin(), words.end(), value) == words.end()) {
                problem = errorReply(400, "\"" + engine::jsonEscapedPrefix(value) + "\" is not a " + key, key);
                return std::nullopt;
            }
            (key == "terminal_state" ? f.terminalState : f.subDomain) = value;
        } else if (key == "node") {
            f.node = value;
        } else if (key == "since") {
            f.since = engine::isDigit(value.empty() ? 'x' : value[0])
                ? engine::parseInteger<engine::TimeNs>(value).value_or(engine::NoTime)
                : engine::parseIsoTime(value);
            if (f.since == engine::NoTime) {
                problem = errorReply(400, "expected an ISO 8601 time or nanoseconds since the epoch", "since");
                return std::nullopt;
            }
        } else if (key == "limit") {
            const auto n = engine::parseIntegerIn<std::size_t>(value, 1, MaxPage);
            if (!n) {
                problem = errorReply(400, "expected a whole number from 1 to " + std::to_string(MaxPage), "limit");
                return std::nullopt;
            }
            f.limit = *n;
        } else if (key == "cursor") {
            const auto id = engine::parseIntegerIn<std::int64_t>(value, 1, INT64_MAX);
            if (!id) {
                problem = errorReply(400, "expected the next_cursor of the previous page", "cursor");
                return std::nullopt;
            }
            f.beforeId = *id;
        } else {
            problem = errorReply(400, "unknown query parameter", key);
            return std::nullopt;
        }
    }
    if (f.limit == 0)
        f.limit = DefaultPage;
    return f;
}

std::optional<std::int64_t> caseId(const std::string& id, Reply& problem)
{
    const auto n = engine::parseIntegerIn<std::int64_t>(id, 1, INT64_MAX);
    if (!n)
        problem = errorReply(400, "an attribution id is a positive whole number", "id");
    return n;
}

}  // namespace

Reply listAttributions(const std::map<std::string, std::string>& query, StorePool& store)
{
    Reply problem;
    auto filter = listFilter(query, problem);
    if (!filter)
        return problem;
    const std::size_t page = filter->limit;
    filter->limit = page + 1;  // one more tells whether there is a next page
    const auto cases = store.with([&](store::CaseStore& s) { return s.listCases(*filter); });
    ordered_json j;
    j["attributions"] = ordered_json::array();
    for (std::size_t i = 0; i < cases.size() && i < page; ++i)
        j["attributions"].push_back(summaryJson(cases[i]));
    j["next_cursor"] = cases.size() > page ? ordered_json(std::to_string(cases[page - 1].id)) : ordered_json(nullptr);
    Reply r;
    r.body = engine::dumpJson(j);
    return r;
}

Reply getAttribution(const std::string& id, StorePool& store)
{
    Reply problem;
    const auto n = caseId(id, problem);
    if (!n)
        return problem;
    const auto record = store.with([&](store::CaseStore& s) { return s.getCase(*n); });
    if (!record)
        return errorReply(404, "no attribution " + std::to_string(*n), "id");
    Reply r;
    r.body = record->verdictJson;
    r.headers.push_back({"X-Attribution-Id", std::to_string(*n)});
    r.headers.push_back({"X-Received-At", engine::formatTime(record->summary.createdAt)});
    return r;
}

Reply getObservations(const std::string& id, StorePool& store)
{
    Reply problem;
    const auto n = caseId(id, problem);
    if (!n)
        return problem;
    auto body = store.with([&](store::CaseStore& s) { return s.caseObservations(*n); });
    if (!body)
        return errorReply(404, "no attribution " + std::to_string(*n), "id");
    Reply r;
    r.contentType = "application/x-ndjson";
    r.body = std::move(*body);
    return r;
}

std::string catalogProblem(const engine::Catalog& catalog)
{
    if (catalog.extractors().empty())
        return "the catalog in " + catalog.directory() + " has no usable rules";
    if (catalog.casesFailed() > 0)
        return std::to_string(catalog.casesFailed()) + " inline rule cases fail (those rules are not used)";
    return {};
}

Reply catalogReply(const engine::Catalog& catalog)
{
    std::map<std::string, std::pair<std::size_t, std::size_t>> rules;  // rule -> (passed, failed)
    for (const auto& c : catalog.caseResults())
        ++(c.passed ? rules[c.rule].first : rules[c.rule].second);
    ordered_json j;
    j["engine_version"] = engine::engineVersion();
    j["catalog_version"] = catalog.version();
    j["catalog_hash"] = catalog.hash();
    j["self_test"] = {{"ok", catalogProblem(catalog).empty()},
                      {"cases_passed", catalog.casesPassed()},
                      {"cases_failed", catalog.casesFailed()}};
    j["rules"] = ordered_json::array();
    for (const auto& [rule, counts] : rules)
        j["rules"].push_back({{"id", rule},
                              {"cases_passed", counts.first},
                              {"cases_failed", counts.second},
                              {"status", counts.second == 0 ? "ok" : "failing"}});
    j["diagnostics"] = ordered_json::array();
    for (const auto& d : catalog.diagnostics())
        j["diagnostics"].push_back(d.str());
    Reply r;
    r.body = engine::dumpJson(j);
    return r;
}

}  // namespace attrib::service
