// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph in a QGraphicsScene: Graphviz `dot` places the nodes once per analysis (left to right
// in time, one layer per second); stepping the debugger restyles the nodes and edges in place so the
// picture does not jump. A time axis on top and a legend below are part of the scene (and of exports).
#pragma once

#include "engine/symptom_graph.h"
#include "views/graph/graph_layout.h"

#include <QGraphicsScene>
#include <QHash>

class QGraphicsPathItem;
class QGraphicsPolygonItem;

namespace attrib::views {

class SymptomNodeItem;

class SymptomGraphScene : public QGraphicsScene {
    Q_OBJECT

public:
    explicit SymptomGraphScene(QObject* parent = nullptr);

    /// Lays out and draws the final graph of an analysis. Returns false (and shows the error) when
    /// Graphviz cannot lay it out.
    bool setGraph(engine::SymptomGraph graph);
    const engine::SymptomGraph& graph() const { return m_graph; }
    QString layoutError() const { return m_error; }

    /// Shows the symptom set as of a debugger step: symptoms not yet raised are hidden, statuses and
    /// explanation edges are those of that step, `changed` ones get a halo.
    void showStates(const std::vector<engine::SymptomState>& states, bool outcomeReached);
    /// Back to the final statuses.
    void showFinal();

    SymptomNodeItem* nodeItem(const QString& id) const { return m_items.value(id); }
    /// Visible nodes with their shown status and visible edges, one per line (for tests).
    QString stateText() const;

private:
    struct EdgeItem {
        engine::GraphEdge edge;
        QGraphicsPathItem* path = nullptr;
        QGraphicsPolygonItem* arrow = nullptr;
    };

    QSizeF nodeSize(const engine::GraphNode& node) const;
    void addEdge(const engine::GraphEdge& edge, const GraphLayout::Edge& placed);
    void addTimeAxis(const GraphLayout& layout);
    void addLegend(qreal top);
    void setEdgeVisible(EdgeItem& e, bool visible);

    engine::SymptomGraph m_graph;
    QString m_error;
    QHash<QString, SymptomNodeItem*> m_items;
    std::vector<EdgeItem> m_edges;
};

}  // namespace attrib::views
