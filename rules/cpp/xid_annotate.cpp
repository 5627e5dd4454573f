// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of HandleXidBurstEvents. Facts: NVIDIA Xid catalog (rules/data/xid_catalog.json), WORKFLOW_XID_13/31
// (repeats on the same GPU point at hardware, repeats across GPUs at the application) and the Xid 48 -> 63 ->
// 94 -> 45 burst order, as summarized in shared/reference/domain.md §2.3-2.4 and §13.
#include "rules/cpp/xid_annotate.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"

#include <re2/re2.h>

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

std::string text(const json& obj, const char* key)
{
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool listed(const json& list, int value)
{
    return list.is_array() && std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

AttrMap xidCatalogFacts(int xid, const json* catalog)
{
    AttrMap out;
    if (!catalog || !catalog->is_object())
        return out;
    const json& xids = objectAt(*catalog, "xids");
    auto it = xids.find(std::to_string(xid));
    const json& row = it != xids.end() && it->is_object() ? *it : objectAt(*catalog, "unknown");
    out["mnemonic"] = text(row, "mnemonic");
    out["description"] = text(row, "description");
    out["bucket"] = text(row, "immediate");
    out["investigatory"] = text(row, "investigatory");
    if (out["bucket"].empty())
        out["bucket"] = "none given";
    if (out["investigatory"].empty())
        out["investigatory"] = "see the catalog's trigger notes";
    const std::string action = text(objectAt(*catalog, "bucket_actions"), out["bucket"].c_str());
    out["bucket_action"] = !action.empty()
        ? action
        : "look up Xid " + std::to_string(xid) + " in NVIDIA's Xid catalog and follow its resolution notes";
    return out;
}

void decodeXidDetail(int xid, const std::string& detail, AttrMap& attrs)
{
    std::string a, b, c;
    if (xid == 48 || xid == 171 || xid == 172) {
        static const re2::RE2 addr(R"(physAddr (0x[0-9a-fA-F]+))");
        static const re2::RE2 where(R"(detected on GPU in the (\w+))");
        static const re2::RE2 kind(R"(\b(DRAM|SRAM)\b)");
        if (re2::RE2::PartialMatch(detail, addr, &a))
            attrs["phys_addr"] = a;
        if (re2::RE2::PartialMatch(detail, where, &b))
            attrs["location"] = b;
        if (re2::RE2::PartialMatch(detail, kind, &c))
            attrs["memory_kind"] = c;
    } else if (xid == 63 || xid == 64) {
        static const re2::RE2 row(R"(\((0x[0-9a-fA-F]+)\))");
        if (re2::RE2::PartialMatch(detail, row, &a))
            attrs["row"] = a;
    } else if (xid == 13) {
        static const re2::RE2 sm(R"(\(GPC\s+(\d+),\s*TPC\s+(\d+),\s*SM\s+(\d+)\)(?::\s*(.*))?)");
        std::string fault;
        if (re2::RE2::PartialMatch(detail, sm, &a, &b, &c, &fault)) {
            attrs["sm_location"] = "GPC " + a + ", TPC " + b + ", SM " + c;
            if (!fault.empty())
                attrs["fault"] = fault;
        }
    }
    static const re2::RE2 causedBy(R"(caused by previous Xid (\d+))");
    if (re2::RE2::PartialMatch(detail, causedBy, &a))
        attrs["caused_by_xid"] = a;
    if (xid == 31) {
        static const re2::RE2 type(R"(Fault is of type (\S+))");
        static const re2::RE2 at(R"(faulted @ (0x[0-9a-fA-F_]+))");
        if (re2::RE2::PartialMatch(detail, type, &a))
            attrs["fault"] = a;
        if (re2::RE2::PartialMatch(detail, at, &b))
            attrs["fault_addr"] = b;
    }
}

void inheritMissingPci(std::vector<Event>& events, TimeNs window, TraceSink& trace, const std::string& rule)
{
    std::map<std::string, const Event*> lastWithPci;  // node -> nearest preceding event naming a PCI address
    for (auto& e : events) {
        const bool head = e.type == "nvrm_gpu_head";
        if ((e.type != "xid" && !head) || e.node.empty())
            continue;
        if (!eventAttr(e, "pci").empty()) {
            lastWithPci[e.node] = &e;
            continue;
        }
        auto it = lastWithPci.find(e.node);
        if (it == lastWithPci.end())
            continue;
        const Event& from = *it->second;
        const bool close = e.time == NoTime || from.time == NoTime || std::llabs(e.time - from.time) <= window;
        if (!close)
            continue;
        e.attrs["pci"] = eventAttr(from, "pci");
        e.attrs["pci_from"] = from.type == "nvrm_gpu_head" ? "preceding 'The NVIDIA GPU' line" : "preceding Xid line";
        TraceStep step = earlyStep(rule, TraceAction::InheritPci);
        step.node = e.node;
        step.summary = "Xid " + eventAttr(e, "xid") + " line without a PCI address on " + e.node + " takes PCI " +
            e.attrs["pci"] + " from the " + e.attrs["pci_from"];
        step.events = {from.id, e.id};
        trace.record(std::move(step));
    }
}

void markBurstFollowers(std::vector<Event*>& burst, const json& followXids)
{
    // burst_xids names each distinct Xid once, in order of first appearance, and at most MaxBurstXids of them:
    // every event carries it, so it must not grow with the burst (an Xid storm has tens of thousands of lines).
    constexpr std::size_t MaxBurstXids = 16;
    std::set<int> present;
    std::set<std::string> named;
    std::string xids;
    std::size_t more = 0;
    for (const Event* e : burst) {
        const std::string xid = eventAttr(*e, "xid");
        if (const auto number = parseInteger<int>(xid))
            present.insert(*number);
        if (named.count(xid))
            continue;
        if (named.size() < MaxBurstXids) {
            named.insert(xid);
            xids += (xids.empty() ? "" : ",") + xid;
        } else {
            ++more;
        }
    }
    if (more > 0)
        xids += " and " + std::to_string(more) + " more";
    for (Event* e : burst) {
        e->attrs["burst_xids"] = xids;
        auto it = followXids.is_object() ? followXids.find(eventAttr(*e, "xid")) : followXids.end();
        if (!followXids.is_object() || it == followXids.end() || !it->is_array())
            continue;
        for (const auto& primary : *it) {
            if (primary.is_number_integer() && present.count(primary.get<int>())) {
                e->sympathetic = true;
                e->attrs["follows_xid"] = std::to_string(primary.get<int>());
                break;
            }
        }
    }
}

namespace {

bool knownPid(const std::string& pid)
{
    return !pid.empty() && std::all_of(pid.begin(), pid.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

/// One GPU's application-class Xids: the processes and separate occurrences (attempts) that hit them.
struct GpuFaults {
    std::vector<Event*> events;
    std::set<std::string> pids;
    int occurrences = 0;
    bool sameAddress = false;  ///< every fault names one faulting address (a deterministic, software fault)
};

/// True when the MMU faults of a GPU name their address and all name the same one. Separate processes (with their
/// own address-space layout) faulting at one virtual address is a program or driver doing the same wrong access
/// every run, not a GPU failing: a failing GPU or a corrupted mapping faults at varying addresses.
bool sameFaultAddress(const std::vector<Event*>& events)
{
    std::string first;
    for (const Event* e : events) {
        const std::string addr = eventAttr(*e, "fault_addr");
        if (addr.empty() || (!first.empty() && addr != first))
            return false;
        first = addr;
    }
    return events.size() >= 2;
}

int countOccurrences(const std::vector<Event*>& events, TimeNs gap)
{
    std::vector<TimeNs> times;
    for (const Event* e : events)
        if (e->time != NoTime)
            times.push_back(e->time);
    std::sort(times.begin(), times.end());
    int n = 1;
    for (std::size_t i = 1; i < times.size(); ++i)
        n += times[i] - times[i - 1] > gap ? 1 : 0;
    return n;
}

void renameFollows(std::vector<Event>& events, const std::string& from, const std::string& to)
{
    for (auto& e : events) {
        auto it = e.attrs.find("follows");
        if (it != e.attrs.end() && it->second == from)
            it->second = to;
    }
}

void recordClassification(const GpuFaults& g, bool hardware, std::size_t gpus, TraceSink& trace,
                          const std::string& rule)
{
    const Event& first = *g.events.front();
    TraceStep step = earlyStep(rule, TraceAction::ClassifyAppFault);
    step.node = first.node;
    step.gpu = first.gpu;
    step.details = {{"pids", eventAttr(first, "pids")},
                    {"occurrences", std::to_string(g.occurrences)},
                    {"gpus_with_fault", std::to_string(gpus)},
                    {"class", hardware ? "hardware" : "application"},
                    {"same_address", g.sameAddress ? "yes" : "no"}};
    step.summary = "Xid " + eventAttr(first, "xid") + " on " + first.node + " PCI " + eventAttr(first, "pci") + ": " +
        std::to_string(g.pids.size()) + " process(es), " + std::to_string(g.occurrences) + " occurrence(s), " +
        std::to_string(gpus) + " GPU(s) faulting -> " +
        (hardware ? "the GPU repeats it alone: hardware"
             : g.sameAddress
             ? "every fault at one address " + eventAttr(first, "fault_addr") + ": a deterministic (software) fault"
             : "application fault");
    for (const Event* e : g.events)
        step.events.push_back(e->id);
    trace.record(std::move(step));
}

}  // namespace

void classifyAppFaults(std::vector<Event>& events, const json& config, TraceSink& trace, const std::string& rule)
{
    const std::string appSymptom = config.value("symptom", "gpu_app_fault");
    const std::string hwSymptom = config.value("hardware_symptom", "gpu_engine_fault_repeated");
    const TimeNs gap = static_cast<TimeNs>(config.value("attempt_gap_s", 300.0) * 1e9);
    const std::size_t maxOthers = config.value("max_other_gpus", 0u);
    std::map<std::pair<std::string, std::string>, GpuFaults> byGpu;
    for (auto& e : events) {
        if (e.type == "xid" && e.symptom == appSymptom && !e.sympathetic &&
            listed(config.value("xids", json::array()), parseInteger<int>(eventAttr(e, "xid")).value_or(-1)))
            byGpu[{e.node, eventAttr(e, "pci")}].events.push_back(&e);
    }
    for (auto& [key, g] : byGpu) {
        std::string pids;
        for (const Event* e : g.events)
            if (knownPid(eventAttr(*e, "pid")) && g.pids.insert(eventAttr(*e, "pid")).second)
                pids += (pids.empty() ? "" : ",") + eventAttr(*e, "pid");
        g.occurrences = countOccurrences(g.events, gap);
        g.sameAddress = sameFaultAddress(g.events);
        // Hardware only when the GPU repeats it in separate attempts, at varying addresses, and alone.
        const bool hardware = g.occurrences >= 2 && !g.sameAddress && byGpu.size() - 1 <= maxOthers;
        const Event& first = *g.events.front();
        const std::string oldId = symptomIdFor(appSymptom, first.node, first.gpu);
        for (Event* e : g.events) {
            e->attrs["pids"] = pids.empty() ? "unknown" : pids;
            e->attrs["pid_count"] = std::to_string(g.pids.size());
            e->attrs["occurrences"] = std::to_string(g.occurrences);
            e->attrs["gpus_with_fault"] = std::to_string(byGpu.size());
            if (hardware)
                e->symptom = hwSymptom;
        }
        if (hardware)
            renameFollows(events, oldId, symptomIdFor(hwSymptom, first.node, first.gpu));
        recordClassification(g, hardware, byGpu.size(), trace, rule);
    }
}

void promoteNamedCauses(std::vector<Event>& events, const json& namedCauses, TraceSink& trace, const std::string& rule)
{
    if (!namedCauses.is_object())
        return;
    for (auto& e : events) {
        if (e.type != "xid" || !e.sympathetic || e.attrs.count("follows"))
            continue;
        const std::string cause = eventAttr(e, "caused_by_xid");
        const std::string symptom = cause.empty() ? std::string() : text(namedCauses, cause.c_str());
        if (symptom.empty())
            continue;
        e.symptom = symptom;
        e.sympathetic = false;
        TraceStep step = earlyStep(rule, TraceAction::NamedCause);
        step.node = e.node;
        step.gpu = e.gpu;
        step.summary = "Xid " + eventAttr(e, "xid") + " on " + (e.node.empty() ? "an unnamed node" : e.node) +
            " names previous Xid " + cause + " as its cause, which is not in the evidence -> " + symptom;
        step.details = {{"caused_by_xid", cause}};
        step.events = {e.id};
        trace.record(std::move(step));
    }
}

bool readNvlinkWithoutWords(const std::string& detail, AttrMap& attrs, bool& fatal)
{
    static const re2::RE2 severity(R"((?:\b([A-Z][A-Z0-9_]*(?:/[A-Z0-9_]+)?)\s+)?\b(Fatal|Nonfatal)\b)");
    static const re2::RE2 link(R"(\bLink\s+(\d{1,3})\b)");
    std::string subcode, level, number;
    if (!re2::RE2::PartialMatch(detail, severity, &subcode, &level))
        return false;
    fatal = level == "Fatal";
    attrs["severity"] = level;
    attrs["subcode"] = subcode.empty() ? std::string("not shown") : subcode;
    if (re2::RE2::PartialMatch(detail, link, &number))
        if (const auto n = parseIntegerIn<int>(number, 0, 999))
            attrs["link"] = std::to_string(*n);  // `Link 07` is link 7, as the decoded form says
    attrs["error_words"] = "not shown";
    return true;
}

}  // namespace attrib::rules
