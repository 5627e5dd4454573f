// SPDX-License-Identifier: GPL-3.0-or-later
// SoleNodeFromCommandLine (early phase). A ticket often pastes the command that ran the job next to its output:
// `srun -N 1 -w node001 --container-image=... ./run.sh`, then pyxis and slurmstepd errors that name no host.
// When every command line of the bundle (`command_types` events, attribute `nodelist`) names one and the same
// single node (no list, no range), and no event of the bundle names another node, the job ran on that node
// only: events without a node (job-wide ones excepted: they concern the job, not a node) are placed on it,
// and the context's node list is set when the bundle had none. Otherwise nothing changes and the trace says why.
// When no command line names a node, the same holds for the bundle's evidence itself: a ticket that pastes one
// machine's syslog (its host in every header) beside the job's own output names that one machine, and the job's
// node-less lines are placed on it, when the bundle's node list (workload.json, or the nodes the evidence names)
// holds that node alone.
#include "rules/cpp/sole_node.h"
#include "rules/cpp/early_step.h"

#include "engine/host_name.h"
#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

class SoleNodeFromCommandLine final : public CodeRule {
public:
    explicit SoleNodeFromCommandLine(const json& c)
        : m_commands(stringsAt(c, "command_types"))
    {
    }

    std::string id() const override { return "SoleNodeFromCommandLine"; }
    std::string description() const override
    {
        return "Places node-less events on the single node a posted srun/sbatch command line ran the job on";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                           TraceSink& trace) const override
    {
        std::set<std::string> named;    // nodes the command lines name ("" for a list or range)
        std::set<std::string> evident;  // nodes other events name
        std::vector<std::uint64_t> commands;
        for (const auto& e : events) {
            if (std::find(m_commands.begin(), m_commands.end(), e.type) != m_commands.end()) {
                const std::string list = eventAttr(e, "nodelist");
                named.insert(list.find_first_of(",[") == std::string::npos ? shortHost(list) : std::string());
                commands.push_back(e.id);
            } else if (!e.node.empty()) {
                evident.insert(e.node);
            }
        }
        if (named.empty())
            return placeOnSoleEvidentNode(std::move(events), context, evident, trace);
        const std::string node = named.size() == 1 ? *named.begin() : std::string();
        const bool other = std::any_of(evident.begin(), evident.end(), [&](const auto& n) { return n != node; });
        TraceStep step = earlyStep(id(), TraceAction::SoleNode);
        step.events = commands;
        if (node.empty() || other) {
            step.fired = false;
            step.summary = node.empty() ? "the command lines name more than one node (or a list): no sole node"
                                        : "the command line names " + node + " but other evidence names other nodes";
            trace.record(std::move(step));
            return events;
        }
        const std::size_t placed = place(events, node);
        if (context.nodes.empty())
            context.nodes = {node};
        step.node = node;
        step.summary = "the job ran on " + node + " alone (its command line): " + std::to_string(placed) +
            " event(s) without a node placed there";
        trace.record(std::move(step));
        return events;
    }

private:
    /// Places the job's node-less events on `node`; returns how many.
    static std::size_t place(std::vector<Event>& events, const std::string& node)
    {
        std::size_t placed = 0;
        for (auto& e : events) {
            if (e.node.empty() && eventAttr(e, "job_wide") != "true") {
                e.node = node;
                ++placed;
            }
        }
        return placed;
    }

    /// No command line: the bundle's one node, when its node list holds one node and no event names another.
    /// Recorded only when some event was placed, so bundles whose events all name their node trace nothing new.
    std::vector<Event> placeOnSoleEvidentNode(std::vector<Event> events, const ExecutionContext& context,
                                              const std::set<std::string>& evident, TraceSink& trace) const
    {
        if (context.nodes.size() != 1 || context.nodes.front().empty())
            return events;
        const std::string& node = context.nodes.front();
        if (std::any_of(evident.begin(), evident.end(), [&](const auto& n) { return n != node; }))
            return events;
        const std::size_t placed = place(events, node);
        if (placed == 0)
            return events;
        TraceStep step = earlyStep(id(), TraceAction::SoleNode);
        step.node = node;
        step.summary = "the bundle's evidence names " + node + " alone: " + std::to_string(placed) +
            " event(s) without a node placed there";
        trace.record(std::move(step));
        return events;
    }

    std::vector<std::string> m_commands;
};

}  // namespace

std::unique_ptr<CodeRule> makeSoleNodeFromCommandLine(const json& config)
{
    return std::make_unique<SoleNodeFromCommandLine>(config);
}

}  // namespace attrib::rules
