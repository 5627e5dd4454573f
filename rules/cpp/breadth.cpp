// SPDX-License-Identifier: GPL-3.0-or-later
// JobWideBreadth (early phase). "Breadth tells domain" (shared/reference/domain.md §13.6): the same storage
// error on every node at once is the shared filesystem, not a node; the same configuration error on every rank
// at start-up is the job's configuration. Left per node, such events would tie across nodes and read as
// "ambiguous". This rule turns them into one job-wide event set when at least `min_nodes` distinct nodes report
// the same symptom (optionally with the same attributes) within `window_s` of the first report; the nodes are
// kept in the `nodes` attribute and the evidence keeps every line. One node alone stays a node problem
// (a storage client, a node's configuration).
#include "rules/cpp/breadth.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

struct Group {
    std::vector<std::string> symptoms;  // globs
    std::vector<std::string> domains;   // or any symptom of these sub-domains
    std::vector<std::string> sameAttrs;
    int minNodes = 2;
    TimeNs window = 600 * NsPerSec;
};

class JobWideBreadth final : public CodeRule {
public:
    explicit JobWideBreadth(const json& c)
    {
        for (const auto& g : c.value("groups", json::array())) {
            Group group;
            group.symptoms = stringsAt(g, "symptoms");
            group.domains = stringsAt(g, "domains");
            group.sameAttrs = stringsAt(g, "same_attrs");
            group.minNodes = g.value("min_nodes", 2);
            group.window = static_cast<TimeNs>(g.value("window_s", 600.0) * 1e9);
            m_groups.push_back(std::move(group));
        }
    }

    std::string id() const override { return "JobWideBreadth"; }
    std::string description() const override
    {
        return "Makes a symptom job-wide when several nodes report it at once (shared storage, job configuration)";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog& catalog,
                           TraceSink& trace) const override
    {
        std::set<std::string> taken;  // a symptom is widened by the first group that selects it, never twice
        for (const auto& group : m_groups) {
            // Candidates by (symptom, same-attribute values), in event order (= time order).
            std::map<std::string, std::vector<Event*>> buckets;
            std::set<std::string> selected;
            for (auto& e : events) {
                if (e.symptom.empty() || taken.count(e.symptom) || !selects(group, e.symptom, catalog))
                    continue;
                selected.insert(e.symptom);
                std::string key = e.symptom;
                for (const auto& a : group.sameAttrs) {
                    auto it = e.attrs.find(a);
                    key += '\x1f' + (it == e.attrs.end() ? std::string() : it->second);
                }
                buckets[key].push_back(&e);
            }
            for (auto& [key, list] : buckets)
                widen(group, list, trace);
            taken.insert(selected.begin(), selected.end());
        }
        return events;
    }

private:
    static bool selects(const Group& group, const std::string& symptom, const Catalog& catalog)
    {
        if (anyGlobMatch(group.symptoms, symptom))
            return true;
        if (group.domains.empty())
            return false;
        const auto* def = catalog.symptom(symptom);
        return def && std::find(group.domains.begin(), group.domains.end(), def->domain) != group.domains.end();
    }

    void widen(const Group& group, std::vector<Event*>& list, TraceSink& trace) const
    {
        TimeNs first = NoTime;
        for (const auto* e : list)
            if (e->time != NoTime && (first == NoTime || e->time < first))
                first = e->time;
        std::vector<Event*> inside;
        std::set<std::string> nodes;
        for (auto* e : list) {
            // An unstamped line (start-up output without a clock) counts with the burst it belongs to.
            if (first != NoTime && e->time != NoTime && e->time - first > group.window)
                continue;
            inside.push_back(e);
            if (!e->node.empty())
                nodes.insert(e->node);
        }
        TraceStep step = earlyStep(id(), TraceAction::Breadth);
        step.windowStart = first;
        step.windowEnd = first == NoTime ? NoTime : first + group.window;
        std::string names;
        for (const auto& n : nodes)
            names += (names.empty() ? "" : ",") + n;
        step.details["nodes"] = names;
        step.fired = static_cast<int>(nodes.size()) >= group.minNodes;
        step.summary = list.front()->symptom + " on " + std::to_string(nodes.size()) + " node(s) (" + names + ")" +
            (step.fired ? ": job-wide" : ": stays per node, fewer than " + std::to_string(group.minNodes) + " nodes");
        for (const auto* e : inside)
            if (step.events.size() < 50)
                step.events.push_back(e->id);
        const bool wide = static_cast<int>(nodes.size()) >= group.minNodes;
        trace.record(std::move(step));
        // Summaries read "on N node(s): a,b": every event of the group says how wide it was, widened or not.
        for (auto* e : list) {
            const bool in = std::find(inside.begin(), inside.end(), e) != inside.end();
            e->attrs["nodes"] = in && !names.empty() ? names : e->node.empty() ? "an unnamed node" : e->node.str();
            e->attrs["breadth"] = in ? std::to_string(std::max<std::size_t>(nodes.size(), 1)) : "1";
            if (!wide || !in || e->node.empty())
                continue;
            e->attrs.emplace("first_node", e->node);
            e->node.clear();
            e->gpu = -1;
        }
    }

    std::vector<Group> m_groups;
};

}  // namespace

std::unique_ptr<CodeRule> makeJobWideBreadth(const json& config)
{
    return std::make_unique<JobWideBreadth>(config);
}

}  // namespace attrib::rules
