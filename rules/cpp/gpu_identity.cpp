// SPDX-License-Identifier: GPL-3.0-or-later
// LearnGpuIdentity reads "gpu_identity" events (NCCL init lines with busId, nvidia-smi listings) and
// fills the context's PCI -> GPU and rank maps; the Xid rules then name GPUs by index.
#include "rules/cpp/gpu_identity.h"
#include "rules/cpp/early_step.h"

#include "engine/pci.h"

#include <set>

namespace attrib::rules {

using namespace attrib::engine;

namespace {

class LearnGpuIdentity final : public CodeRule {
public:
    std::string id() const override { return "LearnGpuIdentity"; }
    std::string description() const override
    {
        return "Learns PCI address -> GPU index and rank -> node maps from NCCL init lines and GPU listings";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                           TraceSink& trace) const override
    {
        std::map<std::string, std::set<std::string>> learned;
        for (const auto& e : events) {
            if (e.type != "gpu_identity" || e.node.empty())
                continue;
            auto attr = [&](const char* k) {
                auto it = e.attrs.find(k);
                return it == e.attrs.end() ? std::string() : it->second;
            };
            std::string pci = attr("busid").empty() ? normalizePci(attr("pci")) : pciFromNcclBusId(attr("busid"));
            if (pci.empty() || e.gpu < 0)
                continue;
            auto [it, inserted] = context.pciToGpu[e.node].emplace(pci, e.gpu);
            if (inserted)
                learned[e.node].insert(pci + "=GPU" + std::to_string(e.gpu));
            else if (it->second != e.gpu)
                recordConflict(e, pci, it->second, trace);
            if (e.rank >= 0)
                context.rankMap.emplace(e.rank, std::make_pair(e.node, e.gpu));
        }
        for (const auto& [node, maps] : learned) {
            TraceStep step = earlyStep(id(), TraceAction::Learn);
            step.node = node;
            std::string list;
            for (const auto& m : maps)
                list += (list.empty() ? "" : ", ") + m;
            step.summary = "learned " + std::to_string(maps.size()) + " PCI -> GPU mapping(s) on " + node;
            step.details["map"] = list;
            trace.record(std::move(step));
        }
        return events;
    }

private:
    void recordConflict(const Event& e, const std::string& pci, int known, TraceSink& trace) const
    {
        TraceStep step = earlyStep(id(), TraceAction::Conflict);
        step.fired = false;
        step.node = e.node;
        step.summary = "PCI " + pci + " on " + e.node + " named GPU " + std::to_string(e.gpu) +
            " but was already mapped to GPU " + std::to_string(known) + "; first mapping kept";
        step.events = {e.id};
        trace.record(std::move(step));
    }
};

}  // namespace

std::unique_ptr<CodeRule> makeLearnGpuIdentity(const nlohmann::json&)
{
    return std::make_unique<LearnGpuIdentity>();
}

}  // namespace attrib::rules
