// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/graph/symptom_graph_scene.h"

#include "views/graph/symptom_node_item.h"
#include "views/presentation.h"

#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsSimpleTextItem>
#include <QLineF>
#include <QPen>

#include <cmath>
#include <set>

namespace attrib::views {

using engine::GraphEdge;

namespace {

QPen edgePen(GraphEdge::Kind kind)
{
    switch (kind) {
    case GraphEdge::Kind::CausedBy: return QPen(QColor(0x37, 0x47, 0x4f), 1.6);
    case GraphEdge::Kind::DemotedBy: return QPen(QColor(0x8e, 0x24, 0xaa), 1.3, Qt::DashDotLine);
    case GraphEdge::Kind::SameNode: return QPen(QColor(0xb0, 0xbe, 0xc5), 1.0, Qt::DotLine);
    }
    return QPen(Qt::black);
}

QPolygonF arrowHead(QPointF from, QPointF tip)
{
    const QLineF line(tip, from);
    const double angle = std::atan2(-line.dy(), line.dx());
    const double size = 9;
    const QPointF a = tip + QPointF(std::cos(angle + 0.4) * size, -std::sin(angle + 0.4) * size);
    const QPointF b = tip + QPointF(std::cos(angle - 0.4) * size, -std::sin(angle - 0.4) * size);
    return QPolygonF({tip, a, b});
}

QPointF toQ(const LayoutPoint& p)
{
    return {p.x, p.y};
}

}  // namespace

SymptomGraphScene::SymptomGraphScene(QObject* parent)
    : QGraphicsScene(parent)
{
    setBackgroundBrush(Qt::white);
}

QSizeF SymptomGraphScene::nodeSize(const engine::GraphNode& node) const
{
    QFont boldFont = font();
    boldFont.setBold(true);
    const QFontMetricsF bold(boldFont);
    const QFontMetricsF normal(font());
    const QStringList lines = qs(node.label).split(QLatin1Char('\n'));
    QString second = lines.value(1);
    if (node.rootCause)
        second += QStringLiteral("  \u00b7 root cause");
    const qreal width = std::max(bold.horizontalAdvance(lines.value(0)), normal.horizontalAdvance(second)) + 26;
    return {std::ceil(width), std::ceil(2 * normal.lineSpacing() + 12)};
}

bool SymptomGraphScene::setGraph(engine::SymptomGraph graph)
{
    clear();
    m_items.clear();
    m_edges.clear();
    m_graph = std::move(graph);
    m_error.clear();
    if (m_graph.nodes.empty()) {
        addSimpleText(tr("No symptoms in this analysis."));
        setSceneRect(itemsBoundingRect().adjusted(-20, -20, 20, 20));
        return true;
    }
    const auto dot = engine::toDot(m_graph, [this](const engine::GraphNode& n) {
        const QSizeF size = nodeSize(n);
        return std::make_pair(size.width() / 72.0, size.height() / 72.0);
    });
    const GraphLayout layout = layoutDot(dot);
    if (!layout.ok) {
        m_error = qs(layout.error);
        addSimpleText(m_error);
        return false;
    }
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const auto* placed = layout.node("n" + std::to_string(i));
        if (!placed)
            continue;
        const auto& node = m_graph.nodes[i];
        auto* item = new SymptomNodeItem(node, nodeSize(node));
        item->setPos(placed->x, placed->y);
        item->setZValue(2);
        addItem(item);
        m_items.insert(qs(node.id), item);
    }
    for (const auto& e : layout.edges)
        if (e.id.size() > 1 && e.id[0] == 'e')
            addEdge(m_graph.edges[std::stoul(e.id.substr(1))], e);
    addTimeAxis(layout);
    addLegend(layout.height + 36);
    setSceneRect(itemsBoundingRect().adjusted(-24, -24, 24, 24));
    return true;
}

void SymptomGraphScene::addEdge(const GraphEdge& edge, const GraphLayout::Edge& layoutEdge)
{
    const GraphLayout::Edge* placed = &layoutEdge;
    if (placed->points.empty())
        return;
    QPainterPath path(toQ(placed->points.front()));
    for (std::size_t i = 1; i + 2 < placed->points.size(); i += 3)
        path.cubicTo(toQ(placed->points[i]), toQ(placed->points[i + 1]), toQ(placed->points[i + 2]));
    EdgeItem item;
    item.edge = edge;
    const QPen pen = edgePen(edge.kind);
    if (placed->hasArrow) {
        const QPointF last = toQ(placed->points.back());
        const QPointF tip = toQ(placed->arrowTip);
        path.lineTo(tip);
        item.arrow = addPolygon(arrowHead(last, tip), QPen(pen.color(), 1.0), QBrush(pen.color()));
        item.arrow->setZValue(1);
    }
    item.path = addPath(path, pen);
    item.path->setZValue(1);
    const QString tip = qs(std::string(engine::toString(edge.kind)) + ": " + edge.from + " \xe2\x86\x92 " + edge.to +
                           (edge.rule.empty() ? std::string() : " (" + edge.rule + ")"));
    item.path->setToolTip(plainToolTip(tip));
    m_edges.push_back(item);
}

