// SPDX-License-Identifier: GPL-3.0-or-later
// Side-by-side comparison of two verdict JSON documents.
#include "service/core/verdict_compare.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace attrib::service {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* key)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string rootCause(const json& v)
{
    const auto it = v.find("root_cause");
    if (it == v.end() || !it->is_object())
        return "none";
    std::string s = str(*it, "symptom_id");
    if (const std::string rule = str(*it, "rule"); !rule.empty())
        s += " (by " + rule + ")";
    return s.empty() ? "none" : s;
}

/// symptom id -> "status" or "status by rule".
std::map<std::string, std::string> symptomStatuses(const json& v)
{
    std::map<std::string, std::string> out;
    const auto it = v.find("symptoms");
    if (it == v.end() || !it->is_array())
        return out;
    for (const auto& y : *it) {
        std::string s = str(y, "status");
        if (const std::string rule = str(y, "status_rule"); !rule.empty())
            s += " by " + rule;
        out[str(y, "id")] = s;
    }
    return out;
}

json parseVerdict(const std::string& text, const char* which)
{
    json v = json::parse(text, nullptr, false);
    if (v.is_discarded() || !v.is_object() || !v.contains("terminal_state"))
        throw std::runtime_error(std::string("the ") + which + " verdict is not verdict JSON");
    return v;
}

void addRow(VerdictComparison& c, std::string field, std::string local, std::string remote, bool versionOnly = false)
{
    const bool differs = local != remote;
    c.rows.push_back({std::move(field), std::move(local), std::move(remote), differs, versionOnly});
}

}  // namespace

bool VerdictComparison::differs() const
{
    return std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.differs && !r.versionOnly; });
}

std::string VerdictComparison::text(const std::string& localName, const std::string& remoteName) const
{
    std::size_t width = 0;
    for (const auto& r : rows)
        width = std::max(width, r.field.size());
    std::string out = std::string(width + 2, ' ') + localName + " | " + remoteName + "\n";
    for (const auto& r : rows) {
        out += (r.differs ? (r.versionOnly ? "~ " : "! ") : "  ") + r.field + std::string(width - r.field.size(), ' ');
        out += "  " + (r.local.empty() ? "-" : r.local) + " | " + (r.remote.empty() ? "-" : r.remote) + "\n";
    }
    return out;
}

VerdictComparison compareVerdicts(const std::string& localJson, const std::string& remoteJson)
{
    const json l = parseVerdict(localJson, "local");
    const json r = parseVerdict(remoteJson, "service");
    VerdictComparison c;
    addRow(c, "terminal_state", str(l, "terminal_state"), str(r, "terminal_state"));
    addRow(c, "sub_domain", str(l, "sub_domain"), str(r, "sub_domain"));
    addRow(c, "root_cause", rootCause(l), rootCause(r));
    const auto ls = symptomStatuses(l);
    const auto rs = symptomStatuses(r);
    std::map<std::string, std::pair<std::string, std::string>> all;
    for (const auto& [id, s] : ls)
        all[id].first = s;
    for (const auto& [id, s] : rs)
        all[id].second = s;
    for (const auto& [id, pair] : all)
        addRow(c, "symptom " + id, pair.first, pair.second);
    const json le = l.value("engine", json::object());
    const json re = r.value("engine", json::object());
    addRow(c, "engine_version", str(le, "version"), str(re, "version"), true);
    addRow(c, "catalog_version", str(le, "catalog_version"), str(re, "catalog_version"), true);
    addRow(c, "catalog_hash", str(le, "catalog_hash"), str(re, "catalog_hash"), true);
    return c;
}

}  // namespace attrib::service
