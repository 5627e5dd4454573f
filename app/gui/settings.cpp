// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/settings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace attrib::app {

namespace {

const QString Window = QStringLiteral("window");
const QString Recent = QStringLiteral("recent");
const QString Views = QStringLiteral("views");
const QString Paths = QStringLiteral("paths");
const QString Version = QStringLiteral("version");

}  // namespace

Settings::Settings(const QString& fileName, QObject* parent)
    : QObject(parent)
    , m_settings(fileName.isEmpty() ? QSettings(QSettings::IniFormat, QSettings::UserScope,
                                                QStringLiteral("attribution-workbench"), QStringLiteral("workbench"))
                                          .fileName()
                                    : fileName,
                 QSettings::IniFormat)
{
}

QVariant Settings::value(const QString& group, const QString& key, const QVariant& fallback) const
{
    // A group written by a newer, incompatible version is ignored rather than misread.
    if (m_settings.value(group + QLatin1Char('/') + Version, GroupVersion).toInt() != GroupVersion)
        return fallback;
    return m_settings.value(group + QLatin1Char('/') + key, fallback);
}

bool Settings::setValue(const QString& group, const QString& key, const QVariant& v)
{
    const QString path = group + QLatin1Char('/') + key;
    if (m_settings.contains(path) && m_settings.value(path) == v)
        return false;
    m_settings.setValue(group + QLatin1Char('/') + Version, GroupVersion);
    m_settings.setValue(path, v);
    return true;
}

QStringList Settings::recentBundles() const
{
    return value(Recent, QStringLiteral("bundles")).toStringList();
}

void Settings::setRecentBundles(const QStringList& bundles)
{
    if (setValue(Recent, QStringLiteral("bundles"), bundles))
        Q_EMIT recentBundlesChanged(bundles);
}

int Settings::maxRecentBundles() const
{
    return std::clamp(value(Recent, QStringLiteral("max"), 10).toInt(), 1, 50);
}

QByteArray Settings::windowGeometry() const
{
    return value(Window, QStringLiteral("geometry")).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    setValue(Window, QStringLiteral("geometry"), geometry);
}

QByteArray Settings::windowState() const
{
    if (value(Window, QStringLiteral("stateVersion"), -1).toInt() != WindowStateVersion)
        return {};
    return value(Window, QStringLiteral("state")).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    setValue(Window, QStringLiteral("stateVersion"), WindowStateVersion);
    setValue(Window, QStringLiteral("state"), state);
}

bool Settings::timelineRelative() const
{
    return value(Views, QStringLiteral("timelineRelative"), false).toBool();
}

void Settings::setTimelineRelative(bool relative)
{
    if (setValue(Views, QStringLiteral("timelineRelative"), relative))
        Q_EMIT timelineRelativeChanged(relative);
}

bool Settings::showDemoted() const
{
    return value(Views, QStringLiteral("showDemoted"), true).toBool();
}

void Settings::setShowDemoted(bool show)
{
    if (setValue(Views, QStringLiteral("showDemoted"), show))
        Q_EMIT showDemotedChanged(show);
}

bool Settings::showScrubbed() const
{
    return value(Views, QStringLiteral("showScrubbed"), true).toBool();
}

void Settings::setShowScrubbed(bool show)
{
    if (setValue(Views, QStringLiteral("showScrubbed"), show))
        Q_EMIT showScrubbedChanged(show);
}

QString Settings::lastOpenDir() const
{
    return value(Paths, QStringLiteral("lastOpenDir")).toString();
}

void Settings::setLastOpenDir(const QString& dir)
{
    if (setValue(Paths, QStringLiteral("lastOpenDir"), dir))
        Q_EMIT lastOpenDirChanged(dir);
}

QString Settings::serviceUrl() const
{
    return value(QStringLiteral("service"), QStringLiteral("url"), QStringLiteral("http://127.0.0.1:8000")).toString();
}

QString Settings::serviceTokenPath() const
{
    return QFileInfo(m_settings.fileName()).dir().filePath(QStringLiteral("service-token"));
}

QByteArray Settings::serviceToken() const
{
    QFile file(serviceTokenPath());
    if (file.open(QIODevice::ReadOnly))
        return file.readAll().trimmed();
    return value(QStringLiteral("service"), QStringLiteral("token")).toByteArray();  // left by an older version
}

bool Settings::setService(const QString& url, const QByteArray& token)
{
    setValue(QStringLiteral("service"), QStringLiteral("url"), url);
    const QString path = serviceTokenPath();
    if (token.isEmpty()) {
        QFile::remove(path);
    } else {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QSaveFile file(path);
        // Owner-only before the token is written, so it is never readable by others, not even for a moment.
        if (!file.open(QIODevice::WriteOnly) ||
            !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) || file.write(token) < 0 ||
            !file.commit())
            return false;
    }
    m_settings.remove(QStringLiteral("service/token"));
    return true;
}

}  // namespace attrib::app
