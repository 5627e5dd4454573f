// SPDX-License-Identifier: GPL-3.0-or-later
// SoleNodeFromCommandLine (early phase). A ticket often pastes the command that ran the job next to its output:
// `srun -N 1 -w node001 --container-image=... ./run.sh`, then pyxis and slurmstepd errors that name no host.
// When every command line of the bundle (`command_types` events, attribute `nodelist`) names one and the same
// single node (no list, no range), and no event of the bundle names another node, the job ran on that node
// only: events without a node (job-wide ones excepted: they concern the job, not a node) are placed on it,
// and the context's node list is set when the bundle had none. Otherwise nothing changes and the trace says why.
#include "rules/cpp/sole_node.h"

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
            return events;
        const std::string node = named.size() == 1 ? *named.begin() : std::string();
        const bool other = std::any_of(evident.begin(), evident.end(), [&](const auto& n) { return n != node; });
        TraceStep step;
        step.phase = TracePhase::Early;
        step.rule = id();
        step.action = TraceAction::SoleNode;
        step.events = commands;
        if (node.empty() || other) {
            step.fired = false;
            step.summary = node.empty() ? "the command lines name more than one node (or a list): no sole node"
                                        : "the command line names " + node + " but other evidence names other nodes";
            trace.record(std::move(step));
            return events;
        }
        std::size_t placed = 0;
        for (auto& e : events) {
            if (e.node.empty() && eventAttr(e, "job_wide") != "true") {
                e.node = node;
                ++placed;
            }
        }
        if (context.nodes.empty())
            context.nodes = {node};
        step.node = node;
        step.summary = "the job ran on " + node + " alone (its command line): " + std::to_string(placed) +
            " event(s) without a node placed there";
        trace.record(std::move(step));
        return events;
    }

private:
    std::vector<std::string> m_commands;
};

}  // namespace

std::unique_ptr<CodeRule> makeSoleNodeFromCommandLine(const json& config)
{
    return std::make_unique<SoleNodeFromCommandLine>(config);
}

}  // namespace attrib::rules
