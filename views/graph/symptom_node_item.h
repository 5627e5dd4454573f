// SPDX-License-Identifier: GPL-3.0-or-later
// One symptom in the graph: filled by domain colour, outlined by status (active solid, demoted dashed,
// scrubbed dotted and faded), root cause in a thick red frame, a yellow halo when it changed at this step.
#pragma once

#include "engine/symptom_graph.h"

#include <QGraphicsItem>

namespace attrib::views {

class SymptomNodeItem : public QGraphicsItem {
public:
    SymptomNodeItem(engine::GraphNode node, QSizeF size);

    const engine::GraphNode& node() const { return m_node; }
    QString symptomId() const;

    /// Status as of the shown step; `changed` draws the halo.
    void setState(engine::SymptomStatus status, bool rootCause, bool candidate, bool changed);
    engine::SymptomStatus status() const { return m_status; }
    bool changed() const { return m_changed; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Outline pen for a status (also used by the legend).
    static QPen statusPen(engine::SymptomStatus status, bool rootCause, bool candidate, const QColor& domain);
    static QColor fillColor(const QColor& domain, engine::SymptomStatus status);

private:
    engine::GraphNode m_node;
    QSizeF m_size;
    engine::SymptomStatus m_status;
    bool m_rootCause;
    bool m_candidate;
    bool m_changed = false;
};

}  // namespace attrib::views
