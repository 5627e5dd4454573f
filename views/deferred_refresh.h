// SPDX-License-Identifier: GPL-3.0-or-later
// A view's rebuild that waits until the view is on screen. A hidden view, or one whose dock is a background
// tab (Qt keeps such a dock "visible" with an empty visible region), only marks itself out of date when its
// data changes; it rebuilds once it is shown, resized into view or its dock's tab is raised. Opening a large
// bundle then spends the GUI thread only on what the engineer sees.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class QDockWidget;
class QWidget;

namespace attrib::views {

class DeferredRefresh : public QObject {
    Q_OBJECT

public:
    DeferredRefresh(QWidget* view, std::function<void()> rebuild);

    /// The data changed: rebuild now when the view is on screen, else when it next is.
    void invalidate();
    /// Rebuild now if out of date (for accessors that must answer with current data).
    void flush();
    bool isOutOfDate() const { return m_outOfDate; }
    /// Visible and not clipped away entirely (a background dock tab is clipped away).
    static bool onScreen(const QWidget* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void watchDock();
    void checkSoon();

    QWidget* m_view;
    std::function<void()> m_rebuild;
    QPointer<QDockWidget> m_dock;
    bool m_outOfDate = false;
    bool m_checkQueued = false;
};

}  // namespace attrib::views
