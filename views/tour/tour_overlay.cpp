// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/tour/tour_overlay.h"

#include <QApplication>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QVBoxLayout>

namespace attrib::views {

namespace {

constexpr int Margin = 4;  ///< frame drawn this far outside the target
constexpr int BubbleWidth = 360;
const QColor FrameColor(0xe6, 0x9f, 0x00);  // Okabe-Ito orange: visible on light and dark panes

}  // namespace

TourOverlay::TourOverlay(QWidget* window)
    : QWidget(window)
    , m_bubble(new QFrame(window))
    , m_step(new QLabel(m_bubble))
    , m_title(new QLabel(m_bubble))
    , m_text(new QLabel(m_bubble))
    , m_back(new QPushButton(QStringLiteral("Back"), m_bubble))
    , m_next(new QPushButton(QStringLiteral("Next"), m_bubble))
    , m_close(new QPushButton(QStringLiteral("End tour"), m_bubble))
{
    setObjectName(QStringLiteral("tourOverlay"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    m_bubble->setObjectName(QStringLiteral("tourBubble"));
    m_bubble->setFrameShape(QFrame::Box);
    m_bubble->setAutoFillBackground(true);
    m_bubble->setStyleSheet(QStringLiteral("QFrame#tourBubble { background: palette(base); border: 2px solid %1; "
                                           "border-radius: 6px; }")
                                .arg(FrameColor.name()));
    m_bubble->setFixedWidth(BubbleWidth);
    for (QLabel* l : {m_step, m_title, m_text}) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::PlainText);
    }
    m_step->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_title->setStyleSheet(QStringLiteral("font-weight: bold; font-size: 12pt"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_close);
    buttons->addStretch(1);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    auto* box = new QVBoxLayout(m_bubble);
    box->setContentsMargins(14, 10, 14, 10);
    box->addWidget(m_step);
    box->addWidget(m_title);
    box->addWidget(m_text);
    box->addLayout(buttons);
    m_next->setDefault(true);
    connect(m_next, &QPushButton::clicked, this, &TourOverlay::nextRequested);
    connect(m_back, &QPushButton::clicked, this, &TourOverlay::backRequested);
    connect(m_close, &QPushButton::clicked, this, &TourOverlay::closeRequested);
    for (QWidget* w : {static_cast<QWidget*>(m_bubble), static_cast<QWidget*>(m_back), static_cast<QWidget*>(m_next),
                       static_cast<QWidget*>(m_close)})
        w->installEventFilter(this);
    window->installEventFilter(this);
    hide();
    m_bubble->hide();
}

void TourOverlay::showStep(QWidget* target, const QString& title, const QString& text, int index, int count)
{
    if (m_target)
        m_target->removeEventFilter(this);
    m_target = target;
    if (m_target)
        m_target->installEventFilter(this);
    m_step->setText(QStringLiteral("Step %1 of %2").arg(index + 1).arg(count));
    m_title->setText(title);
    m_text->setText(text);
    m_back->setEnabled(index > 0);
    m_next->setText(index + 1 < count ? QStringLiteral("Next") : QStringLiteral("Finish"));
    show();
    m_bubble->show();
    relayout();
    m_next->setFocus(Qt::OtherFocusReason);
}

void TourOverlay::finish()
{
    if (m_target)
        m_target->removeEventFilter(this);
    m_target = nullptr;
    hide();
    m_bubble->hide();
}

QRect TourOverlay::highlightRect() const
{
    if (!m_target || !m_target->isVisible() || !parentWidget())
        return {};
    // What is on screen of the target: clipped by every ancestor (a scroll area's viewport shows only part).
    QRect r(m_target->mapTo(parentWidget(), QPoint(0, 0)), m_target->size());
    for (const QWidget* w = m_target->parentWidget(); w && w != parentWidget(); w = w->parentWidget())
        r &= QRect(w->mapTo(parentWidget(), QPoint(0, 0)), w->size());
    return r.intersected(parentWidget()->rect());
}

void TourOverlay::relayout()
{
    if (!isVisible() || !parentWidget())
        return;
    setGeometry(parentWidget()->rect());
    raise();
    placeBubble(highlightRect());
    m_bubble->raise();
    update();
}

void TourOverlay::placeBubble(const QRect& hole)
{
    const QRect area = parentWidget()->rect().adjusted(8, 8, -8, -8);
    // Word-wrapped labels: the height depends on the width, which is fixed.
    const QSize size(BubbleWidth, m_bubble->layout()->totalHeightForWidth(BubbleWidth));
    const int gap = Margin + 8;
    // Beside the target where there is room, else below or above it, else over its bottom-right corner.
    const QPoint candidates[] = {
        {hole.right() + gap, hole.top()},
        {hole.left() - gap - size.width(), hole.top()},
        {hole.left(), hole.bottom() + gap},
        {hole.left(), hole.top() - gap - size.height()},
    };
    QPoint at(hole.right() - size.width() - gap, hole.bottom() - size.height() - gap);
    for (const QPoint& c : candidates) {
        if (!hole.isEmpty() && area.contains(QRect(c, size))) {
            at = c;
            break;
        }
    }
    at.setX(std::clamp(at.x(), area.left(), std::max(area.left(), area.right() - size.width())));
    at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - size.height())));
    m_bubble->setGeometry(QRect(at, size));
}

void TourOverlay::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect hole = highlightRect().adjusted(-Margin, -Margin, Margin, Margin);
    QPainterPath dim;
    dim.addRect(rect());
    QPainterPath cut;
    cut.addRoundedRect(hole, 6, 6);
    p.fillPath(hole.isEmpty() ? dim : dim.subtracted(cut), QColor(0, 0, 0, 90));
    if (!hole.isEmpty()) {
        p.setPen(QPen(FrameColor, 3));
        p.drawRoundedRect(hole, 6, 6);
    }
}

bool TourOverlay::handleKey(QEvent* event)
{
    const int key = static_cast<QKeyEvent*>(event)->key();
    const bool ours = key == Qt::Key_Escape || key == Qt::Key_Right || key == Qt::Key_Left || key == Qt::Key_Return ||
        key == Qt::Key_Enter;
    if (!ours)
        return false;
    event->accept();
    if (event->type() == QEvent::ShortcutOverride)
        return false;  // accepted: the key comes to us as a KeyPress instead of firing a window shortcut
    const QWidget* focus = QApplication::focusWidget();
    const bool enter = key == Qt::Key_Return || key == Qt::Key_Enter;
    if (key == Qt::Key_Escape || (enter && focus == m_close))
        Q_EMIT closeRequested();
    else if (key == Qt::Key_Left || (enter && focus == m_back))
        Q_EMIT backRequested();
    else
        Q_EMIT nextRequested();
    return true;
}

bool TourOverlay::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if ((type == QEvent::ShortcutOverride || type == QEvent::KeyPress) && watched != parentWidget() &&
        watched != m_target)
        return handleKey(event);
    const bool tracked = watched == parentWidget() || watched == m_target;
    if (tracked && isVisible() &&
        (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show || type == QEvent::Hide ||
         type == QEvent::LayoutRequest))
        relayout();
    return QWidget::eventFilter(watched, event);
}

}  // namespace attrib::views
