// SPDX-License-Identifier: GPL-3.0-or-later
// Typed settings (versioned groups, versioned window state) and the capped recent-bundles list with its
// background existence check.
#include "app/gui/bundle_controller.h"
#include "app/gui/recent_bundles.h"
#include "app/gui/settings.h"

#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib::app;

class TestSettings : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString file(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void roundTripWithSignals()
    {
        const QString path = file(QStringLiteral("a.ini"));
        {
            Settings s(path);
            QSignalSpy relative(&s, &Settings::timelineRelativeChanged);
            QCOMPARE(s.timelineRelative(), false);
            QCOMPARE(s.showDemoted(), true);
            s.setTimelineRelative(true);
            s.setTimelineRelative(true);  // unchanged: no second signal
            QCOMPARE(relative.size(), 1);
            s.setShowScrubbed(false);
            s.setWindowState(QByteArray("state"));
            s.setLastOpenDir(QStringLiteral("/data"));
        }
        Settings again(path);
        QCOMPARE(again.timelineRelative(), true);
        QCOMPARE(again.showScrubbed(), false);
        QCOMPARE(again.windowState(), QByteArray("state"));
        QCOMPARE(again.lastOpenDir(), QStringLiteral("/data"));
    }

    void versionsGateOldState()
    {
        const QString path = file(QStringLiteral("b.ini"));
        {
            QSettings raw(path, QSettings::IniFormat);
            raw.setValue(QStringLiteral("window/version"), 1);
            raw.setValue(QStringLiteral("window/stateVersion"), Settings::WindowStateVersion + 7);
            raw.setValue(QStringLiteral("window/state"), QByteArray("old layout"));
            raw.setValue(QStringLiteral("views/version"), Settings::GroupVersion + 1);
            raw.setValue(QStringLiteral("views/timelineRelative"), true);
        }
        Settings s(path);
        QVERIFY(s.windowState().isEmpty());     // saved by another layout version: ignored
        QCOMPARE(s.timelineRelative(), false);  // a group of a newer version is not misread
    }

    void recentListIsCappedAndChecked()
    {
        Settings s(file(QStringLiteral("c.ini")));
        RecentBundles recent(&s);
        QSignalSpy changed(&recent, &RecentBundles::changed);
        for (int i = 0; i < 14; ++i)
            recent.add(file(QStringLiteral("bundle-%1").arg(i)));
        QCOMPARE(recent.paths().size(), s.maxRecentBundles());
        QCOMPARE(recent.paths().front(), file(QStringLiteral("bundle-13")));
        recent.add(file(QStringLiteral("bundle-10")));
        QCOMPARE(recent.paths().front(), file(QStringLiteral("bundle-10")));
        QCOMPARE(recent.paths().count(file(QStringLiteral("bundle-10"))), 1);
        QCOMPARE(changed.size(), 15);
        QCOMPARE(s.recentBundles(), recent.paths());

        QDir().mkpath(file(QStringLiteral("bundle-12")));
        QSignalSpy checked(&recent, &RecentBundles::existenceChecked);
        recent.refresh();
        QVERIFY(checked.wait(10000));
        QVERIFY(recent.exists(file(QStringLiteral("bundle-12"))));
        QVERIFY(!recent.exists(file(QStringLiteral("bundle-11"))));  // greyed out in the menu
        RecentBundles reloaded(&s);
        QCOMPARE(reloaded.paths(), recent.paths());
    }

    void bundlePaths()
    {
        // The workbench accepts what the importers read: folders and archives by content, whatever the name.
        QVERIFY(BundleController::isBundlePath(m_dir.path()));
        QFile log(file(QStringLiteral("node.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("NVRM: Xid (PCI:0000:61:00): 79, GPU has fallen off the bus.\n");
        log.close();
        const auto tar = [&](const QString& name, const QString& flags) {
            QProcess p;
            p.setWorkingDirectory(m_dir.path());
            p.start(QStringLiteral("tar"), {flags, file(name), QStringLiteral("node.log")});
            return p.waitForFinished(30000) && p.exitCode() == 0;
        };
        QVERIFY(tar(QStringLiteral("bundle.tar.gz"), QStringLiteral("-czf")));
        QVERIFY(BundleController::isBundlePath(file(QStringLiteral("bundle.tar.gz"))));
        QVERIFY(tar(QStringLiteral("bundle.tar.xz"), QStringLiteral("-cJf")));
        QVERIFY(BundleController::isBundlePath(file(QStringLiteral("bundle.tar.xz"))));
        QVERIFY(tar(QStringLiteral("collected.data"), QStringLiteral("-czf")));  // no archive suffix at all
        QVERIFY(BundleController::isBundlePath(file(QStringLiteral("collected.data"))));
        QFile fake(file(QStringLiteral("x.tar.gz")));  // an archive name, but no archive inside
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("just text\n");
        fake.close();
        QVERIFY(!BundleController::isBundlePath(fake.fileName()));
        QVERIFY(
            BundleController::whyNotBundle(fake.fileName()).contains(QStringLiteral("not a bundle folder or archive")));
        QVERIFY(!BundleController::isBundlePath(log.fileName()));
        QVERIFY(BundleController::whyNotBundle(file(QStringLiteral("missing.tgz")))
                    .contains(QStringLiteral("no such file")));
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
