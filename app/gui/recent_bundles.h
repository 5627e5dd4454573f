// SPDX-License-Identifier: GPL-3.0-or-later
// The capped list of recently opened bundles, most recent first, persisted through Settings. Whether
// each path still exists is checked in the background so the menu can grey out missing ones.
#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QStringList>

namespace attrib::app {

class Settings;

class RecentBundles : public QObject {
    Q_OBJECT

public:
    explicit RecentBundles(Settings* settings, QObject* parent = nullptr);

    QStringList paths() const { return m_paths; }
    /// Moves `path` to the front (adding it), dropping the oldest beyond the cap.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
    /// False only when the last check found the path missing.
    bool exists(const QString& path) const { return m_exists.value(path, true); }
    /// Checks every path in the background; `existenceChecked` follows.
    void refresh();

Q_SIGNALS:
    void changed();
    void existenceChecked();

private:
    void store();

    Settings* m_settings;
    QStringList m_paths;
    QHash<QString, bool> m_exists;
    QFutureWatcher<QHash<QString, bool>> m_watcher;
};

}  // namespace attrib::app
