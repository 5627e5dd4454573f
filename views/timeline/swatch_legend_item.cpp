// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/swatch_legend_item.h"

namespace attrib::views {

SwatchLegendItem::SwatchLegendItem(QCPLegend* legend, const QColor& color, const QString& text, Shape shape,
                                   MarkerShape marker)
    : QCPAbstractLegendItem(legend)
    , m_color(color)
    , m_text(text)
    , m_shape(shape)
    , m_marker(marker)
{
    setSelectable(false);
}

void SwatchLegendItem::draw(QCPPainter* painter)
{
    const QRect r = mRect;
    const QSize icon = mParentLegend->iconSize();
    const QRectF iconRect(r.left(), r.top() + (r.height() - icon.height()) / 2.0, icon.width(), icon.height());
    painter->setRenderHint(QPainter::Antialiasing, true);
    const QPointF c = iconRect.center();
    switch (m_shape) {
    case Shape::Dot:
        painter->setPen(QPen(m_color.darker(130), 1));
        painter->setBrush(m_color);
        drawMarker(painter, c, 4.2, m_marker);
        break;
    case Shape::Open:
        painter->setPen(QPen(m_color, 1.4));
        painter->setBrush(Qt::white);
        drawMarker(painter, c, 3.8, m_marker);
        painter->drawLine(QPointF(c.x() + 4, c.y()), QPointF(iconRect.right(), c.y()));
        painter->drawLine(QPointF(iconRect.right(), c.y() - 3), QPointF(iconRect.right(), c.y() + 3));
        break;
    case Shape::Approximate:
        painter->setPen(QPen(m_color.darker(130), 1));
        painter->setBrush(m_color);
        drawMarker(painter, c, 3.4, m_marker);
        painter->setPen(QPen(m_color.darker(130), 1, Qt::DotLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(c, 6, 6);
        break;
    case Shape::Ring:
        painter->setPen(QPen(m_color, 2));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(c, 5.5, 5.5);
        break;
    case Shape::Bar:
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_color);
        painter->drawRoundedRect(QRectF(iconRect.left(), c.y() - 4, iconRect.width(), 8), 2, 2);
        break;
    case Shape::DashedLine:
        painter->setPen(QPen(m_color, 1.5, Qt::DashLine));
        painter->drawLine(QPointF(c.x(), iconRect.top()), QPointF(c.x(), iconRect.bottom()));
        break;
    }
    painter->setFont(mFont);
    painter->setPen(mTextColor);
    const QRectF textRect(iconRect.right() + mParentLegend->iconTextPadding(), r.top(),
                          r.width() - icon.width() - mParentLegend->iconTextPadding(), r.height());
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, m_text);
}

QSize SwatchLegendItem::minimumOuterSizeHint() const
{
    const QFontMetrics fm(mFont);
    const QSize icon = mParentLegend->iconSize();
    const int width = icon.width() + mParentLegend->iconTextPadding() + fm.horizontalAdvance(m_text);
    const int height = std::max(icon.height(), fm.height()) + 6;  // room for descenders at any DPI
    return {width + mMargins.left() + mMargins.right(), height + mMargins.top() + mMargins.bottom()};
}

}  // namespace attrib::views
