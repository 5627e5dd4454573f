// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/recent_bundles.h"

#include "app/gui/settings.h"

#include <QFileInfo>
#include <QtConcurrent>

namespace attrib::app {

RecentBundles::RecentBundles(Settings* settings, QObject* parent)
    : QObject(parent)
    , m_settings(settings)
    , m_paths(settings->recentBundles())
{
    while (m_paths.size() > m_settings->maxRecentBundles())
        m_paths.removeLast();
    connect(&m_watcher, &QFutureWatcher<QHash<QString, bool>>::finished, this, [this] {
        if (m_watcher.isCanceled() || m_watcher.future().resultCount() == 0)
            return;
        m_exists = m_watcher.result();
        Q_EMIT existenceChecked();
    });
}

void RecentBundles::add(const QString& path)
{
    m_paths.removeAll(path);
    m_paths.prepend(path);
    while (m_paths.size() > m_settings->maxRecentBundles())
        m_paths.removeLast();
    m_exists.insert(path, true);
    store();
}

void RecentBundles::remove(const QString& path)
{
    if (m_paths.removeAll(path) > 0)
        store();
}

void RecentBundles::clear()
{
    m_paths.clear();
    store();
}

void RecentBundles::store()
{
    m_settings->setRecentBundles(m_paths);
    Q_EMIT changed();
}

void RecentBundles::refresh()
{
    if (m_watcher.isRunning())
        return;
    // Network mounts can stall a stat() for seconds: never on the GUI thread.
    m_watcher.setFuture(QtConcurrent::run([paths = m_paths] {
        QHash<QString, bool> exists;
        for (const QString& p : paths)
            exists.insert(p, QFileInfo::exists(p));
        return exists;
    }));
}

}  // namespace attrib::app
