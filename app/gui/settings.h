// SPDX-License-Identifier: GPL-3.0-or-later
// Typed settings with a change signal per key, persisted as INI in groups that each carry a version.
// The engine never reads settings; app/ turns them into plain options.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QStringList>

namespace attrib::app {

class Settings : public QObject {
    Q_OBJECT

public:
    /// Bump when the dock layout changes incompatibly: older saved states are then ignored.
    static constexpr int WindowStateVersion = 1;
    static constexpr int GroupVersion = 1;

    /// Uses the user's config file, or `fileName` (tests, screenshots) when given.
    explicit Settings(const QString& fileName = {}, QObject* parent = nullptr);

    QStringList recentBundles() const;
    void setRecentBundles(const QStringList& bundles);
    int maxRecentBundles() const;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    /// The saved dock state, or empty when it was saved by another layout version.
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    bool timelineRelative() const;
    void setTimelineRelative(bool relative);
    bool showDemoted() const;
    void setShowDemoted(bool show);
    bool showScrubbed() const;
    void setShowScrubbed(bool show);
    QString lastOpenDir() const;
    void setLastOpenDir(const QString& dir);

    /// The Service the workbench talks to (Settings > Service). The token is not kept with the other settings:
    /// it lives in its own file beside them (serviceTokenPath), readable by the user only (0600), like ~/.netrc.
    /// A token an older version left in the settings file moves there on the next save.
    QString serviceUrl() const;
    QByteArray serviceToken() const;
    /// Returns false (the old token kept) when the token file cannot be written.
    bool setService(const QString& url, const QByteArray& token);
    QString serviceTokenPath() const;

    QString fileName() const { return m_settings.fileName(); }
    void sync() { m_settings.sync(); }

Q_SIGNALS:
    void recentBundlesChanged(const QStringList& bundles);
    void timelineRelativeChanged(bool relative);
    void showDemotedChanged(bool show);
    void showScrubbedChanged(bool show);
    void lastOpenDirChanged(const QString& dir);

private:
    QVariant value(const QString& group, const QString& key, const QVariant& fallback = {}) const;
    /// Writes `value`; returns true when it changed.
    bool setValue(const QString& group, const QString& key, const QVariant& value);

    mutable QSettings m_settings;
};

}  // namespace attrib::app
