// SPDX-License-Identifier: GPL-3.0-or-later
// KnownNcclReleaseIssue (early phase). Some NCCL releases have a documented failure of their own: a DMA-BUF
// registration without fallback, a QP set-up regression, a crashing RAS thread. When the bundle logs the NCCL
// release (`version_type` events, attribute `version`, from the `NCCL version X.Y.Z` banner) and one of the
// symptoms that failure shows, the table entry (catalog data `data`, rules/data/nccl_release_issues.json) names
// the cause: the version banner's event raises `symptom` with the entry's facts and source, and the generic
// symptom stays as its effect. A release the table does not list, or a listed one without its symptoms, changes
// nothing: the version alone is no evidence of a fault.
#include "rules/cpp/nccl_release.h"

#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <algorithm>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

bool versionMatches(const std::string& version, const std::string& pattern)
{
    if (pattern.size() > 1 && pattern.ends_with(".*"))
        return version.starts_with(pattern.substr(0, pattern.size() - 1));
    return version == pattern;
}

class KnownNcclReleaseIssue final : public CodeRule {
public:
    explicit KnownNcclReleaseIssue(const json& c)
        : m_versionType(c.value("version_type", "nccl_version"))
        , m_symptom(c.value("symptom", "known_nccl_release_issue"))
        , m_data(c.value("data", "nccl_release_issues"))
    {
    }

    std::string id() const override { return "KnownNcclReleaseIssue"; }
    std::string description() const override
    {
        return "Names a documented failure of the logged NCCL release when the bundle shows its symptoms";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog& catalog,
                           TraceSink& trace) const override
    {
        const json* table = catalog.data(m_data);
        if (!table || !table->contains("issues") || !(*table)["issues"].is_array())
            return events;
        for (const auto& issue : (*table)["issues"]) {
            if (!issue.is_object())
                continue;
            const auto versions = stringsAt(issue, "versions");
            const auto symptoms = stringsAt(issue, "symptoms");
            Event* banner = nullptr;
            const Event* effect = nullptr;
            for (auto& e : events) {
                const bool listed = std::any_of(versions.begin(), versions.end(), [&](const std::string& v) {
                    return versionMatches(eventAttr(e, "version"), v);
                });
                if (!banner && e.type == m_versionType && listed && e.symptom.empty())
                    banner = &e;
                else if (!effect && std::find(symptoms.begin(), symptoms.end(), e.symptom) != symptoms.end())
                    effect = &e;
            }
            if (banner && effect)
                name(*banner, *effect, issue, trace);
        }
        return events;
    }

private:
    void name(Event& banner, const Event& effect, const json& issue, TraceSink& trace) const
    {
        banner.symptom = m_symptom;
        for (const char* key : {"id", "what", "fix", "status", "source"})
            banner.attrs[std::string("issue_") + key] = issue.value(key, std::string());
        banner.attrs["effect"] = effect.symptom;
        TraceStep step;
        step.phase = engine::TracePhase::Early;
        step.rule = id();
        step.action = engine::TraceAction::KnownReleaseIssue;
        step.node = banner.node;
        step.events = {banner.id, effect.id};
        step.summary = "NCCL " + eventAttr(banner, "version") + " has a documented failure (" +
            issue.value("id", std::string()) + ") that " + effect.symptom + " shows";
        trace.record(std::move(step));
    }

    std::string m_versionType;
    std::string m_symptom;
    std::string m_data;
};

}  // namespace

std::unique_ptr<CodeRule> makeKnownNcclReleaseIssue(const json& config)
{
    return std::make_unique<KnownNcclReleaseIssue>(config);
}

}  // namespace attrib::rules
