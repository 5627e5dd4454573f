// SPDX-License-Identifier: GPL-3.0-or-later
// A legend entry that is not tied to a plottable: a colour swatch (dot, bar or line) and a label.
#pragma once

#include "views/presentation.h"
#include "views/timeline/qcp.h"

namespace attrib::views {

class SwatchLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT

public:
    /// Dot: a filled marker of `marker` shape; Open: its outline with a bracket (inherited lower-bound time);
    /// Approximate: a marker in a dotted ring (year-inferred or boot-relative time).
    enum class Shape { Dot, Bar, DashedLine, Ring, Open, Approximate };
    SwatchLegendItem(QCPLegend* legend, const QColor& color, const QString& text, Shape shape = Shape::Dot,
                     MarkerShape marker = MarkerShape::Circle);

    QString text() const { return m_text; }

protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    QColor m_color;
    QString m_text;
    Shape m_shape;
    MarkerShape m_marker;
};

}  // namespace attrib::views
