// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/deferred_refresh.h"

#include <QDockWidget>
#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace attrib::views {

DeferredRefresh::DeferredRefresh(QWidget* view, std::function<void()> rebuild)
    : QObject(view)
    , m_view(view)
    , m_rebuild(std::move(rebuild))
{
    view->installEventFilter(this);
}

bool DeferredRefresh::onScreen(const QWidget* widget)
{
    return widget->isVisible() && !widget->visibleRegion().isEmpty();
}

void DeferredRefresh::invalidate()
{
    m_outOfDate = true;
    watchDock();
    if (onScreen(m_view))
        flush();
}

void DeferredRefresh::flush()
{
    if (!m_outOfDate)
        return;
    m_outOfDate = false;
    m_rebuild();
}

void DeferredRefresh::watchDock()
{
    if (m_dock)
        return;
    for (QWidget* w = m_view->parentWidget(); w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            m_dock = dock;
            connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
                if (visible)
                    checkSoon();
            });
            return;
        }
    }
}

void DeferredRefresh::checkSoon()
{
    // Layout settles after the event that made the view visible; look once it has.
    if (!m_outOfDate || m_checkQueued)
        return;
    m_checkQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_checkQueued = false;
        if (onScreen(m_view))
            flush();
    });
}

bool DeferredRefresh::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && (event->type() == QEvent::Show || event->type() == QEvent::Resize))
        checkSoon();
    return QObject::eventFilter(watched, event);
}

}  // namespace attrib::views
