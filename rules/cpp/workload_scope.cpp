// SPDX-License-Identifier: GPL-3.0-or-later
// ScopeToWorkload (early phase). A slurmctld log excerpt holds "Time limit exhausted for JobId=N", kill requests
// and "Nodes X not responding" for every job and node of the cluster, not only this one. Events of the listed
// extractor rules whose job id (the `jobid`/`step` attribute, up to the first '.') names another job than the
// workload's, or whose node is not one of the workload's nodes, keep their evidence but raise no symptom. Lines
// of the job's own output (its CANCELLED banners) are about this job by construction and are not listed. Without a
// workload id or node list in the context nothing is filtered (the engine cannot know better), and the trace says so.
#include "rules/cpp/workload_scope.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"

#include <algorithm>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

class ScopeToWorkload final : public CodeRule {
public:
    explicit ScopeToWorkload(const json& c)
        : m_byJob(stringsAt(c, "rules_by_job"))
        , m_byNode(stringsAt(c, "rules_by_node"))
        , m_jobAttrs(stringsAt(c, "job_attrs"))
    {
    }

    std::string id() const override { return "ScopeToWorkload"; }
    std::string description() const override
    {
        return "Drops symptoms of daemon-log events that name another job or a node outside the workload";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                           TraceSink& trace) const override
    {
        std::map<std::string, std::vector<std::uint64_t>> dropped;  // reason -> events
        for (auto& e : events) {
            if (e.symptom.empty())
                continue;
            std::string why;
            if (anyGlobMatch(m_byJob, e.rule))
                why = otherJob(e, context.workloadId);
            if (why.empty() && anyGlobMatch(m_byNode, e.rule))
                why = otherNode(e, context.nodes);
            if (why.empty())
                continue;
            dropped[e.symptom + ": " + why].push_back(e.id);
            e.attrs["out_of_scope"] = why;
            e.symptom.clear();
        }
        for (const auto& [why, ids] : dropped) {
            TraceStep step = earlyStep(id(), TraceAction::OutOfScope);
            step.summary = std::to_string(ids.size()) + " event(s) not about this workload: " + why;
            step.events = ids;
            trace.record(std::move(step));
        }
        return events;
    }

private:
    std::string otherJob(const Event& e, const std::string& workload) const
    {
        if (workload.empty())
            return {};
        for (const auto& key : m_jobAttrs) {
            auto it = e.attrs.find(key);
            if (it == e.attrs.end() || it->second.empty())
                continue;
            const std::string job = it->second.substr(0, it->second.find('.'));
            return job == workload ? std::string() : "job " + job + " is not workload " + workload;
        }
        return {};
    }

    static std::string otherNode(const Event& e, const std::vector<std::string>& nodes)
    {
        // A hostlist expression (gpu-[03-04]) is kept: expanding it is the scheduler's business.
        if (nodes.empty() || e.node.empty() || e.node.str().find('[') != std::string::npos)
            return {};
        return std::find(nodes.begin(), nodes.end(), e.node) != nodes.end()
            ? std::string()
            : "node " + e.node + " is not one of the workload's nodes";
    }

    std::vector<std::string> m_byJob;
    std::vector<std::string> m_byNode;
    std::vector<std::string> m_jobAttrs;
};

}  // namespace

std::unique_ptr<CodeRule> makeScopeToWorkload(const json& config)
{
    return std::make_unique<ScopeToWorkload>(config);
}

}  // namespace attrib::rules
