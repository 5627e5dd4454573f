// SPDX-License-Identifier: GPL-3.0-or-later
// BatchStepOnBatchHost (early phase). A job's output file carries slurmstepd's reports without a host:
// `Detected 1 oom_kill event in StepId=10609057.batch` names the step only. The batch step runs on one node, the
// first of the allocation (sbatch(1): "the batch script is executed on the first node"), and the same file's banner
// `*** JOB 10609057 ON g002 CANCELLED AT ... ***` comes from that step's slurmstepd and names it. A step `J.N`
// is placed the same way when the banners of step J.N name one host only (a multi-node step prints one banner per
// node, and then the step names no single host). Which attributes carry the job, the host and the step is
// catalog data (config `job_attr`, `host_attr`, `step_attr`); a redacted or missing host names nothing.
#include "rules/cpp/batch_host.h"
#include "rules/cpp/early_step.h"

#include "engine/host_name.h"
#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <map>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

class BatchStepOnBatchHost final : public CodeRule {
public:
    explicit BatchStepOnBatchHost(const json& c)
        : m_job(c.value("job_attr", std::string("jobid")))
        , m_host(c.value("host_attr", std::string("batch_host")))
        , m_step(c.value("step_attr", std::string("step")))
    {
    }

    std::string id() const override { return "BatchStepOnBatchHost"; }
    std::string description() const override
    {
        return "Places a Slurm step's node-less reports on the one host the job's own banners name for that step";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        // `J` (a JOB banner: the batch host) or `J.N` (a STEP banner) -> the hosts those banners name.
        std::map<std::string, std::set<std::string>> hosts;
        for (const auto& e : events) {
            const std::string job = eventAttr(e, m_job);
            const std::string host = eventAttr(e, m_host);
            if (!job.empty() && !host.empty() && !isRedactedHost(host))
                if (std::string name = shortHost(host); !name.empty())
                    hosts[job].insert(std::move(name));
        }
        if (hosts.empty())
            return events;
        std::map<std::string, std::vector<std::uint64_t>> placed;  // node -> events placed there
        for (auto& e : events) {
            if (!e.node.empty())
                continue;
            const std::string node = hostOfStep(hosts, eventAttr(e, m_step));
            if (!node.empty()) {
                e.node = node;
                placed[node].push_back(e.id);
            }
        }
        for (const auto& [node, ids] : placed) {
            TraceStep step = earlyStep(id(), TraceAction::BatchHost);
            step.node = node;
            step.events = ids;
            step.summary = std::to_string(ids.size()) + " report(s) of a step without a host placed on " + node +
                ", the host the job's own banner names for that step";
            trace.record(std::move(step));
        }
        return events;
    }

private:
    /// The one host of `step` (`J.batch`: the JOB banner's; `J.N`: the STEP banners'), "" when none or several.
    static std::string hostOfStep(const std::map<std::string, std::set<std::string>>& hosts, const std::string& step)
    {
        static const std::string batch = ".batch";
        if (step.empty())
            return {};
        const bool isBatch =
            step.size() > batch.size() && step.compare(step.size() - batch.size(), batch.size(), batch) == 0;
        if (!isBatch && step.find('.') == std::string::npos)
            return {};               // a bare number is a job, run on every node of its allocation
        auto it = hosts.find(step);  // a STEP banner of this very step
        if (it == hosts.end() && isBatch)
            it = hosts.find(step.substr(0, step.size() - batch.size()));  // the JOB banner: the batch host
        return it == hosts.end() || it->second.size() != 1 ? std::string() : *it->second.begin();
    }

    std::string m_job;
    std::string m_host;
    std::string m_step;
};

}  // namespace

std::unique_ptr<CodeRule> makeBatchStepOnBatchHost(const json& config)
{
    return std::make_unique<BatchStepOnBatchHost>(config);
}

}  // namespace attrib::rules
