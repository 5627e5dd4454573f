// SPDX-License-Identifier: GPL-3.0-or-later
// Symptom graph structure: nodes, edges and time layers; text and DOT renderings.
#include "engine/symptom_graph.h"

#include "engine/json_util.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace attrib::engine {

const char* toString(GraphEdge::Kind kind)
{
    switch (kind) {
    case GraphEdge::Kind::CausedBy: return "caused-by";
    case GraphEdge::Kind::DemotedBy: return "demoted-by";
    case GraphEdge::Kind::SameNode: return "same-node";
    }
    return "caused-by";
}

const GraphNode* SymptomGraph::node(const std::string& id) const
{
    for (const auto& n : nodes)
        if (n.id == id)
            return &n;
    return nullptr;
}

std::vector<SymptomState> finalStates(const AnalysisResult& result)
{
    std::map<std::string, std::pair<TracePhase, std::size_t>> setBy;  // id -> (phase, step)
    for (std::size_t i = 0; i < result.trace.size(); ++i)
        for (const auto& c : result.trace[i].changes)
            setBy[c.symptom] = {result.trace[i].phase, i};
    std::vector<SymptomState> out;
    for (const auto& s : result.symptoms) {
        SymptomState st;
        st.id = s.id;
        st.name = s.name;
        st.domain = s.domain;
        st.node = s.node;
        st.gpu = s.gpu;
        st.firstSeen = s.firstSeen;
        st.timeSource = s.timeSource;
        st.status = s.status;
        st.rule = s.statusRule;
        st.reason = s.statusReason;
        st.causedBy = s.causedBy;
        if (auto it = setBy.find(s.id); it != setBy.end()) {
            st.phase = it->second.first;
            st.setAt = it->second.second;
        }
        out.push_back(std::move(st));
    }
    return out;
}

namespace {

bool usableTime(TimeNs t, TimeSource s)
{
    return t != NoTime && s != TimeSource::BootRelative && s != TimeSource::None;
}

std::string clock(TimeNs t)
{
    const std::string full = formatTime(t);
    return full.size() >= 23 ? full.substr(11, 12) : full;
}

std::string offset(TimeNs delta)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "+%.3fs", static_cast<double>(delta) / 1e9);
    return buf;
}

void assignRanks(std::vector<GraphNode>& nodes, std::vector<GraphRank>& ranks, TimeNs bucket)
{
    std::vector<TimeNs> times;
    for (const auto& n : nodes)
        if (usableTime(n.time, n.timeSource))
            times.push_back(n.time);
    std::sort(times.begin(), times.end());
    std::vector<TimeNs> starts;
    for (TimeNs t : times)
        if (starts.empty() || t - starts.back() >= bucket)
            starts.push_back(t);
    for (std::size_t i = 0; i < starts.size(); ++i)
        ranks.push_back(
            {static_cast<int>(i), starts[i], clock(starts[i]) + " (" + offset(starts[i] - starts[0]) + ")"});
    bool unknown = false;
    for (auto& n : nodes) {
        if (!usableTime(n.time, n.timeSource)) {
            n.rank = static_cast<int>(starts.size());
            unknown = true;
            continue;
        }
        auto it = std::upper_bound(starts.begin(), starts.end(), n.time);
        n.rank = static_cast<int>(std::distance(starts.begin(), it)) - 1;
    }
    if (unknown)
        ranks.push_back({static_cast<int>(starts.size()), NoTime, "time unknown"});
}

GraphNode toNode(const AnalysisResult& result, const SymptomState& st, bool markRootCause)
{
    GraphNode n;
    n.id = st.id;
    n.name = st.name;
    n.domain = st.domain;
    n.node = st.node;
    n.gpu = st.gpu;
    n.time = st.firstSeen;
    n.timeSource = st.timeSource;
    n.status = st.status;
    n.statusRule = st.untouched && st.status == SymptomStatus::Active ? std::string() : st.rule;
    if (const Symptom* s = result.symptom(st.id))
        n.count = s->count;
    if (markRootCause) {
        n.rootCause = result.verdict.rootCause && result.verdict.rootCause->symptomId == st.id;
        for (const auto& c : result.verdict.candidates)
            n.candidate = n.candidate || c.symptomId == st.id;
    }
    std::string where = st.node.empty() ? std::string("job") : st.node;
    if (st.gpu >= 0)
        where += " GPU " + std::to_string(st.gpu);
    n.label = st.name + "\n" + where + (n.count > 1 ? " \xC3\x97" + std::to_string(n.count) : std::string());
    return n;
}

}  // namespace

