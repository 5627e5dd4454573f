// SPDX-License-Identifier: GPL-3.0-or-later
// NodeFactsDiffer (early phase). Some facts a process logs at start must be the same on every node of a job: the
// communication library's release, the network transport it chose, its network plugin. A node that differs (another
// NCCL in its image or environment, a plugin installed on part of the cluster) cannot talk to the others: the job
// hangs at init or fails in a socket or protocol error that names neither cause nor node. Each `facts` entry names
// an event type, the attribute holding the value, and the symptom to raise. Per fact, each node that reports exactly
// one value counts (a node reporting two is left out: its processes disagree among themselves). When the nodes
// disagree:
// - the nodes outside a strict majority value are the odd ones: the symptom is raised on each one's first event;
// - with no strict majority (one node against one), the symptom is the job's, naming every node and its value.
// Agreement, a single node, or events without a node change nothing.
#include "rules/cpp/node_facts.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <map>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

struct Fact {
    std::string type;
    std::string attr;
    std::string symptom;
};

/// One fact's values by node: the values, and the first event that stated each node's value.
struct NodeValues {
    std::map<std::string, std::set<std::string>> values;
    std::map<std::string, std::size_t> first;
};

class NodeFactsDiffer final : public CodeRule {
public:
    explicit NodeFactsDiffer(const json& c)
    {
        for (const auto& f : c.value("facts", json::array()))
            if (f.is_object())
                m_facts.push_back({f.value("type", ""), f.value("attr", ""), f.value("symptom", "")});
    }

    std::string id() const override { return "NodeFactsDiffer"; }
    std::string description() const override
    {
        return "Raises a configuration symptom when the nodes of a job report different values of a fact that "
               "must be the same everywhere (the NCCL release, its network)";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        for (const Fact& fact : m_facts) {
            const NodeValues nodes = collect(events, fact);
            std::map<std::string, std::vector<std::string>> byValue;  // value -> nodes that report only it
            for (const auto& [node, values] : nodes.values)
                if (values.size() == 1)
                    byValue[*values.begin()].push_back(node);
            if (byValue.size() >= 2)
                raise(events, fact, nodes, byValue, trace);
        }
        return events;
    }

private:
    static NodeValues collect(const std::vector<Event>& events, const Fact& fact)
    {
        NodeValues out;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (e.type.str() != fact.type || e.node.empty())
                continue;
            const std::string value = eventAttr(e, fact.attr);
            if (value.empty())
                continue;
            const std::string node = e.node.str();
            if (out.values[node].insert(value).second && out.first.count(node) == 0)
                out.first[node] = i;
        }
        return out;
    }

    void raise(std::vector<Event>& events, const Fact& fact, const NodeValues& nodes,
               const std::map<std::string, std::vector<std::string>>& byValue, TraceSink& trace) const
    {
        std::string majority;
        std::size_t most = 0;
        bool tie = false;
        for (const auto& [value, holders] : byValue) {
            if (holders.size() > most) {
                majority = value;
                most = holders.size();
                tie = false;
            } else if (holders.size() == most) {
                tie = true;
            }
        }
        std::string listing;  // "gpu-a: 2.19.3, gpu-b: 2.14.3", in node order
        for (const auto& [node, values] : nodes.values)
            if (values.size() == 1)
                listing += (listing.empty() ? "" : ", ") + node + ": " + *values.begin();
        TraceStep step = earlyStep(id(), TraceAction::NodesDiffer);
        if (tie) {
            Event& e = events[nodes.first.at(byValue.begin()->second.front())];
            mark(e, fact, e.node.str(), "", listing);
            makeJobWide(e);  // the job's fact, not one node's, device's or process's
            step.events = {e.id};
            step.summary = fact.type + " differs across the job's nodes with no majority (" + listing + ")";
        } else {
            for (const auto& [value, holders] : byValue) {
                if (value == majority)
                    continue;
                for (const auto& node : holders) {
                    Event& e = events[nodes.first.at(node)];
                    mark(e, fact, node, majority, listing);
                    step.events.push_back(e.id);
                }
            }
            step.summary = fact.type + " differs across the job's nodes: " + std::to_string(most) + " node(s) report " +
                majority + ", the odd one(s) out are marked (" + listing + ")";
        }
        trace.record(std::move(step));
    }

    static void mark(Event& e, const Fact& fact, const std::string& node, const std::string& majority,
                     const std::string& listing)
    {
        e.symptom = fact.symptom;
        e.attrs["value"] = eventAttr(e, fact.attr);
        e.attrs["reporting_node"] = node;
        if (!majority.empty())
            e.attrs["others"] = majority;
        e.attrs["by_node"] = listing;
    }

    std::vector<Fact> m_facts;
};

}  // namespace

std::unique_ptr<CodeRule> makeNodeFactsDiffer(const json& config)
{
    return std::make_unique<NodeFactsDiffer>(config);
}

}  // namespace attrib::rules
