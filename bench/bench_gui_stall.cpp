// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench at scale (issue 13, item 6): opening a large bundle in the main window, how soon the first
// results (the file list) show, how often progress reaches the window and whether every engine phase is named,
// and the longest stall of the GUI thread, measured by a 10 ms timer probe whose late ticks are the stalls.
// The bundle is ATTRIB_BENCH_BUNDLE, or one `attrib gen` writes (ATTRIB_BENCH_NODES nodes, default 256).
// Bars: first results within 2 s, progress at least 5 times a second, no stall over 100 ms.
#include "app/gui/bundle_controller.h"
#include "app/gui/job_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace attrib;

namespace {

/// Ticks every 10 ms on the GUI thread; a tick that comes late measures how long the thread was busy.
class StallProbe : public QObject {
public:
    StallProbe()
    {
        m_timer.setInterval(10);
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed() / 1000000;
            if (now - m_last - 10 > m_worst) {
                m_worst = now - m_last - 10;
                m_worstAt = now;
            }
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }
    qint64 worstMs() const { return m_worst; }
    /// When the longest stall ended, in ms since the probe started.
    qint64 worstEndedAt() const { return m_worstAt; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_worst = 0;
    qint64 m_worstAt = 0;
};

QString generatedBundle(const QTemporaryDir& dir)
{
    const int nodes = qEnvironmentVariableIntValue("ATTRIB_BENCH_NODES") > 0
        ? qEnvironmentVariableIntValue("ATTRIB_BENCH_NODES")
        : 256;
    QString out = dir.filePath(QStringLiteral("bundle"));
    QProcess gen;
    gen.start(QStringLiteral(ATTRIB_CLI),
              {QStringLiteral("gen"), QStringLiteral("--nodes"), QString::number(nodes),
               QStringLiteral("--gpus-per-node"), QStringLiteral("8"), QStringLiteral("--minutes"),
               QStringLiteral("10"), QStringLiteral("--fault"), QStringLiteral("nvlink-xid149"),
               QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--out"), out});
    if (!gen.waitForFinished(-1) || gen.exitCode() != 0)
        qFatal("attrib gen failed: %s", gen.readAllStandardError().constData());
    return out;
}

}  // namespace

class BenchGuiStall : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void openLargeBundle()
    {
        QTemporaryDir dir;
        const QString bundle = qEnvironmentVariableIsSet("ATTRIB_BENCH_BUNDLE")
            ? qEnvironmentVariable("ATTRIB_BENCH_BUNDLE")
            : generatedBundle(dir);
        qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8());  // the case store goes here
        app::Settings settings(dir.filePath(QStringLiteral("settings.ini")));
        app::MainWindow window(&settings, QStringLiteral(ATTRIB_SOURCE_RULES_DIR), false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(1000);  // the window's first layout and paint are start-up, not opening the bundle

        QElapsedTimer clock;
        qint64 firstResult = -1;
        qint64 verdict = -1;
        QList<qint64> updates;
        QStringList stages;
        auto* jobs = window.jobController();
        connect(jobs, &app::JobController::bundleIndexed, this, [&] {
            if (firstResult < 0)
                firstResult = clock.elapsed();
        });
        connect(jobs, &app::JobController::progressChanged, this, [&](const QString& stage, int) {
            updates << clock.elapsed();
            if (stages.isEmpty() || stages.back() != stage)
                stages << stage;
        });
        QSignalSpy shown(window.bundleController(), &app::BundleController::timelineShown);
        connect(window.bundleController(), &app::BundleController::verdictShown, this,
                [&] { verdict = clock.elapsed(); });
        StallProbe probe;
        clock.start();
        QVERIFY(window.openBundle(bundle));
        QVERIFY(shown.wait(900000));
        const qint64 total = clock.elapsed();

        // Progress rate: the sparsest one-second window while the analysis ran (before the verdict).
        double slowestRate = 1e9;
        const qint64 until = verdict > 0 ? verdict : total;
        for (qint64 from = 0; from + 1000 <= until; from += 250) {
            const auto inside =
                std::count_if(updates.begin(), updates.end(), [&](qint64 t) { return t >= from && t < from + 1000; });
            slowestRate = std::min(slowestRate, static_cast<double>(inside));
        }
        qInfo("bundle %s", qPrintable(bundle));
        qInfo("first results (file list) after %lld ms; verdict after %lld ms; timeline after %lld ms", firstResult,
              verdict, total);
        qInfo("%lld progress updates, sparsest second: %.0f updates; stages: %s", static_cast<qint64>(updates.size()),
              slowestRate, qPrintable(stages.join(QStringLiteral(" > "))));
        qInfo("longest GUI-thread stall: %lld ms, ended %lld ms after opening", probe.worstMs(), probe.worstEndedAt());
        QVERIFY2(firstResult >= 0 && firstResult <= 2000, "first results later than 2 s");
        QVERIFY2(until < 1000 || slowestRate >= 5, "progress less often than 5 times a second");
        QVERIFY2(probe.worstMs() <= 100, "the GUI thread stalled for more than 100 ms");
    }
};

QTEST_MAIN(BenchGuiStall)
#include "bench_gui_stall.moc"