SymptomGraph buildSymptomGraph(const AnalysisResult& result, const std::vector<SymptomState>* states,
                               bool markRootCause, const GraphOptions& options)
{
    const std::vector<SymptomState> final = states ? std::vector<SymptomState>() : finalStates(result);
    const auto& set = states ? *states : final;
    SymptomGraph g;
    std::map<std::string, const SymptomState*> byId;
    for (const auto& st : set) {
        g.nodes.push_back(toNode(result, st, markRootCause));
        byId[st.id] = &st;
    }
    assignRanks(g.nodes, g.ranks, options.rankBucket);
    std::sort(g.nodes.begin(), g.nodes.end(),
              [](const GraphNode& a, const GraphNode& b) { return std::tie(a.rank, a.id) < std::tie(b.rank, b.id); });
    for (const auto& n : g.nodes) {
        const SymptomState& st = *byId[n.id];
        if (n.status == SymptomStatus::Active || st.causedBy.empty() || !byId.count(st.causedBy))
            continue;
        const auto kind = st.phase == TracePhase::Priority ? GraphEdge::Kind::DemotedBy : GraphEdge::Kind::CausedBy;
        g.edges.push_back({kind, st.causedBy, n.id, st.rule});
    }
    if (options.sameNodeEdges) {
        std::map<std::string, std::vector<const GraphNode*>> perNode;
        for (const auto& n : g.nodes)
            if (!n.node.empty())
                perNode[n.node].push_back(&n);
        for (auto& [node, list] : perNode) {
            std::stable_sort(list.begin(), list.end(), [](const GraphNode* a, const GraphNode* b) {
                return std::tie(a->rank, a->time, a->id) < std::tie(b->rank, b->time, b->id);
            });
            for (std::size_t i = 1; i < list.size(); ++i)
                g.edges.push_back({GraphEdge::Kind::SameNode, list[i - 1]->id, list[i]->id, {}});
        }
    }
    std::sort(g.edges.begin(), g.edges.end(), [](const GraphEdge& a, const GraphEdge& b) {
        return std::tie(a.kind, a.from, a.to) < std::tie(b.kind, b.from, b.to);
    });
    return g;
}

std::string SymptomGraph::toText() const
{
    std::ostringstream out;
    for (const auto& r : ranks) {
        out << "rank " << r.index << " " << r.label << "\n";
        for (const auto& n : nodes) {
            if (n.rank != r.index)
                continue;
            out << "  " << n.id << " " << n.domain << " " << toString(n.status);
            if (!n.statusRule.empty())
                out << " [" << n.statusRule << "]";
            if (n.rootCause)
                out << " root-cause";
            if (n.candidate)
                out << " candidate";
            out << "\n";
        }
    }
    for (const auto& e : edges) {
        out << "edge " << toString(e.kind) << " " << e.from << " -> " << e.to;
        if (!e.rule.empty())
            out << " (" << e.rule << ")";
        out << "\n";
    }
    return out.str();
}

namespace {

std::string quoted(const std::string& s)
{
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            q += '\\';
        q += c == '\n' ? ' ' : c;
    }
    return q + "\"";
}

std::pair<double, double> defaultSize(const GraphNode& n)
{
    std::size_t longest = 0;
    std::istringstream lines(n.label);
    for (std::string line; std::getline(lines, line);)
        longest = std::max(longest, line.size());
    return {std::max(1.4, 0.09 * static_cast<double>(longest) + 0.3), 0.6};
}

}  // namespace

std::string toDot(const SymptomGraph& graph, const NodeSizer& sizer)
{
    std::ostringstream out;
    out << "digraph symptoms {\n"
           "  graph [rankdir=LR, nodesep=0.18, ranksep=0.55, splines=line, outputorder=edgesfirst];\n"
           "  node [shape=box, fixedsize=true, label=\"\"];\n"
           "  edge [arrowsize=0.7];\n";
    for (const auto& r : graph.ranks)
        out << "  r" << r.index << " [shape=point, width=0.01, height=0.01, style=invis];\n";
    for (std::size_t i = 1; i < graph.ranks.size(); ++i)
        out << "  r" << i - 1 << " -> r" << i << " [style=invis, weight=100];\n";
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const auto& n = graph.nodes[i];
        index[n.id] = i;
        const auto [w, h] = sizer ? sizer(n) : defaultSize(n);
        char size[64];
        std::snprintf(size, sizeof size, "width=%.3f, height=%.3f", w, h);
        out << "  n" << i << " [id=" << quoted(n.id) << ", " << size << "];\n";
    }
    for (const auto& r : graph.ranks) {
        out << "  { rank=same; r" << r.index << ";";
        for (std::size_t i = 0; i < graph.nodes.size(); ++i)
            if (graph.nodes[i].rank == r.index)
                out << " n" << i << ";";
        out << " }\n";
    }
    for (std::size_t j = 0; j < graph.edges.size(); ++j) {
        const auto& e = graph.edges[j];
        out << "  n" << index[e.from] << " -> n" << index[e.to] << " [id=\"e" << j << "\"";
        out << (e.kind == GraphEdge::Kind::SameNode ? ", weight=2, arrowhead=none" : ", constraint=false") << "];\n";
    }
    out << "}\n";
    return out.str();
}

}  // namespace attrib::engine
