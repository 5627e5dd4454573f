// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib gen`: for every fault kind, the analysis of a small generated bundle names the culprit the generator
// planted (terminal state, sub-domain, node and GPU); the same options give the same bytes whatever --jobs.
#include "../common/test_catalog.h"

#include "importers/analyzer.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;

class TestGenCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    int m_count = 0;

    /// Runs `attrib gen`; returns its stdout ("" on failure) and the bundle folder in `out`.
    QString gen(const QStringList& args, QString& out)
    {
        out = m_tmp.filePath(QStringLiteral("b%1").arg(++m_count));
        QProcess attrib;
        attrib.start(QStringLiteral(ATTRIB_CLI),
                     QStringList{QStringLiteral("gen"), QStringLiteral("--out"), out} + args);
        if (!attrib.waitForFinished(120000) || attrib.exitCode() != 0)
            return {};
        return QString::fromUtf8(attrib.readAllStandardOutput());
    }

    static QByteArray bundleHash(const QString& dir)
    {
        QStringList files;
        QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next().mid(dir.size());
        files.sort();
        QCryptographicHash hash(QCryptographicHash::Sha256);
        for (const auto& f : files) {
            QFile file(dir + f);
            if (!file.open(QIODevice::ReadOnly))
                return {};
            hash.addData(f.toUtf8());
            hash.addData(file.readAll());
        }
        return hash.result().toHex();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void namesThePlantedCulprit_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("seed");
        for (const char* f : {"nvlink-xid149", "gpu-fallen-off-bus", "ecc-dbe-row-remap", "nvswitch-sxid-fabric",
                              "ib-link-flap", "thermal-shutdown", "cuda-oom", "host-oom-cgroup", "user-code-traceback",
                              "storage-full", "preemption", "time-limit", "user-cancel", "none"})
            for (const char* seed : {"1", "7"})
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(QLatin1String(f), QLatin1String(seed))))
                    << QString::fromLatin1(f) << QString::fromLatin1(seed);
    }

    void namesThePlantedCulprit()
    {
        QFETCH(QString, fault);
        QFETCH(QString, seed);
        QString dir;
        const QString printed = gen({QStringLiteral("--nodes"), QStringLiteral("5"), QStringLiteral("--gpus-per-node"),
                                     QStringLiteral("4"), QStringLiteral("--minutes"), QStringLiteral("1"),
                                     QStringLiteral("--fault"), fault, QStringLiteral("--seed"), seed},
                                    dir);
        static const QRegularExpression planted(
            QStringLiteral("^planted: (\\w+) / (\\w+) on (the job|[\\w-]+)(?: GPU (\\d+))?$"),
            QRegularExpression::MultilineOption);
        const auto m = planted.match(printed);
        QVERIFY2(m.hasMatch(), qPrintable(printed));
        const auto outcome = importers::analyzeBundle(dir.toStdString(), tests::sourceCatalog());
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& v = outcome.result->verdict;
        QCOMPARE(QString::fromStdString(v.terminalState), m.captured(1));
        QCOMPARE(QString::fromStdString(v.subDomain), m.captured(2));
        if (m.captured(3) == QStringLiteral("the job")) {
            QVERIFY(!v.rootCause || v.rootCause->node.empty());
            return;
        }
        QVERIFY(v.rootCause);
        QCOMPARE(QString::fromStdString(v.rootCause->node), m.captured(3));
        QCOMPARE(v.rootCause->gpu, m.captured(4).isEmpty() ? -1 : m.captured(4).toInt());
    }

    void sameOptionsSameBytes()
    {
        const QStringList args{QStringLiteral("--nodes"), QStringLiteral("7"),       QStringLiteral("--minutes"),
                               QStringLiteral("2"),       QStringLiteral("--fault"), QStringLiteral("cuda-oom"),
                               QStringLiteral("--seed"),  QStringLiteral("42")};
        QString a, b, c;
        QVERIFY(!gen(args + QStringList{QStringLiteral("--jobs"), QStringLiteral("1")}, a).isEmpty());
        QVERIFY(!gen(args + QStringList{QStringLiteral("--jobs"), QStringLiteral("3")}, b).isEmpty());
        QVERIFY(!gen({QStringLiteral("--nodes"), QStringLiteral("7"), QStringLiteral("--minutes"), QStringLiteral("2"),
                      QStringLiteral("--fault"), QStringLiteral("cuda-oom"), QStringLiteral("--seed"),
                      QStringLiteral("43")},
                     c)
                     .isEmpty());
        QCOMPARE(bundleHash(a), bundleHash(b));
        QVERIFY(bundleHash(a) != bundleHash(c));
    }

    /// A log storm adds exactly the asked number of matching lines and leaves the verdict alone.
    void stormKeepsTheVerdict()
    {
        const QStringList args{
            QStringLiteral("--nodes"),   QStringLiteral("3"), QStringLiteral("--gpus-per-node"), QStringLiteral("2"),
            QStringLiteral("--minutes"), QStringLiteral("1"), QStringLiteral("--seed"),          QStringLiteral("5")};
        QString calm, storm;
        QVERIFY(!gen(args, calm).isEmpty());
        QVERIFY(!gen(args + QStringList{QStringLiteral("--storm-lines"), QStringLiteral("1001")}, storm).isEmpty());
        const auto a = importers::analyzeBundle(calm.toStdString(), tests::sourceCatalog());
        const auto b = importers::analyzeBundle(storm.toStdString(), tests::sourceCatalog());
        QVERIFY2(a.result && b.result, (a.error + b.error).c_str());
        // Matched lines: a storm's repeats fold into counted tails (importers/line_folds.h), so count 1 + folded.
        const auto lines = [](const engine::AnalysisResult& r) {
            std::uint64_t n = 0;
            for (const auto& o : r.observations)
                n += 1 + o.folded;
            return n;
        };
        QCOMPARE(lines(*b.result), lines(*a.result) + 1001);
        QVERIFY(b.result->observations.size() < a.result->observations.size() + 1001);
        QCOMPARE(b.result->verdict.terminalState, a.result->verdict.terminalState);
        QVERIFY(a.result->verdict.rootCause && b.result->verdict.rootCause);
        QCOMPARE(b.result->verdict.rootCause->symptomId, a.result->verdict.rootCause->symptomId);
    }

    void rejectsBadInput()
    {
        QString dir;
        QVERIFY(gen({QStringLiteral("--fault"), QStringLiteral("no-such-fault")}, dir).isEmpty());
        QVERIFY(!gen({QStringLiteral("--nodes"), QStringLiteral("1"), QStringLiteral("--minutes"), QStringLiteral("0")},
                     dir)
                     .isEmpty());
        QProcess again;  // the folder now holds a bundle: writing into it again is refused
        again.start(QStringLiteral(ATTRIB_CLI), {QStringLiteral("gen"), QStringLiteral("--out"), dir});
        QVERIFY(again.waitForFinished(60000));
        QCOMPARE(again.exitCode(), 1);
        QVERIFY(again.readAllStandardError().contains("exists and is not empty"));
    }
};

QTEST_APPLESS_MAIN(TestGenCli)
#include "tst_gen_cli.moc"
