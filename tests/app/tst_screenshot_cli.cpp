// SPDX-License-Identifier: GPL-3.0-or-later
// `attribution-workbench --screenshot` always ends, and ends non-zero with a one-line reason on every failure:
// a missing path, a file that is not a bundle, an archive that cannot be read, a bad --timeout.
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestScreenshotCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    struct Run {
        int exitCode = -1;
        qint64 ms = 0;
        QString err;
        bool finished = false;
    };

    Run run(const QStringList& args, int waitMs)
    {
        QProcess workbench;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        workbench.setProcessEnvironment(env);
        QElapsedTimer timer;
        timer.start();
        workbench.start(QStringLiteral(ATTRIB_WORKBENCH), args);
        Run r;
        r.finished = workbench.waitForFinished(waitMs);
        r.ms = timer.elapsed();
        if (!r.finished) {
            workbench.kill();
            workbench.waitForFinished();
            return r;
        }
        r.exitCode = workbench.exitStatus() == QProcess::NormalExit ? workbench.exitCode() : -2;
        r.err = QString::fromUtf8(workbench.readAllStandardError());
        return r;
    }

    QString png() const { return m_tmp.filePath(QStringLiteral("shot.png")); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void nonexistentPathExitsWithin5s()
    {
        const Run r = run({QStringLiteral("--screenshot"), png(), QStringLiteral("/nonexistent/bundle")}, 5000);
        QVERIFY2(r.finished, "still running after 5 s");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(QStringLiteral("cannot open /nonexistent/bundle: no such file or folder")),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(png()));
    }

    void fileThatIsNotABundleIsRefused()
    {
        const QString text = m_tmp.filePath(QStringLiteral("notes.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("just a note\n");
        f.close();
        const Run r = run({QStringLiteral("--screenshot"), png(), text}, 5000);
        QVERIFY2(r.finished, "still running after 5 s");
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(QStringLiteral("not a bundle folder or archive")), qPrintable(r.err));
    }

    void unreadableArchiveFailsWithReason()
    {
        const QString archive = m_tmp.filePath(QStringLiteral("broken.tar.gz"));
        QFile f(archive);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not gzip data at all, just text pretending to be an archive\n");
        f.close();
        const Run r = run({QStringLiteral("--screenshot"), png(), archive}, 30000);
        QVERIFY2(r.finished, "still running after 30 s");
        QVERIFY2(r.exitCode != 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("broken.tar.gz: not a bundle folder or archive")), qPrintable(r.err));
        // A damaged gzip: said to be compressed with no archive readable inside.
        QFile gz(archive);
        QVERIFY(gz.open(QIODevice::WriteOnly));
        gz.write(QByteArray::fromHex("1f8b0800000000000003") + QByteArray(64, '\x7f'));
        gz.close();
        const Run damaged = run({QStringLiteral("--screenshot"), png(), archive}, 30000);
        QVERIFY(damaged.finished && damaged.exitCode != 0);
        QVERIFY2(damaged.err.contains(QStringLiteral("no tar or zip archive readable inside")),
                 qPrintable(damaged.err));
    }

    void badTimeoutIsRefused()
    {
        const Run r = run({QStringLiteral("--screenshot"), png(), QStringLiteral("--timeout"), QStringLiteral("soon"),
                           QStringLiteral(ATTRIB_SOURCE_DIR "/samples/nvlink-xid149")},
                          5000);
        QVERIFY2(r.finished, "still running after 5 s");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--timeout")), qPrintable(r.err));
    }
};

QTEST_APPLESS_MAIN(TestScreenshotCli)
#include "tst_screenshot_cli.moc"
