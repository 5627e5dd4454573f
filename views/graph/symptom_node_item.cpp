// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/graph/symptom_node_item.h"

#include "views/presentation.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace attrib::views {

using engine::SymptomStatus;

namespace {
constexpr qreal Radius = 6;
constexpr qreal Halo = 6;
}  // namespace

SymptomNodeItem::SymptomNodeItem(engine::GraphNode node, QSizeF size)
    : m_node(std::move(node))
    , m_size(size)
    , m_status(m_node.status)
    , m_rootCause(m_node.rootCause)
    , m_candidate(m_node.candidate)
{
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setToolTip(plainToolTip(qs(m_node.id + "\n" + m_node.domain + ", " + engine::toString(m_node.status) +
                               (m_node.statusRule.empty() ? std::string() : " by " + m_node.statusRule))));
}

QString SymptomNodeItem::symptomId() const
{
    return qs(m_node.id);
}

void SymptomNodeItem::setState(SymptomStatus status, bool rootCause, bool candidate, bool changed)
{
    m_status = status;
    m_rootCause = rootCause;
    m_candidate = candidate;
    m_changed = changed;
    update();
}

QRectF SymptomNodeItem::boundingRect() const
{
    return QRectF(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height())
        .adjusted(-Halo, -Halo, Halo, Halo);
}

QPen SymptomNodeItem::statusPen(SymptomStatus status, bool rootCause, bool candidate, const QColor& domain)
{
    if (rootCause)
        return QPen(QColor(0xc6, 0x28, 0x28), 3.5);
    if (candidate)
        return QPen(QColor(0xf9, 0xa8, 0x25), 3.0);
    switch (status) {
    case SymptomStatus::Active: return QPen(domain.darker(150), 2.0);
    case SymptomStatus::Demoted: return QPen(QColor(0x61, 0x61, 0x61), 1.6, Qt::DashLine);
    case SymptomStatus::Scrubbed: return QPen(QColor(0x9e, 0x9e, 0x9e), 1.4, Qt::DotLine);
    }
    return QPen(Qt::black);
}

QColor SymptomNodeItem::fillColor(const QColor& domain, SymptomStatus status)
{
    const qreal keep = status == SymptomStatus::Active ? 0.30 : status == SymptomStatus::Demoted ? 0.14 : 0.06;
    auto mix = [keep](int c) { return static_cast<int>(c * keep + 255 * (1 - keep)); };
    return QColor(mix(domain.red()), mix(domain.green()), mix(domain.blue()));
}

void SymptomNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF box(-m_size.width() / 2, -m_size.height() / 2, m_size.width(), m_size.height());
    const QColor domain = domainColor(m_node.domain);
    painter->setRenderHint(QPainter::Antialiasing);
    if (m_changed) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0xff, 0xd5, 0x4f, 200));
        painter->drawRoundedRect(box.adjusted(-Halo, -Halo, Halo, Halo), Radius + Halo, Radius + Halo);
    }
    painter->setBrush(fillColor(domain, m_status));
    painter->setPen(statusPen(m_status, m_rootCause, m_candidate, domain));
    painter->drawRoundedRect(box, Radius, Radius);
    // A domain stripe on the left keeps the colour readable when the fill is faded.
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_status == SymptomStatus::Scrubbed ? domain.lighter(150) : domain);
    painter->drawRoundedRect(QRectF(box.left() + 2, box.top() + 4, 5, box.height() - 8), 2, 2);
    if (option->state & QStyle::State_Selected) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(0x19, 0x76, 0xd2), 2.0));
        painter->drawRoundedRect(box.adjusted(-3, -3, 3, 3), Radius + 3, Radius + 3);
    }
    const QStringList lines = qs(m_node.label).split(QLatin1Char('\n'));
    const QColor text = m_status == SymptomStatus::Scrubbed ? QColor(0x75, 0x75, 0x75) : QColor(0x21, 0x21, 0x21);
    QFont font = painter->font();
    const QRectF inner = box.adjusted(12, 3, -6, -3);
    const qreal half = inner.height() / 2;
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(text);
    const QFontMetricsF bold(font);
    painter->drawText(QRectF(inner.left(), inner.top(), inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
                      bold.elidedText(lines.value(0), Qt::ElideRight, inner.width()));
    font.setBold(false);
    painter->setFont(font);
    QString second = lines.value(1);
    if (m_rootCause)
        second += QCoreApplication::translate("SymptomNodeItem", "  \u00b7 root cause");
    painter->drawText(QRectF(inner.left(), inner.top() + half, inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
                      QFontMetricsF(font).elidedText(second, Qt::ElideRight, inner.width()));
}

}  // namespace attrib::views