void SymptomGraphScene::addTimeAxis(const GraphLayout& layout)
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (const auto& rank : m_graph.ranks) {
        const auto* anchor = layout.node("r" + std::to_string(rank.index));
        if (!anchor)
            continue;
        auto* line =
            addLine(anchor->x, -6, anchor->x, layout.height + 6, QPen(QColor(0xe0, 0xe0, 0xe0), 1, Qt::DashLine));
        line->setZValue(0);
        auto* label = addSimpleText(qs(rank.label), small);
        label->setBrush(QColor(0x61, 0x61, 0x61));
        label->setPos(anchor->x - label->boundingRect().width() / 2, -10 - label->boundingRect().height());
    }
}

void SymptomGraphScene::addLegend(qreal top)
{
    std::set<std::string> domains;
    for (const auto& n : m_graph.nodes)
        domains.insert(n.domain);
    qreal x = 0;
    auto text = [&](const QString& s, qreal y) {
        auto* t = addSimpleText(s);
        t->setPos(x, y);
        x += t->boundingRect().width() + 18;
    };
    for (const auto& d : domains) {
        addRect(x, top + 3, 12, 12, QPen(domainColor(d).darker(150)), QBrush(domainColor(d)));
        x += 16;
        text(qs(d), top);
    }
    x = 0;
    const qreal row = top + 24;
    const struct {
        engine::SymptomStatus status;
        bool root;
        const char* name;
    } statuses[] = {{engine::SymptomStatus::Active, false, "active"},
                    {engine::SymptomStatus::Demoted, false, "demoted"},
                    {engine::SymptomStatus::Scrubbed, false, "scrubbed"},
                    {engine::SymptomStatus::Active, true, "root cause"}};
    for (const auto& s : statuses) {
        const QColor grey(0x90, 0xa4, 0xae);
        addRect(x, row + 2, 22, 14, SymptomNodeItem::statusPen(s.status, s.root, false, grey),
                QBrush(SymptomNodeItem::fillColor(grey, s.status)));
        x += 28;
        text(QLatin1String(s.name), row);
    }
    for (auto kind : {GraphEdge::Kind::CausedBy, GraphEdge::Kind::DemotedBy, GraphEdge::Kind::SameNode}) {
        addLine(x, row + 9, x + 28, row + 9, edgePen(kind));
        x += 34;
        text(QLatin1String(engine::toString(kind)), row);
    }
    auto* halo = addRect(x, row + 2, 22, 14, Qt::NoPen, QBrush(QColor(0xff, 0xd5, 0x4f, 200)));
    halo->setZValue(0);
    x += 28;
    text(tr("changed at this step"), row);
}

void SymptomGraphScene::setEdgeVisible(EdgeItem& e, bool visible)
{
    e.path->setVisible(visible);
    if (e.arrow)
        e.arrow->setVisible(visible);
}

void SymptomGraphScene::showStates(const std::vector<engine::SymptomState>& states, bool outcomeReached)
{
    QHash<QString, const engine::SymptomState*> byId;
    for (const auto& s : states)
        byId.insert(qs(s.id), &s);
    for (auto it = m_items.begin(); it != m_items.end(); ++it) {
        const engine::SymptomState* s = byId.value(it.key());
        it.value()->setVisible(s != nullptr);
        if (s)
            it.value()->setState(s->status, outcomeReached && it.value()->node().rootCause,
                                 outcomeReached && it.value()->node().candidate, s->change != engine::StepChange::None);
    }
    for (auto& e : m_edges) {
        const auto* from = byId.value(qs(e.edge.from));
        const auto* to = byId.value(qs(e.edge.to));
        bool visible = from && to;
        if (visible && e.edge.kind != GraphEdge::Kind::SameNode)
            visible = to->status != engine::SymptomStatus::Active && to->causedBy == e.edge.from;
        setEdgeVisible(e, visible);
    }
}

void SymptomGraphScene::showFinal()
{
    for (auto* item : std::as_const(m_items)) {
        item->setVisible(true);
        item->setState(item->node().status, item->node().rootCause, item->node().candidate, false);
    }
    for (auto& e : m_edges)
        setEdgeVisible(e, true);
}

QString SymptomGraphScene::stateText() const
{
    QStringList lines;
    for (const auto& n : m_graph.nodes) {
        const SymptomNodeItem* item = m_items.value(qs(n.id));
        if (!item || !item->isVisible())
            continue;
        lines << qs(n.id) + QLatin1Char(' ') + qs(engine::toString(item->status())) +
                (item->changed() ? QStringLiteral(" changed") : QString());
    }
    for (const auto& e : m_edges)
        if (e.path->isVisible())
            lines << QStringLiteral("edge ") + qs(engine::toString(e.edge.kind)) + QLatin1Char(' ') + qs(e.edge.from) +
                    QStringLiteral(" -> ") + qs(e.edge.to);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace attrib::views
