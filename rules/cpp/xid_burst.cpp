// SPDX-License-Identifier: GPL-3.0-or-later
// HandleXidBurstEvents (early phase). Xid facts: NVIDIA Xid catalog (docs.nvidia.com/deploy/xid-errors),
// summarized in shared/reference/domain.md §2. The decoding tables live in the rule's JSON config; this file
// holds the logic: burst grouping, word decoding, class choice, sympathetic marking. Every inner step is
// reported to the trace.
#include "rules/cpp/xid_burst.h"
#include "rules/cpp/early_step.h"

#include "rules/cpp/xid_annotate.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pci.h"
#include "engine/pipeline.h"

#include <re2/re2.h>

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

/// A field as quoted in a note: absurd fields can be megabytes long.
std::string shown(std::string_view field)
{
    return field.size() <= 40 ? std::string(field) : std::string(field.substr(0, 40)) + "...";
}

}  // namespace

std::optional<NvlinkTail> parseNvlinkTail(std::string_view detail, std::string& problem)
{
    static const re2::RE2 re(
        R"(([A-Z][A-Z0-9_]*(?:/[A-Z0-9_]+)?)\s+(Fatal|Nonfatal)\s+XC\s?(\d)\s+i\s?(\d)\s+Link\s+(-?\d+)\s+[(\[]\s*(-?0x[0-9a-fA-F]+)(?:\s+(-?0x[0-9a-fA-F]+))?)");
    std::string subcode, severity, xc, inj, link, intr, status;
    if (!re2::RE2::PartialMatch(re2::StringPiece(detail.data(), detail.size()), re, &subcode, &severity, &xc, &inj,
                                &link, &intr, &status))
        return std::nullopt;
    NvlinkTail t;
    t.subcode = subcode;
    t.fatal = severity == "Fatal";
    t.injected = inj != "0";
    const auto crossContain = parseIntegerIn<int>(xc, 0, 9);
    const auto linkNumber = parseIntegerIn<int>(link, 0, MaxLink);
    const auto intrInfo = parseHex<std::uint32_t>(intr);
    const auto errorStatus = status.empty() ? std::optional<std::uint32_t>(0) : parseHex<std::uint32_t>(status);
    if (!crossContain)
        problem = "XC field '" + shown(xc) + "' is not a digit";
    else if (!linkNumber)
        problem = "link number '" + shown(link) + "' is not a link (0-" + std::to_string(MaxLink) + ")";
    else if (!intrInfo)
        problem = "intrInfo '" + shown(intr) + "' is not a 32-bit word";
    else if (!errorStatus)
        problem = "error status '" + shown(status) + "' is not a 32-bit word";
    if (!problem.empty())
        return std::nullopt;
    t.crossContain = *crossContain;
    t.link = *linkNumber;
    t.intrInfo = *intrInfo;
    t.errorStatus = *errorStatus;
    return t;
}

std::optional<Xid74Words> parseXid74(std::string_view detail, std::string& problem)
{
    static const re2::RE2 re(R"([Ll]ink\s+(-?\d+)\s*\(\s*((?:-?0x[0-9a-fA-F]+\s*,\s*)*-?0x[0-9a-fA-F]+)\s*\))");
    std::string link, words;
    if (!re2::RE2::PartialMatch(re2::StringPiece(detail.data(), detail.size()), re, &link, &words))
        return std::nullopt;
    Xid74Words w;
    const auto linkNumber = parseIntegerIn<int>(link, 0, MaxLink);
    if (!linkNumber) {
        problem = "link number '" + shown(link) + "' is not a link (0-" + std::to_string(MaxLink) + ")";
        return std::nullopt;
    }
    w.link = *linkNumber;
    std::size_t pos = 0;
    while (pos < words.size()) {
        std::size_t end = words.find(',', pos);
        if (end == std::string::npos)
            end = words.size();
        std::string_view word(words.data() + pos, end - pos);
        while (!word.empty() && word.back() == ' ')
            word.remove_suffix(1);
        while (!word.empty() && word.front() == ' ')
            word.remove_prefix(1);
        const auto value = parseHex<std::uint32_t>(word);
        if (!value) {
            problem = "error word '" + shown(word) + "' is not a 32-bit word";
            return std::nullopt;
        }
        w.words.push_back(*value);
        pos = end + 1;
    }
    return w;
}

