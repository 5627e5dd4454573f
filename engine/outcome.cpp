// SPDX-License-Identifier: GPL-3.0-or-later
// Phases 8-9: the platform priority table narrows the active set; outcome mapping names the terminal
// state, sub-domain, root cause and action, one failure on several nodes, or an honest "ambiguous" with candidates.
#include "engine/extractor.h"
#include "engine/json_util.h"
#include "engine/line_order.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <map>
#include <set>

namespace attrib::engine {

int effectivePriority(const Catalog& catalog, const PriorityTable* table, const Symptom& symptom)
{
    if (table) {
        for (const auto& [glob, priority] : table->overrides)
            if (globMatch(glob, symptom.name))
                return priority;
    }
    const SymptomDef* def = catalog.symptom(symptom.name);
    return def ? def->priority : symptom.priority;
}

namespace {

bool earlier(const Symptom* a, const Symptom* b)
{
    const TimeNs ta = usableTime(*a) ? a->origin : INT64_MAX;
    const TimeNs tb = usableTime(*b) ? b->origin : INT64_MAX;
    return std::tie(ta, a->id) < std::tie(tb, b->id);
}

/// The earliest of the top candidates of `chosen`'s node by line order, when `chosen` (the first by time, then id)
/// has no usable time: another untimed candidate whose first line comes earlier in the same file happened first.
/// Never across files, never over a real time (a timed candidate of the node would have been chosen).
Symptom* firstByLine(Symptom* chosen, const std::vector<Symptom*>& best)
{
    Symptom* first = chosen;
    for (auto* s : best)
        if (s->node == chosen->node && lineOrdered(*s, *chosen) && s->firstObservation < first->firstObservation)
            first = s;
    return first;
}

/// A root cause whose own lines name no host (an excerpt, a redacted prefix) takes the node of what it explains
/// when that is a single node: the task exit on gpu-1-0 after a container setup failure, the peer named by the
/// completion errors after a port error. Not for symptoms that are job-wide by nature (a time limit, the same
/// error on several nodes): their node is empty on purpose. Returns the explained symptom the node came from.
std::string inferRootNode(Symptom& root, const std::vector<Symptom>& symptoms)
{
    if (!root.node.empty() || root.attrs.count("job_wide") || root.attrs.count("first_node"))
        return {};
    if (auto b = root.attrs.find("breadth"); b != root.attrs.end() && b->second != "1")
        return {};
    std::set<std::string> nodes;
    std::string from;
    for (const auto& s : symptoms) {
        if (s.causedBy != root.id || s.status != SymptomStatus::Demoted || s.node.empty())
            continue;
        if (nodes.insert(s.node).second && from.empty())
            from = s.id;
    }
    if (nodes.size() != 1)
        return {};
    root.node = *nodes.begin();
    return from;
}

void demote(Symptom& s, const std::string& rule, const std::string& reason, const std::string& cause, TraceSink& trace)
{
    TraceStep step;
    step.phase = TracePhase::Priority;
    step.rule = rule;
    step.action = TraceAction::Demote;
    changeStatus(s, SymptomStatus::Demoted, std::move(step), reason, cause, trace);
}

/// The top-priority active symptoms: the earliest per node, sorted by time.
std::vector<Symptom*> topCandidates(const Catalog& catalog, const PriorityTable* table, std::vector<Symptom>& all,
                                    int& top)
{
    top = INT32_MIN;
    for (const auto& s : all)
        if (s.status == SymptomStatus::Active)
            top = std::max(top, effectivePriority(catalog, table, s));
    std::vector<Symptom*> best;
    for (auto& s : all)
        if (s.status == SymptomStatus::Active && effectivePriority(catalog, table, s) == top)
            best.push_back(&s);
    std::sort(best.begin(), best.end(), earlier);
    return best;
}

}  // namespace

std::vector<Symptom> prioritizeSymptoms(const Catalog& catalog, const ExecutionContext& context,
                                        std::vector<Symptom> symptoms, TraceSink& trace, const PriorityTable* table)
{
    if (!table)
        table = catalog.priorityTable(context.platform);
    const std::string rule = table ? table->id : std::string("PriorityRootCause");
    int top = 0;
    const auto best = topCandidates(catalog, table, symptoms, top);
    TraceStep select;
    select.phase = TracePhase::Priority;
    select.rule = rule;
    select.action = TraceAction::Select;
    select.details["platform"] = context.platform.empty() ? "unknown" : context.platform;
    select.details["top_priority"] = std::to_string(top);
    if (best.empty()) {
        select.fired = false;
        select.summary = "no active symptom to rank";
        trace.record(std::move(select));
        return symptoms;
    }
    std::string names;
    for (const auto* s : best)
        names += (names.empty() ? "" : ", ") + s->id;
    select.details["candidates"] = names;
    select.summary = "top priority " + std::to_string(top) + ": " + names;
    trace.record(std::move(select));
    const std::string leader = best.front()->id;
    for (auto& s : symptoms) {
        if (s.status != SymptomStatus::Active)
            continue;
        const int p = effectivePriority(catalog, table, s);
        if (p < top)
            demote(s, rule, "priority " + std::to_string(p) + " is below " + std::to_string(top) + " of " + leader,
                   leader, trace);
    }
    return symptoms;
}

namespace {

bool collectedOn(const ExecutionContext& context, const std::string& node, const std::string& kind)
{
    auto it = context.collected.find(node);
    return it != context.collected.end() && std::find(it->second.begin(), it->second.end(), kind) != it->second.end();
}

bool collectedAnywhere(const ExecutionContext& context, const std::string& kind)
{
    return std::any_of(context.collected.begin(), context.collected.end(), [&](const auto& entry) {
        return std::find(entry.second.begin(), entry.second.end(), kind) != entry.second.end();
    });
}

/// The advice lines of one catalog entry (ambiguity_advice) for these tied candidates; none when it does not apply.
std::vector<std::string> adviceLines(const ExecutionContext& context, const std::vector<Symptom*>& tied,
                                     const nlohmann::json& entry)
{
    const std::string text = entry.value("text", "");
    const auto domains = stringsAt(entry, "domains");
    const bool inDomain = domains.empty() || std::any_of(tied.begin(), tied.end(), [&](const Symptom* s) {
                              return std::find(domains.begin(), domains.end(), s->domain) != domains.end();
                          });
    const std::string anywhere = entry.value("missing_anywhere", "");
    if (text.empty() || !inDomain || (!anywhere.empty() && collectedAnywhere(context, anywhere)))
        return {};
    const std::string onNode = entry.value("missing_on_candidate_node", "");
    if (onNode.empty())
        return {text};
    std::vector<std::string> lines;
    for (const auto* s : tied)
        if (!s->node.empty() && !collectedOn(context, s->node, onNode))
            lines.push_back(expandTemplate(text, {{"node", s->node}}));
    return lines;
}

/// The evidence that would tell tied candidates apart, most specific first (catalog data ambiguity_advice).
std::string separatedBy(const Catalog& catalog, const ExecutionContext& context, const std::vector<Symptom*>& tied)
{
    const nlohmann::json* advice = catalog.data("ambiguity_advice");
    std::string text;
    if (!advice)
        return text;
    for (const auto& entry : advice->value("advice", nlohmann::json::array())) {
        if (!entry.is_object())
            continue;
        for (const auto& line : adviceLines(context, tied, entry))
            text += (text.empty() ? "" : "; ") + line;
    }
    return text;
}

Candidate toCandidate(const Catalog& catalog, const Symptom& s)
{
    const SymptomDef* def = catalog.symptom(s.name);
    Candidate c;
    c.symptomId = s.id;
    c.symptom = s.name;
    c.node = s.node;
    c.gpu = s.gpu;
    c.time = s.firstSeen;
    c.terminalState = def ? def->terminalState : "unknown";
    c.subDomain = s.domain;
    c.summary = def ? expandProse(def->summary, templateValues(s)) : s.name;
    return c;
}

std::uint64_t decisiveObservation(const Symptom& s, const std::vector<Event>& events)
{
    for (auto id : s.events) {
        auto it = std::lower_bound(events.begin(), events.end(), id,
                                   [](const Event& e, std::uint64_t v) { return e.id < v; });
        if (it != events.end() && it->id == id && !it->observations.empty())
            return it->observations.front();
    }
    return s.evidence.empty() ? 0 : s.evidence.front();
}

/// The action for people: when the evidence names no node, it starts by finding it.
std::string actionText(const std::string& tpl, const AttrMap& values)
{
    const auto node = values.find("node");
    if ((node != values.end() && !node->second.empty()) || tpl.find("{node}") == std::string::npos)
        return expandProse(tpl, values);
    auto named = values;
    named["node"] = "that node";
    return "find the node that logged this first (the evidence names no host: add nodes/<host>/ folders or a "
           "workload.json), then " +
        expandProse(tpl, named);
}

void fillRootCause(const Catalog& catalog, const Symptom& s, const std::vector<Event>& events, const std::string& rule,
                   Verdict& v)
{
    const SymptomDef* def = catalog.symptom(s.name);
    const auto values = templateValues(s);
    RootCause rc;
    rc.symptomId = s.id;
    rc.symptom = s.name;
    rc.node = s.node;
    rc.gpu = s.gpu;
    rc.rank = s.rank;
    rc.link = s.link;
    rc.time = s.firstSeen;
    rc.summary = def ? expandProse(def->summary, values) : s.name;
    rc.rule = rule;
    rc.decisiveObservation = decisiveObservation(s, events);
    v.terminalState = def ? def->terminalState : "unknown";
    v.subDomain = s.domain;
    v.action.action = def ? actionText(def->action, values) : "";
    bool targetIncomplete = false;
    v.action.target = def ? expandProse(def->target, values, &targetIncomplete) : s.node;
    if (targetIncomplete)
        v.action.target.clear();  // a target names a machine; a partly unknown one names nothing
    v.action.why = rc.summary;
    v.rootCause = rc;
}

/// The top candidates' earliest per node (they come sorted by time, then id); a node whose first is untimed takes
/// the first of its tied candidates by line order where that applies, noting it in `byLine`.
std::vector<Symptom*> earliestPerNode(const std::vector<Symptom*>& best, std::map<const Symptom*, std::string>& byLine)
{
    std::vector<Symptom*> perNode;
    std::set<std::string> seen;
    for (auto* s : best) {
        if (!seen.insert(s->node).second)
            continue;
        Symptom* first = firstByLine(s, best);
        if (first != s)
            byLine[first] = lineOrderDetail(*first) + ": " + first->id + " comes before " + s->id;
        perNode.push_back(first);
    }
    return perNode;
}

/// A summary closed as a sentence: a period unless it already ends in one (a quoted message often does), so the
/// explanation never reads "incorrect..".
std::string asSentence(const std::string& summary)
{
    const char last = summary.empty() ? ' ' : summary.back();
    return last == '.' || last == '!' || last == '?' ? summary : summary + ".";
}

struct RootInputs {
    const Catalog& catalog;
    const PriorityTable* table;
    const std::vector<Symptom>& symptoms;
    const std::vector<Event>& events;
    const std::string& rule;
};

/// A root cause whose finding cannot tell its causes apart (registry terminal state `ambiguous`): each of its
/// readings becomes a candidate, with the evidence that would separate them, and the explanation names them.
void listReadings(const Catalog& catalog, const Symptom& root, Verdict& v, TraceStep& step)
{
    const SymptomDef* def = catalog.symptom(root.name);
    if (!def || def->readings.empty())
        return;
    const auto values = templateValues(root);
    const std::string sep = expandProse(def->separatedBy, values);
    std::string readings;
    for (const Reading& r : def->readings) {
        Candidate c = toCandidate(catalog, root);
        c.terminalState = r.terminalState;
        c.subDomain = r.subDomain;
        c.summary = expandProse(r.summary, values);
        c.separatedBy = sep;
        readings += (readings.empty() ? "" : "; or ") + c.summary;
        v.candidates.push_back(std::move(c));
    }
    v.explanation += " This finding alone cannot tell " + std::to_string(def->readings.size()) +
        " readings apart: " + readings + ". What would separate them: " + asSentence(sep);
    step.details["readings"] = std::to_string(def->readings.size());
}

/// A clear lead: the verdict's root cause, its explanation, and the outcome step's summary and details.
/// `lineOrder` is the order detail when line order chose it among its node's tied candidates.
void mapRoot(const RootInputs& in, const Symptom& chosen, const std::string& lineOrder, Verdict& v, TraceStep& step)
{
    Symptom root = chosen;
    const std::string nodeFrom = inferRootNode(root, in.symptoms);
    fillRootCause(in.catalog, root, in.events, in.rule, v);
    step.summary = "root cause " + root.id + " -> " + v.terminalState + " / " + v.subDomain;
    v.explanation = asSentence(v.rootCause->summary) + untimedOrderNote(in.catalog, in.table, root, in.symptoms);
    if (!nodeFrom.empty()) {
        v.explanation += " Its own lines name no host; the node " + root.node + " is taken from " + nodeFrom +
            ", which it explains.";
        step.details["node_inferred_from"] = nodeFrom;
    }
    if (!lineOrder.empty()) {
        step.details["order"] = lineOrder;
        v.explanation += " Its node's tied candidates have no usable timestamp; the first line of them in " +
            chosen.firstFile + " is taken as the first to happen.";
    } else if (!usableTime(chosen)) {
        step.details["order"] = "not checked: untimed symptoms count as co-occurring";
    }
    listReadings(in.catalog, root, v, step);
}

/// The candidates of an unordered tie, each with what would separate them.
void listCandidates(const Catalog& catalog, const ExecutionContext& context, const std::vector<Symptom*>& perNode,
                    Verdict& v)
{
    const std::string sep = separatedBy(catalog, context, perNode);
    for (auto* s : perNode) {
        v.candidates.push_back(toCandidate(catalog, *s));
        v.candidates.back().separatedBy = sep;
    }
}

/// The tied candidates are one failure seen on several nodes: the same symptom everywhere, and not a hardware fault
/// (for a board or a link, which node it is decides what to drain, so two nodes with it stay ambiguous).
bool oneFailureOnSeveralNodes(const Catalog& catalog, const std::vector<Symptom*>& perNode)
{
    const SymptomDef* def = catalog.symptom(perNode.front()->name);
    return perNode.size() > 1 && def && def->terminalState != "hardware_failure" &&
        std::all_of(perNode.begin(), perNode.end(), [&](const Symptom* s) { return s->name == perNode.front()->name; });
}

/// One failure on several nodes that cannot be ordered: what failed is decided, where it began is not. The verdict
/// takes the symptom's terminal state and sub-domain; its root cause names no node (its symptom_id is the first
/// candidate's), and the candidates list the nodes with what would separate them.
void mapOneFailure(const RootInputs& in, const ExecutionContext& context, const std::vector<Symptom*>& perNode,
                   Verdict& v, TraceStep& step)
{
    Symptom root = *perNode.front();
    root.node.clear();
    root.gpu = -1;
    root.rank = -1;
    root.link.clear();
    fillRootCause(in.catalog, root, in.events, in.rule, v);
    std::string nodes;
    for (const auto* s : perNode)
        nodes += (nodes.empty() ? "" : ", ") + s->node;
    if (const SymptomDef* def = in.catalog.symptom(root.name)) {
        auto values = templateValues(root);
        values["node"] = std::to_string(perNode.size()) + " nodes";
        v.rootCause->summary = expandProse(def->summary, values);
        values["node"] = "each of them";
        v.action.action = expandProse(def->action, values);
    }
    v.action.target = nodes;
    v.action.why = v.rootCause->summary;
    listCandidates(in.catalog, context, perNode, v);
    v.explanation = asSentence(v.rootCause->summary) + " The same failure is reported on " +
        std::to_string(perNode.size()) + " nodes (" + nodes +
        ") and which of them came first cannot be told: " + v.candidates.front().separatedBy + "; so no node is named.";
    step.summary = "one failure on " + std::to_string(perNode.size()) + " nodes: " + root.name + " -> " +
        v.terminalState + " / " + v.subDomain;
    step.details["same_symptom_nodes"] = nodes;
}

}  // namespace

Verdict mapOutcome(const Catalog& catalog, const ExecutionContext& context, const std::vector<Symptom>& symptoms,
                   const std::vector<Event>& events, TraceSink& trace, const PriorityTable* table)
{
    if (!table)
        table = catalog.priorityTable(context.platform);
    const std::string rule = table ? table->id : std::string("PriorityRootCause");
    std::vector<Symptom> working = symptoms;
    int top = 0;
    auto best = topCandidates(catalog, table, working, top);
    Verdict v;
    std::set<std::string> affected;
    for (const auto& s : symptoms)
        if (s.status != SymptomStatus::Scrubbed && !s.node.empty())
            affected.insert(s.node);
    v.affectedNodes.assign(affected.begin(), affected.end());
    TraceStep step;
    step.phase = TracePhase::Outcome;
    step.rule = "OutcomeMapping";
    step.action = TraceAction::Map;
    if (best.empty()) {
        v.action = {"collect more evidence (kernel logs, application logs, scheduler records) and re-run", "",
                    "no failure pattern of the catalog matched the evidence"};
        v.explanation = "No symptom was found; the verdict is unknown.";
        step.summary = "no active symptom: unknown";
        trace.record(std::move(step));
        return v;
    }
    std::map<const Symptom*, std::string> byLine;  // the order detail of a node's candidate chosen by line order
    std::vector<Symptom*> perNode = earliestPerNode(best, byLine);
    // A candidate without a node that has the same symptom as a named one is that failure seen in a file that
    // names no host (a pasted backtrace next to the run's log), not a rival on another node.
    const auto sameNamed = [&](const Symptom* s) {
        return s->node.empty() && std::any_of(perNode.begin(), perNode.end(), [&](const Symptom* o) {
                   return !o->node.empty() && o->name == s->name;
               });
    };
    if (const auto merged = std::count_if(perNode.begin(), perNode.end(), sameNamed); merged > 0) {
        perNode.erase(std::remove_if(perNode.begin(), perNode.end(), sameNamed), perNode.end());
        step.details["unnamed_same_symptom"] = "a node-less candidate is the same symptom as a named one: not a rival";
    }
    TimeNs tie = table ? table->tieWindow : 5 * NsPerSec;
    if (perNode.size() > 1) {
        auto u = [&](const Symptom* s) {
            auto it = context.clockUncertainty.find(s->node);
            return it == context.clockUncertainty.end() ? TimeNs(0) : it->second;
        };
        tie = std::max(tie, u(perNode[0]) + u(perNode[1]));
    }
    const bool clearLead = perNode.size() == 1 ||
        (usableTime(*perNode[0]) && usableTime(*perNode[1]) && perNode[1]->origin - perNode[0]->origin > tie);
    if (clearLead) {
        const auto order = byLine.find(perNode[0]);
        mapRoot({catalog, table, symptoms, events, rule}, *perNode[0], order == byLine.end() ? "" : order->second, v,
                step);
    } else if (oneFailureOnSeveralNodes(catalog, perNode)) {
        mapOneFailure({catalog, table, symptoms, events, rule}, context, perNode, v, step);
    } else {
        v.terminalState = "ambiguous";
        std::set<std::string> domains;
        for (auto* s : perNode)
            domains.insert(s->domain);
        listCandidates(catalog, context, perNode, v);
        const std::string& sep = v.candidates.front().separatedBy;
        v.subDomain = domains.size() == 1 ? *domains.begin() : "unknown";
        v.action = {"collect the evidence that separates the candidates, then re-run", "", sep};
        v.explanation =
            std::to_string(perNode.size()) + " unrelated candidates on different nodes cannot be ordered: " + sep + ".";
        step.summary = "ambiguous between " + std::to_string(perNode.size()) + " candidates";
    }
    step.details["terminal_state"] = v.terminalState;
    step.details["sub_domain"] = v.subDomain;
    trace.record(std::move(step));
    return v;
}

}  // namespace attrib::engine
