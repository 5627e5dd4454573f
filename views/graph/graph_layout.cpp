// SPDX-License-Identifier: GPL-3.0-or-later
// libgvc glue. Graphviz reports errors through a global callback; we collect them per call.
#include "views/graph/graph_layout.h"

#ifdef ATTRIB_HAVE_GVC
#include <graphviz/gvc.h>
#endif

#include <mutex>

namespace attrib::views {

const GraphLayout::Node* GraphLayout::node(const std::string& name) const
{
    for (const auto& n : nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

bool graphvizAvailable()
{
#ifdef ATTRIB_HAVE_GVC
    return true;
#else
    return false;
#endif
}

#ifdef ATTRIB_HAVE_GVC

namespace {

std::mutex& gvMutex()
{
    static std::mutex m;
    return m;
}

std::string& gvErrors()
{
    static std::string text;
    return text;
}

int collectError(char* message)
{
    gvErrors() += message;
    return 0;
}

/// Converts Graphviz points (y up, origin bottom-left of the bounding box) to ours (y down).
LayoutPoint flip(pointf p, double height)
{
    return {p.x, height - p.y};
}

void readEdges(Agraph_t* g, Agnode_t* n, double height, GraphLayout& out)
{
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
        splines* spl = ED_spl(e);
        if (!spl || spl->size == 0)
            continue;
        GraphLayout::Edge edge;
        const char* id = agget(e, const_cast<char*>("id"));
        edge.id = id ? id : "";
        const bezier& b = spl->list[0];
        for (int i = 0; i < b.size; ++i)
            edge.points.push_back(flip(b.list[i], height));
        edge.hasArrow = b.eflag != 0;
        if (edge.hasArrow)
            edge.arrowTip = flip(b.ep, height);
        out.edges.push_back(std::move(edge));
    }
}

}  // namespace

GraphLayout layoutDot(const std::string& dot)
{
    std::lock_guard lock(gvMutex());
    GraphLayout out;
    gvErrors().clear();
    agseterrf(collectError);
    GVC_t* gvc = gvContext();
    Agraph_t* g = agmemread(dot.c_str());
    if (!g) {
        out.error = "Graphviz could not parse the graph: " + gvErrors();
        gvFreeContext(gvc);
        return out;
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        out.error = "Graphviz dot layout failed (is the dot layout plugin installed?): " + gvErrors();
        agclose(g);
        gvFreeContext(gvc);
        return out;
    }
    const boxf bb = GD_bb(g);
    out.width = bb.UR.x - bb.LL.x;
    out.height = bb.UR.y - bb.LL.y;
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        const LayoutPoint c = flip(ND_coord(n), bb.UR.y);
        out.nodes.push_back({agnameof(n), c.x - bb.LL.x, c.y, ND_width(n) * 72.0, ND_height(n) * 72.0});
    }
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n))
        readEdges(g, n, bb.UR.y, out);
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    out.ok = true;
    return out;
}

#else

GraphLayout layoutDot(const std::string&)
{
    GraphLayout out;
    out.error = "this build has no Graphviz (libgvc); install libgraphviz-dev and rebuild";
    return out;
}

#endif

}  // namespace attrib::views