namespace {

std::string hex32(std::uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

/// A decoded Xid: the symptom it raises and the facts behind it.
struct Decoded {
    std::string symptom;
    bool sympathetic = false;
    std::map<std::string, std::string> attrs;
    std::string explanation;
    std::string problem;  ///< a field that could not be read (becomes a coverage note on the line)
};

class HandleXidBurstEvents final : public CodeRule {
public:
    explicit HandleXidBurstEvents(json config)
        : m_config(std::move(config))
    {
        m_window = static_cast<TimeNs>(m_config.value("burst_window_s", 10.0) * 1e9);
        for (const auto& x : m_config.value("sympathetic_xids", json::array()))
            m_sympathetic.insert(x.get<int>());
    }

    std::string id() const override { return "HandleXidBurstEvents"; }
    std::string description() const override
    {
        return "Groups Xid bursts per GPU, decodes NVLink error words and recovery actions, marks sympathetic Xids";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog& catalog,
                           TraceSink& trace) const override;

private:
    Decoded decode(int xid, const std::string& detail, const Catalog& catalog, TraceSink& trace, const Event& e) const;
    std::string chooseSymptom(int xid, const AttrMap& facts) const;
    Decoded decodeNvlink5(int xid, const NvlinkTail& t) const;
    Decoded decodeXid74(const Xid74Words& w) const;
    std::string nvlinkWithoutWords(int xid, bool fatal, AttrMap& attrs) const;
    void resolveGpu(Event& e, const ExecutionContext& context, TraceSink& trace) const;
    void markBurst(std::vector<Event*>& burst, const Catalog& catalog, TraceSink& trace) const;

    json m_config;
    TimeNs m_window = 10 * NsPerSec;
    std::set<int> m_sympathetic;
};

std::string mapped(const json& table, const std::string& key, const std::string& fallback)
{
    auto it = table.find(key);
    return it != table.end() && it->is_string() ? it->get<std::string>() : fallback;
}

Decoded HandleXidBurstEvents::decodeNvlink5(int xid, const NvlinkTail& t) const
{
    Decoded d;
    d.attrs["subcode"] = t.subcode;
    d.attrs["severity"] = t.fatal ? "Fatal" : "Nonfatal";
    d.attrs["intr_info"] = hex32(t.intrInfo);
    d.attrs["error_status"] = hex32(t.errorStatus);
    d.attrs["link"] = std::to_string(t.link);
    d.attrs["injected"] = t.injected ? "true" : "false";
    const json nv = m_config.value("nvlink5", json::object());
    if (t.injected) {
        d.symptom = nv.value("injected_symptom", "nvlink_injected_error");
        d.explanation = "injected (RAS test) NVLink error: not a fault";
        return d;
    }
    const bool linkEvent =
        t.subcode.find("LINK_EVT") != std::string::npos || t.subcode.find("LINK_DOWN") != std::string::npos;
    if (xid == 149 && linkEvent) {
        const int reason = xid149Reason(t.intrInfo);
        d.attrs["reason"] = std::to_string(reason);
        d.attrs["reason_name"] =
            mapped(m_config.value("xid149_reason_names", json::object()), std::to_string(reason), "unknown_reason");
        std::string cls = "unknown";
        for (const auto& [name, entry] : objectAt(m_config, "xid149_reasons").items()) {
            const auto codes = entry.value("codes", json::array());
            if (std::find(codes.begin(), codes.end(), reason) != codes.end()) {
                cls = name;
                d.symptom = entry.value("symptom", "");
            }
        }
        if (d.symptom.empty())
            d.symptom =
                m_config["xid149_reasons"].value("unknown", json::object()).value("symptom", "nvlink_link_down");
        d.attrs["class"] = cls;
        d.explanation = "intrInfo " + hex32(t.intrInfo) + " -> reason (bits 25:20) " + std::to_string(reason) + " (" +
            d.attrs["reason_name"] + "), class " + cls;
        return d;
    }
    // NVIDIA's catalog (Xid 144-150 decode) gives some non-fatal rows, by subcode and error status, the action
    // XID_154_EVAL: contained in software (the application on that GPU may be killed), no reset unless an Xid 154
    // asks for one.
    const json contained = nv.value("contained", json::object());
    const json statuses =
        contained.value("error_status", json::object()).value(std::to_string(xid) + " " + t.subcode, json::array());
    if (!t.fatal && std::find(statuses.begin(), statuses.end(), hex32(t.errorStatus)) != statuses.end()) {
        d.symptom = contained.value("symptom", "nvlink_contained_error");
        d.attrs["catalog_action"] = "XID_154_EVAL";
        d.explanation = "Xid " + std::to_string(xid) + " " + t.subcode + " Nonfatal, error status " +
            hex32(t.errorStatus) + ": contained (XID_154_EVAL) on link " + d.attrs["link"];
        return d;
    }
    d.symptom = t.fatal ? nv.value("fatal_symptom", "nvlink_fatal") : nv.value("nonfatal_symptom", "nvlink_nonfatal");
    d.explanation =
        "Xid " + std::to_string(xid) + " " + t.subcode + " " + d.attrs["severity"] + " on link " + d.attrs["link"];
    return d;
}

std::string HandleXidBurstEvents::nvlinkWithoutWords(int xid, bool fatal, AttrMap& attrs) const
{
    const json nv = m_config.value("nvlink5", json::object());
    if (xid == 149 && attrs["subcode"].find("LINK") != std::string::npos) {  // a link-down whose reason is not shown
        attrs["reason"] = "not shown";
        attrs["reason_name"] = "error words not shown";
        return m_config["xid149_reasons"].value("unknown", json::object()).value("symptom", "nvlink_link_down");
    }
    return fatal ? nv.value("fatal_symptom", "nvlink_fatal") : nv.value("nonfatal_symptom", "nvlink_nonfatal");
}

Decoded HandleXidBurstEvents::decodeXid74(const Xid74Words& w) const
{
    Decoded d;
    d.attrs["link"] = std::to_string(w.link);
    std::string words;
    for (auto v : w.words)
        words += (words.empty() ? "" : " ") + hex32(v);
    d.attrs["words"] = words;
    // The most severe class among the set bits wins; the table is ordered most severe first.
    const json classes = m_config.value("xid74_classes", json::array());
    std::string bits;
    for (const auto& cls : classes) {
        const std::size_t word = cls.value("word", 1u);
        if (word == 0 || word > w.words.size())
            continue;
        for (const auto& bit : cls.value("bits", json::array())) {
            if ((w.words[word - 1] >> bit.get<int>()) & 1u) {
                bits += (bits.empty() ? "" : ", ") + std::string("word ") + std::to_string(word) + " bit " +
                    std::to_string(bit.get<int>()) + " (" + cls.value("class", "") + ")";
                if (d.symptom.empty()) {
                    d.symptom = cls.value("symptom", "nvlink_error");
                    d.sympathetic = cls.value("sympathetic", false);
                    d.attrs["class"] = cls.value("class", "");
                }
            }
        }
    }
    if (d.symptom.empty()) {
        d.symptom = m_config.value("xid74_default_symptom", "nvlink_error");
        d.attrs["class"] = "undecoded";
    }
    d.explanation = "Xid 74 link " + std::to_string(w.link) + " words " + words + (bits.empty() ? "" : ": " + bits);
    return d;
}

std::string HandleXidBurstEvents::chooseSymptom(int xid, const AttrMap& facts) const
{
    // An explicit mapping wins; otherwise the catalog bucket may name one (IGNORE -> informational).
    std::string explicitSymptom = mapped(m_config.value("xid_symptoms", json::object()), std::to_string(xid), "");
    if (!explicitSymptom.empty())
        return explicitSymptom;
    auto bucket = facts.find("bucket");
    const std::string byBucket = bucket == facts.end()
        ? std::string()
        : mapped(m_config.value("bucket_symptoms", json::object()), bucket->second, "");
    return byBucket.empty() ? m_config.value("default_symptom", "gpu_xid") : byBucket;
}

Decoded HandleXidBurstEvents::decode(int xid, const std::string& detail, const Catalog& catalog, TraceSink& trace,
                                     const Event& e) const
{
    Decoded d;
    std::string problem;
    if (xid >= 144 && xid <= 150) {
        bool fatal = false;
        if (auto tail = parseNvlinkTail(detail, problem))
            d = decodeNvlink5(xid, *tail);
        else if (problem.empty() && readNvlinkWithoutWords(detail, d.attrs, fatal))
            d.symptom = nvlinkWithoutWords(xid, fatal, d.attrs);
    } else if (xid == 74) {
        if (auto words = parseXid74(detail, problem))
            d = decodeXid74(*words);
    } else if (xid == 154) {
        static const re2::RE2 re(R"(from (0x[0-9a-fA-F]+) \(([^)]*)\) to (0x[0-9a-fA-F]+) \(([^)]*)\))");
        std::string fromCode, fromName, toCode, toName;
        if (re2::RE2::PartialMatch(detail, re, &fromCode, &fromName, &toCode, &toName)) {
            d.attrs["recovery_action"] = toName;
            d.attrs["recovery_from"] = fromName;
            d.explanation = "recovery action " + fromName + " -> " + toName;
        }
    } else if (xid == 94 || xid == 95) {
        static const re2::RE2 re(R"((Contained|Uncontained): ([^.]*)\. RST: (Yes|No), D-RST: (Yes|No))");
        std::string kind, unit, rst, drst;
        if (re2::RE2::PartialMatch(detail, re, &kind, &unit, &rst, &drst)) {
            d.attrs["containment"] = kind;
            d.attrs["unit"] = unit;
            d.attrs["reset_required"] = rst;
            d.attrs["drain_reset"] = drst;
        }
    } else {
        decodeXidDetail(xid, detail, d.attrs);
    }
    const AttrMap facts = xidCatalogFacts(xid, catalog.data("xid_catalog"));
    d.attrs.insert(facts.begin(), facts.end());
    if (d.symptom.empty())
        d.symptom = chooseSymptom(xid, facts);
    d.sympathetic = d.sympathetic || m_sympathetic.count(xid) > 0;
    d.problem = std::move(problem);
    TraceStep step = earlyStep(id(), TraceAction::Decode);
    step.node = e.node;
    step.gpu = e.gpu;
    step.summary = "Xid " + std::to_string(xid) + " -> " + d.symptom +
        (d.explanation.empty() ? std::string() : ": " + d.explanation);
    step.details = d.attrs;
    step.details["xid"] = std::to_string(xid);
    if (!d.problem.empty()) {
        step.details["problem"] = d.problem;
        step.summary += " (not decoded: " + d.problem + ")";
    }
    step.events = {e.id};
    trace.record(std::move(step));
    return d;
}

void HandleXidBurstEvents::resolveGpu(Event& e, const ExecutionContext& context, TraceSink& trace) const
{
    const std::string pci = normalizePci(e.attrs["pci"]);
    e.attrs["pci"] = pci;
    auto node = context.pciToGpu.find(e.node);
    if (node != context.pciToGpu.end()) {
        auto it = node->second.find(pci);
        if (it != node->second.end()) {
            e.gpu = it->second;
            return;
        }
    }
    TraceStep step = earlyStep(id(), TraceAction::MapGpu);
    step.fired = false;
    step.node = e.node;
    step.summary = "no GPU index known for PCI " + pci + " on " + e.node +
        "; symptom keyed by PCI (add NCCL INFO init lines or an nvidia-smi listing)";
    step.events = {e.id};
    trace.record(std::move(step));
}

void HandleXidBurstEvents::markBurst(std::vector<Event*>& burst, const Catalog& catalog, TraceSink& trace) const
{
    markBurstFollowers(burst, m_config.value("follow_xids", json::object()));
    const Event* primary = nullptr;
    int best = INT32_MIN;
    for (const Event* e : burst) {
        const SymptomDef* def = catalog.symptom(e->symptom);
        const int p = def ? def->priority : 0;
        if (!e->sympathetic && p > best) {
            best = p;
            primary = e;
        }
    }
    TraceStep step = earlyStep(id(), TraceAction::Burst);
    step.node = burst.front()->node;
    step.gpu = burst.front()->gpu;
    step.windowStart = burst.front()->time;
    step.windowEnd = burst.back()->time;
    std::string xids;
    std::uint64_t lines = 0;  // a folded tail stands for 1 + folded Xid lines
    for (const Event* e : burst) {
        step.events.push_back(e->id);
        xids += (xids.empty() ? "" : ",") + e->attrs.at("xid");
        lines += 1 + e->folded;
    }
    step.details["xids"] = xids;
    step.summary = "burst of " + std::to_string(lines) + " Xid(s) [" + xids + "] on " + step.node +
        (primary ? "; primary " + primary->symptom : "; no primary (sympathetic only)");
    trace.record(std::move(step));
    if (!primary)
        return;
    const std::string primaryId = symptomIdFor(primary->symptom, primary->node, primary->gpu);
    for (Event* e : burst) {
        if (e->sympathetic)
            e->attrs["follows"] = primaryId;
    }
}

std::vector<Event> HandleXidBurstEvents::run(std::vector<Event> events, ExecutionContext& context,
                                             const Catalog& catalog, TraceSink& trace) const
{
    inheritMissingPci(events, static_cast<TimeNs>(m_config.value("pci_inherit_window_s", 2.0) * 1e9), trace, id());
    std::map<std::pair<std::string, std::string>, std::vector<Event*>> byGpu;
    for (auto& e : events) {
        if (e.type != "xid")
            continue;
        resolveGpu(e, context, trace);
        const auto parsed = parseIntegerIn<int>(e.attrs["xid"], 0, MaxXid);
        const int xid = parsed.value_or(-1);
        if (!parsed)
            noteUnreadable(
                e.attrs, "Xid number '" + shown(e.attrs["xid"]) + "' is not an Xid (0-" + std::to_string(MaxXid) + ")");
        Decoded d = decode(xid, e.attrs.count("detail") ? e.attrs["detail"] : std::string(), catalog, trace, e);
        if (!d.problem.empty())
            noteUnreadable(e.attrs, "Xid " + std::to_string(xid) + ": " + d.problem);
        e.symptom = d.symptom;
        e.sympathetic = d.sympathetic;
        for (auto& [k, v] : d.attrs)
            e.attrs[k] = v;
        if (d.attrs.count("link"))
            e.link = d.attrs["link"];
        byGpu[{e.node, e.attrs["pci"]}].push_back(&e);
    }
    // Bursts: consecutive Xids on one GPU separated by less than the window.
    std::map<std::string, std::vector<std::vector<Event*>>> burstsByNode;
    for (auto& [key, list] : byGpu) {
        std::vector<Event*> burst;
        for (Event* e : list) {
            if (!burst.empty() && e->time != NoTime && burst.back()->time != NoTime &&
                e->time - burst.back()->time > m_window) {
                markBurst(burst, catalog, trace);
                burstsByNode[key.first].push_back(burst);
                burst.clear();
            }
            burst.push_back(e);
        }
        if (!burst.empty()) {
            markBurst(burst, catalog, trace);
            burstsByNode[key.first].push_back(burst);
        }
    }
    // Sympathetic Xids on a GPU without its own primary follow a primary on another GPU of the node (the last
    // one in burst order within the window). Only the primaries are scanned: a storm of sympathetic Xids stays
    // linear.
    for (auto& [node, bursts] : burstsByNode) {
        std::vector<const Event*> primaries;
        for (const auto& burst : bursts)
            for (const Event* p : burst)
                if (!p->sympathetic && p->time != NoTime)
                    primaries.push_back(p);
        for (auto& burst : bursts) {
            for (Event* e : burst) {
                if (!e->sympathetic || e->time == NoTime || e->attrs.count("follows"))
                    continue;
                for (auto p = primaries.rbegin(); p != primaries.rend(); ++p) {
                    if (std::llabs(e->time - (*p)->time) <= m_window) {
                        e->attrs["follows"] = symptomIdFor((*p)->symptom, (*p)->node, (*p)->gpu);
                        break;
                    }
                }
            }
        }
    }
    promoteNamedCauses(events, m_config.value("named_causes", json::object()), trace, id());
    classifyAppFaults(events, m_config.value("app_faults", json::object()), trace, id());
    return events;
}

}  // namespace

std::unique_ptr<CodeRule> makeHandleXidBurstEvents(const json& config)
{
    return std::make_unique<HandleXidBurstEvents>(config);
}

}  // namespace attrib::rules
