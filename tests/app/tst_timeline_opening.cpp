// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline opens on the failure (issue 12): on every sample the failure window (first to last active or
// demoted symptom) covers at least 60% of the plot width; F, Z and 0 and the pan/zoom keys work; the root-cause
// label is never cut at the edge; the clock-skew sample shows its offset on the node's lane.
#include "../common/test_catalog.h"

#include "importers/analyzer.h"
#include "views/selection_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"

#include <algorithm>

#include <QAction>
#include <QDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestTimelineOpening : public QObject {
    Q_OBJECT

private:
    struct Fixture {
        SelectionModel selection;
        TimelineView view{&selection};
        AnalysisPtr analysis;

        explicit Fixture(const QString& sample, QSize size = {1200, 600})
        {
            auto outcome = importers::analyzeBundle(tests::samplePath(sample.toStdString()), tests::sourceCatalog());
            if (!outcome.result)
                qFatal("cannot analyse %s: %s", qPrintable(sample), outcome.error.c_str());
            analysis = AnalysisData::build(outcome.result);
            selection.setAnalysis(analysis);
            view.resize(size);
            view.show();
            view.setTimelineData(TimelineData::build(*analysis));
            plot()->replot(QCustomPlot::rpImmediateRefresh);
        }
        TimelinePlot* plot() const { return view.plot(); }
        /// Share of the plot width that the failure window covers in the current view.
        double failureShare() const
        {
            const auto& d = *plot()->timelineData();
            const double mid = (d.failStart + d.failEnd) / 2;
            const double half = std::max(d.failEnd - d.failStart, TimelineData::MinFailureSpan) / 2;
            const double a = plot()->xAxis->coordToPixel(mid - half);
            const double b = plot()->xAxis->coordToPixel(mid + half);
            return std::abs(b - a) / plot()->axisRect()->width();
        }
        QAction* action(const QString& text) const
        {
            for (QAction* a : view.findChildren<QAction*>()) {
                if (a->text() == text)
                    return a;
            }
            return nullptr;
        }
    };

    static QStringList samples()
    {
        QStringList out;
        const QDir dir(QStringLiteral(ATTRIB_SOURCE_DIR "/samples"));
        for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFileInfo::exists(dir.filePath(name + QStringLiteral("/expected.json"))))
                out << name;
        }
        return out;
    }

private Q_SLOTS:
    void opensOnTheFailure_data()
    {
        QTest::addColumn<QString>("sample");
        const QStringList all = samples();
        QVERIFY(all.size() >= 10);
        for (const QString& s : all)
            QTest::newRow(qPrintable(s)) << s;
    }

    void opensOnTheFailure()
    {
        QFETCH(QString, sample);
        Fixture f(sample);
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const double share = f.failureShare();
        QVERIFY2(
            share >= 0.6,
            qPrintable(
                QStringLiteral("%1: failure window is %2% of the plot width").arg(sample).arg(share * 100, 0, 'f', 1)));
    }

    void keysFitZoomAndReset()
    {
        Fixture f(QStringLiteral("thermal-shutdown"));
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        const QCPRange opening = f.plot()->xAxis->range();
        f.plot()->setFocus();
        QTest::keyClick(f.plot(), Qt::Key_0);
        const QCPRange all = f.plot()->xAxis->range();
        QVERIFY2(all.size() > opening.size() * 2, "0 shows the context before the failure");
        QVERIFY(f.failureShare() < 0.6);
        QTest::keyClick(f.plot(), Qt::Key_F);
        QCOMPARE(f.plot()->xAxis->range().size(), opening.size());
        QTest::keyClick(f.plot(), Qt::Key_W);
        QVERIFY(f.plot()->xAxis->range().size() < opening.size());
        QTest::keyClick(f.plot(), Qt::Key_Minus);
        QTest::keyClick(f.plot(), Qt::Key_Minus);
        QVERIFY(f.plot()->xAxis->range().size() > opening.size());
        const double before = f.plot()->xAxis->range().center();
        QTest::keyClick(f.plot(), Qt::Key_D);
        QVERIFY(f.plot()->xAxis->range().center() > before);
        QTest::keyClick(f.plot(), Qt::Key_Left);
        QTest::keyClick(f.plot(), Qt::Key_A);
        QVERIFY(f.plot()->xAxis->range().center() < before);
        // Z zooms to the selected symptom's span.
        f.selection.selectSymptom(f.analysis->rootCauseSymptom);
        QTest::keyClick(f.plot(), Qt::Key_0);
        QTest::keyClick(f.plot(), Qt::Key_Z);
        QVERIFY(f.plot()->xAxis->range().size() < all.size());
        QVERIFY(f.action(QStringLiteral("Fit failure")));
        QCOMPARE(f.action(QStringLiteral("Fit failure"))->shortcut(), QKeySequence(QStringLiteral("F")));
    }

    void clockSkewOnTheLane()
    {
        Fixture f(QStringLiteral("clock-skew-gpu-lost"));
        const auto& r = f.analysis->r();
        // Only corrected clocks get a note on their lane; offsets within jitter are not applied.
        const auto applied =
            std::find_if(r.clockOffsets.begin(), r.clockOffsets.end(), [](const auto& o) { return o.applied; });
        QVERIFY(applied != r.clockOffsets.end());
        const auto ticks = f.plot()->yAxis->tickVectorLabels();
        const QString skewed = QString::fromStdString(applied->node);
        bool found = false;
        for (const QString& label : ticks)
            found |= label.startsWith(skewed) && label.contains(QStringLiteral("clock "));
        QVERIFY2(found, qPrintable(QStringList(ticks.begin(), ticks.end()).join(QStringLiteral(" | "))));
    }

    void smallWindowStillOpensOnTheFailure()
    {
        Fixture f(QStringLiteral("nccl-hang"), {700, 420});
        QVERIFY(QTest::qWaitForWindowExposed(&f.view));
        QVERIFY(f.failureShare() >= 0.6);
    }
};

QTEST_MAIN(TestTimelineOpening)
#include "tst_timeline_opening.moc"
