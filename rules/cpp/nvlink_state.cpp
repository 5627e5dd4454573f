// SPDX-License-Identifier: GPL-3.0-or-later
// NvlinkLinkStates (early phase). `nvidia-smi nvlink -s` prints one `GPU <n>: <name> (UUID: ...)` header and
// then one `Link <k>: <speed> GB/s` or `Link <k>: <inactive>` line per link. An inactive link only means a fault
// in context: a GPU whose other links run while some are down has lost those links (a cable, a bridge, an
// NVSwitch port: domain nvlink); a GPU with no active link at all has no NVLink connected (PCIe cards without a
// bridge), and the same inactive set on every GPU is the platform's design (H100 PCIe: 12 of 18 links). Only the
// first case raises a symptom. The listing's lines are walked in file order (observation ids), per node.
#include "rules/cpp/nvlink_state.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

struct GpuLinks {
    std::set<int> active;
    std::set<int> inactive;
    std::vector<Event*> inactiveEvents;
};

std::uint64_t firstObservation(const Event& e)
{
    return e.observations.empty() ? e.id : e.observations.front();
}

std::string linkList(const std::set<int>& links)
{
    std::string out;
    for (int l : links)
        out += (out.empty() ? "" : ", ") + std::to_string(l);
    return out;
}

class NvlinkLinkStates final : public CodeRule {
public:
    explicit NvlinkLinkStates(const json& config)
        : m_symptom(config.value("symptom", "nvlink_links_inactive"))
    {
    }

    std::string id() const override { return "NvlinkLinkStates"; }
    std::string description() const override
    {
        return "Judges inactive NVLinks per GPU: some down while others run is a fault; none running or the same set "
               "down on every GPU is the platform's design";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        std::map<std::string, std::vector<Event*>> byNode;
        for (auto& e : events)
            if (e.type == "nvlink_gpu_header" || e.type == "nvlink_link_state")
                byNode[e.node].push_back(&e);
        for (auto& [node, list] : byNode) {
            std::sort(list.begin(), list.end(),
                      [](const Event* a, const Event* b) { return firstObservation(*a) < firstObservation(*b); });
            judgeNode(node, collect(list), trace);
        }
        return events;
    }

private:
    static std::map<int, GpuLinks> collect(const std::vector<Event*>& list)
    {
        std::map<int, GpuLinks> gpus;
        int gpu = -1;
        for (Event* e : list) {
            if (e->type == "nvlink_gpu_header") {
                gpu = e->gpu;
                continue;
            }
            const int link = parseIntegerIn<int>(eventAttr(*e, "link"), 0, 4095).value_or(-1);
            e->gpu = gpu;
            GpuLinks& g = gpus[gpu];
            if (eventAttr(*e, "state") == "inactive") {
                g.inactive.insert(link);
                g.inactiveEvents.push_back(e);
            } else {
                g.active.insert(link);
            }
        }
        return gpus;
    }

    void judgeNode(const std::string& node, const std::map<int, GpuLinks>& gpus, TraceSink& trace) const
    {
        std::set<std::set<int>> inactiveSets;
        for (const auto& [gpu, g] : gpus)
            inactiveSets.insert(g.inactive);
        const bool uniform = gpus.size() >= 2 && inactiveSets.size() == 1;
        for (auto& [gpu, g] : gpus) {
            if (g.inactive.empty())
                continue;
            const bool fault = !g.active.empty() && !uniform;
            const std::string why = g.active.empty()
                ? "no active link: no NVLink connected to this GPU (not a fault by itself)"
                : uniform ? "the same links are down on every GPU: the platform's design"
                          : "links " + linkList(g.inactive) + " down while " + std::to_string(g.active.size()) +
                    " run: lost links";
            for (Event* e : g.inactiveEvents) {
                e->attrs["inactive_links"] = linkList(g.inactive);
                e->attrs["active_links"] = std::to_string(g.active.size());
                if (fault)
                    e->symptom = m_symptom;
            }
            TraceStep step = earlyStep(id(), TraceAction::JudgeLinks);
            step.node = node;
            step.gpu = gpu;
            step.fired = fault;
            step.summary = (node.empty() ? std::string("an unnamed node") : node) + " GPU " +
                (gpu < 0 ? std::string("?") : std::to_string(gpu)) + ": " + why;
            for (const Event* e : g.inactiveEvents)
                step.events.push_back(e->id);
            trace.record(std::move(step));
        }
    }

    std::string m_symptom;
};

}  // namespace

std::unique_ptr<CodeRule> makeNvlinkLinkStates(const json& config)
{
    return std::make_unique<NvlinkLinkStates>(config);
}

}  // namespace attrib::rules
