// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph, built without any view: symptoms as nodes ranked left to right by time, edges for
// caused-by (a refinement or scrub rule explained it), demoted-by (a priority table outranked it) and
// same-node (consecutive symptoms on one node). Dumped as text for tests and as DOT for Graphviz.
#pragma once

#include "engine/trace_replay.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attrib::engine {

struct GraphNode {
    std::string id;
    std::string name;
    std::string domain;
    std::string node;  ///< "" for job-wide symptoms
    int gpu = -1;
    std::uint32_t count = 0;
    TimeNs time = NoTime;  ///< first seen
    TimeSource timeSource = TimeSource::None;
    SymptomStatus status = SymptomStatus::Active;
    std::string statusRule;
    bool rootCause = false;
    bool candidate = false;  ///< one of the ambiguous verdict's candidates
    int rank = 0;            ///< time layer, 0 = earliest
    std::string label;       ///< two lines: name, then node/GPU and count
};

struct GraphEdge {
    enum class Kind { CausedBy, DemotedBy, SameNode };
    Kind kind = Kind::CausedBy;
    std::string from;  ///< the explaining symptom (or the earlier one for same-node)
    std::string to;
    std::string rule;
};
const char* toString(GraphEdge::Kind kind);

/// One time layer: every symptom first seen within the same bucket.
struct GraphRank {
    int index = 0;
    TimeNs start = NoTime;  ///< NoTime for the "time unknown" layer
    std::string label;
};

struct SymptomGraph {
    std::vector<GraphNode> nodes;  ///< by rank, then id
    std::vector<GraphEdge> edges;  ///< by kind, then from, then to
    std::vector<GraphRank> ranks;
    const GraphNode* node(const std::string& id) const;
    /// Stable text form, one line per rank, node and edge (the graph's test surface).
    std::string toText() const;
};

struct GraphOptions {
    TimeNs rankBucket = NsPerSec;  ///< symptoms first seen within one bucket share a layer
    bool sameNodeEdges = true;
};

/// Statuses of the final symptom set, with the phase that set each (for caused-by vs demoted-by).
std::vector<SymptomState> finalStates(const AnalysisResult& result);

/// The graph of `states` (a replay step's symptom set; the final set when null). `markRootCause` marks the
/// verdict's root cause and candidates (off while replaying steps before the outcome).
SymptomGraph buildSymptomGraph(const AnalysisResult& result, const std::vector<SymptomState>* states = nullptr,
                               bool markRootCause = true, const GraphOptions& options = {});

/// Node size in inches (width, height) for the layout; the view measures its labels with its own font.
using NodeSizer = std::function<std::pair<double, double>(const GraphNode&)>;

/// DOT text for Graphviz `dot`: rankdir=LR, invisible time anchors `r<k>` chained left to right with each
/// layer's symptoms in the same rank, node `n<i>` for nodes[i] (attribute id = symptom id), edges with
/// id `e<j>` for edges[j]; caused-by and demoted-by edges do not constrain the ranking.
std::string toDot(const SymptomGraph& graph, const NodeSizer& sizer = {});

}  // namespace attrib::engine
