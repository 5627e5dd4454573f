// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a large log in the evidence view: time until the first screen of lines can be painted while the
// line index is still being built, time to index the whole file, and the cost of reading one screen by
// offset afterwards. The file size is ATTRIB_BENCH_EVIDENCE_MB (default 2048).
#include "app/gui/file_evidence_source.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace attrib;

class BenchEvidenceOpen : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    engine::BundleFile m_file;
    std::unique_ptr<app::FileEvidenceSource> m_source;

private Q_SLOTS:
    void initTestCase()
    {
        const qint64 megabytes = qEnvironmentVariableIntValue("ATTRIB_BENCH_EVIDENCE_MB") > 0
            ? qEnvironmentVariableIntValue("ATTRIB_BENCH_EVIDENCE_MB")
            : 2048;
        const std::string path = m_dir.filePath(QStringLiteral("big.log")).toStdString();
        std::ofstream out(path, std::ios::binary);
        std::string block;
        for (int i = 0; i < 4096; ++i)
            block += "[Wed Apr 22 21:00:01 2026] mlx5_core 0000:5f:00.0: mlx5_cmd_out_err:838:(pid 3970): "
                     "ACCESS_REG(0x805) op_mod(0x1) failed, status bad parameter(0x3) " +
                std::to_string(i) + "\n";
        std::uint64_t written = 0;
        while (written < static_cast<std::uint64_t>(megabytes) << 20) {
            out << block;
            written += block.size();
        }
        out.close();
        m_file = {"big.log", path, {}, written};
        qInfo("generated %.0f MB", static_cast<double>(written) / (1 << 20));
    }

    void firstScreenWhileIndexing()
    {
        m_source = std::make_unique<app::FileEvidenceSource>(std::vector<engine::BundleFile>{m_file}, nullptr);
        QElapsedTimer timer;
        timer.start();
        m_source->lineCount(0);
        QTRY_VERIFY_WITH_TIMEOUT(m_source->lineCount(0).lines >= 60, 10000);
        const QStringList screen = m_source->readLines(0, 0, 60);
        const qint64 firstScreen = timer.elapsed();
        QCOMPARE(screen.size(), 60);
        QTRY_VERIFY_WITH_TIMEOUT(m_source->lineCount(0).complete, 600000);
        qInfo("first screen after %lld ms; whole file indexed (%lld lines) after %lld ms",
              static_cast<long long>(firstScreen), static_cast<long long>(m_source->lineCount(0).lines),
              static_cast<long long>(timer.elapsed()));
    }

    void screenByOffset()
    {
        const qint64 lines = m_source->lineCount(0).lines;
        qint64 at = 0;
        QBENCHMARK
        {
            at = (at + 7'654'321) % (lines - 60);
            QCOMPARE(m_source->readLines(0, at, 60).size(), 60);
        }
    }
};

QTEST_MAIN(BenchEvidenceOpen)
#include "bench_evidence_open.moc"
