// SPDX-License-Identifier: GPL-3.0-or-later
// The job controller: staged results in order, progress with stage names, a newer analysis superseding an
// older one (stale results dropped), cancellation, and failures.
#include "../common/test_catalog.h"

#include "app/gui/job_controller.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace attrib;
using namespace attrib::app;

namespace {

/// A bundle with one large kernel log (about `megabytes` MB) on node-01.
QString writeLargeBundle(const QTemporaryDir& dir, int megabytes)
{
    const std::string path = dir.filePath(QStringLiteral("big/nodes/node-01/dmesg.txt")).toStdString();
    tests::writeFile(path, "");
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string line = "[Wed Apr 22 21:00:01 2026] mlx5_core 0000:5f:00.0: mlx5_cmd_out_err:838:(pid 3970): "
                             "ACCESS_REG(0x805) op_mod(0x1) failed, status bad parameter(0x3)\n";
    for (std::size_t bytes = 0; bytes < static_cast<std::size_t>(megabytes) << 20; bytes += line.size())
        out << line;
    out << "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, pid=1, name=x, GPU has fallen off the bus.\n";
    return dir.filePath(QStringLiteral("big"));
}

}  // namespace

class TestJobController : public QObject {
    Q_OBJECT

private:
    const QString m_sample = QString::fromStdString(tests::samplePath("nvlink-xid149"));

private Q_SLOTS:
    void stagesArriveInOrder()
    {
        JobController jobs(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QStringList order;
        connect(&jobs, &JobController::started, this, [&] { order << QStringLiteral("started"); });
        connect(&jobs, &JobController::bundleIndexed, this, [&](quint64, const views::AnalysisPtr& partial) {
            QVERIFY(!partial->hasVerdict());
            QVERIFY(partial->r().files.size() > 30);
            order << QStringLiteral("indexed");
        });
        connect(&jobs, &JobController::analysisReady, this,
                [&](quint64, const views::AnalysisPtr& analysis, const engine::CatalogPtr& catalog, qint64) {
                    QVERIFY(analysis->hasVerdict());
                    QVERIFY(catalog);
                    QCOMPARE(analysis->r().verdict.subDomain, std::string("nvlink"));
                    order << QStringLiteral("analysed");
                });
        connect(&jobs, &JobController::timelineReady, this, [&](quint64, const views::TimelineDataPtr& t) {
            QVERIFY(t->eventCount > 0);
            order << QStringLiteral("timeline");
        });
        QSignalSpy finished(&jobs, &JobController::finished);
        QCOMPARE(jobs.analyze(m_sample), quint64(1));
        QVERIFY(jobs.isRunning());
        QVERIFY(finished.wait(60000));
        QCOMPARE(order,
                 (QStringList{QStringLiteral("started"), QStringLiteral("indexed"), QStringLiteral("analysed"),
                              QStringLiteral("timeline")}));
        QVERIFY(!jobs.isRunning());
    }

    void newerAnalysisSupersedesOlder()
    {
        JobController jobs(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QSignalSpy ready(&jobs, &JobController::analysisReady);
        QSignalSpy indexed(&jobs, &JobController::bundleIndexed);
        QSignalSpy finished(&jobs, &JobController::finished);
        QSignalSpy cancelled(&jobs, &JobController::cancelled);
        jobs.analyze(m_sample);
        const quint64 second = jobs.analyze(m_sample);
        QCOMPARE(second, quint64(2));
        QVERIFY(finished.wait(60000));
        QTest::qWait(200);  // let the superseded job end too: its results must not arrive
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready.front().front().value<quint64>(), second);
        for (const auto& args : indexed)
            QCOMPARE(args.front().value<quint64>(), second);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(cancelled.size(), 0);
    }

    void progressNamesStages()
    {
        QTemporaryDir dir;
        const QString bundle = writeLargeBundle(dir, 24);
        JobController jobs(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QStringList stages;
        connect(&jobs, &JobController::progressChanged, this, [&](const QString& stage, int permille) {
            QVERIFY(permille >= 0 && permille <= 1000);
            if (stages.isEmpty() || stages.back() != stage)
                stages << stage;
        });
        QSignalSpy finished(&jobs, &JobController::finished);
        QSignalSpy ready(&jobs, &JobController::analysisReady);
        jobs.analyze(bundle);
        QVERIFY(finished.wait(120000));
        QCOMPARE(ready.size(), 1);
        QVERIFY2(stages.contains(QStringLiteral("reading files and extracting")), qPrintable(stages.join(u',')));
    }

    void cancelStopsTheJob()
    {
        QTemporaryDir dir;
        const QString bundle = writeLargeBundle(dir, 24);
        JobController jobs(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QSignalSpy ready(&jobs, &JobController::analysisReady);
        QSignalSpy cancelled(&jobs, &JobController::cancelled);
        QSignalSpy finished(&jobs, &JobController::finished);
        jobs.analyze(bundle);
        jobs.cancel();
        QVERIFY(finished.wait(60000));
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(ready.size(), 0);
    }

    void failureIsReported()
    {
        JobController jobs(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QSignalSpy failed(&jobs, &JobController::failed);
        QSignalSpy finished(&jobs, &JobController::finished);
        jobs.analyze(QStringLiteral("/no/such/bundle"));
        QVERIFY(finished.wait(60000));
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.front().at(2).toString().contains(QStringLiteral("no such file")));
    }
};

QTEST_GUILESS_MAIN(TestJobController)
#include "tst_job_controller.moc"
