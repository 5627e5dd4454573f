// SPDX-License-Identifier: GPL-3.0-or-later
// Graphviz `dot` layout through libgvc: DOT text in, node boxes and edge splines out (in points, y down).
// Graphviz is not thread-safe; call from one thread at a time (the GUI thread: graphs are small).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attrib::views {

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct GraphLayout {
    struct Node {
        std::string name;     ///< DOT node name (n<i> for symptoms, r<k> for time anchors)
        double x = 0, y = 0;  ///< centre
        double width = 0, height = 0;
    };
    struct Edge {
        std::string id;                   ///< the DOT edge's `id` attribute ("" for unnamed edges)
        std::vector<LayoutPoint> points;  ///< cubic B-spline control points: p0, then (c1, c2, p) triples
        bool hasArrow = false;
        LayoutPoint arrowTip;  ///< where the arrowhead ends (at the head node)
    };
    bool ok = false;
    std::string error;
    double width = 0, height = 0;
    std::vector<Node> nodes;
    std::vector<Edge> edges;

    const Node* node(const std::string& name) const;
};

/// Lays out DOT text with Graphviz `dot`.
GraphLayout layoutDot(const std::string& dot);

/// True when this build links Graphviz (libgvc).
bool graphvizAvailable();

}  // namespace attrib::views
