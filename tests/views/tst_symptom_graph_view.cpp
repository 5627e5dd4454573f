// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph view: Graphviz dot layout (left to right in time), the state as of a debugger step,
// selection in and out, zoom, SVG/PNG export.
#include "../common/test_catalog.h"

#include "importers/analyzer.h"
#include "views/graph/graph_layout.h"
#include "views/graph/symptom_graph_view.h"
#include "views/graph/symptom_node_item.h"

#include <QGraphicsView>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestSymptomGraphView : public QObject {
    Q_OBJECT

private:
    ReplayPtr m_replay;

    double x(SymptomGraphView& view, const char* id) const
    {
        const auto* item = view.scene()->nodeItem(QLatin1String(id));
        return item ? item->pos().x() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(graphvizAvailable());
        auto outcome = importers::analyzeBundle(tests::samplePath("nvlink-xid149"), tests::sourceCatalog());
        QVERIFY(outcome.result);
        m_replay = std::make_shared<const engine::TraceReplay>(engine::AnalysisSnapshot(outcome.result));
    }

    void dotLayoutThroughLibgvc()
    {
        const auto layout = layoutDot("digraph g { rankdir=LR; node [shape=box, fixedsize=true, width=1, height=0.5];"
                                      " a -> b [id=\"e0\"]; b -> c [id=\"e1\"]; }");
        QVERIFY2(layout.ok, layout.error.c_str());
        QVERIFY(layout.node("a")->x < layout.node("b")->x);
        QVERIFY(layout.node("b")->x < layout.node("c")->x);
        QCOMPARE(layout.node("a")->width, 72.0);
        QCOMPARE(layout.edges.size(), std::size_t(2));
        QVERIFY(layout.edges[0].points.size() >= 4);
        QVERIFY(layout.edges[0].hasArrow);
        QVERIFY(!layoutDot("this is not dot").ok);
    }

    void sampleLaidOutLeftToRightInTime()
    {
        SymptomGraphView view;
        view.resize(1200, 600);
        view.setResult(m_replay->snapshot());
        QVERIFY2(view.scene()->layoutError().isEmpty(), qPrintable(view.scene()->layoutError()));
        QCOMPARE(view.scene()->graph().nodes.size(), m_replay->result().symptoms.size());
        QVERIFY(x(view, "nccl_ib_completion_error@node-03/gpu1") < x(view, "nvlink_signal_integrity@node-02/gpu3"));
        QVERIFY(x(view, "nvlink_signal_integrity@node-02/gpu3") < x(view, "collective_timeout@node-01"));
        const auto* root = view.scene()->nodeItem(QStringLiteral("nvlink_signal_integrity@node-02/gpu3"));
        QVERIFY(root->node().rootCause);
        QCOMPARE(view.scene()->nodeItem(QStringLiteral("nccl_remote_error@node-03"))->status(),
                 engine::SymptomStatus::Demoted);
        QVERIFY(view.scene()->stateText().contains(
            QStringLiteral("edge caused-by nvlink_signal_integrity@node-02/gpu3 -> nccl_remote_error@node-03")));
    }

    void showsTheStateAsOfAStep()
    {
        SymptomGraphView view;
        view.setResult(m_replay->snapshot());
        const int demoted = static_cast<int>(*m_replay->statusStep("nccl_remote_error@node-03"));
        view.showStep(m_replay, demoted - 1);
        QString text = view.scene()->stateText();
        QVERIFY(text.contains(QStringLiteral("nccl_remote_error@node-03 active")));
        QVERIFY(!text.contains(
            QStringLiteral("edge caused-by nvlink_signal_integrity@node-02/gpu3 -> nccl_remote_error@node-03")));
        view.showStep(m_replay, demoted);
        text = view.scene()->stateText();
        QVERIFY(text.contains(QStringLiteral("nccl_remote_error@node-03 demoted changed")));
        QVERIFY(text.contains(
            QStringLiteral("edge caused-by nvlink_signal_integrity@node-02/gpu3 -> nccl_remote_error@node-03")));
        QVERIFY(!text.contains(QStringLiteral("root")));  // not before the outcome
        view.showStep(m_replay, static_cast<int>(*m_replay->firstStepOfPhase(engine::TracePhase::Symptoms)));
        QCOMPARE(view.scene()->stateText().count(QLatin1Char('\n')), 0);  // one symptom raised, no edge yet
        view.showFinal();
        QVERIFY(view.scene()->nodeItem(QStringLiteral("collective_timeout@node-01"))->isVisible());
    }

    void selectionInAndOut()
    {
        SymptomGraphView view;
        view.setResult(m_replay->snapshot());
        QSignalSpy selected(&view, &SymptomGraphView::symptomSelected);
        view.selectSymptom(QStringLiteral("nccl_remote_error@node-03"));
        QCOMPARE(view.selectedSymptom(), QStringLiteral("nccl_remote_error@node-03"));
        QCOMPARE(selected.count(), 0);
        view.scene()->clearSelection();
        view.scene()->nodeItem(QStringLiteral("collective_timeout@node-03"))->setSelected(true);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.front().front().toString(), QStringLiteral("collective_timeout@node-03"));
    }

    void hiddenViewLaysOutWhenShown()
    {
        SymptomGraphView view;  // hidden, as in the workbench until the panel is opened
        view.resize(900, 500);
        view.setResult(m_replay->snapshot());
        QVERIFY(view.layoutPending());  // no Graphviz layout for a panel nobody sees
        const int demoted = static_cast<int>(*m_replay->statusStep("nccl_remote_error@node-03"));
        view.showStates(m_replay, demoted, m_replay->stateAt(static_cast<std::size_t>(demoted)));
        view.selectSymptom(QStringLiteral("collective_timeout@node-03"));
        QVERIFY(view.layoutPending());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.layoutPending());  // laid out on show, with the step and selection asked for meanwhile
        QCOMPARE(view.scene()->graph().nodes.size(), m_replay->result().symptoms.size());
        QVERIFY(view.scene()->stateText().contains(QStringLiteral("nccl_remote_error@node-03 demoted changed")));
        QCOMPARE(view.selectedSymptom(), QStringLiteral("collective_timeout@node-03"));
        view.setResult(m_replay->snapshot());  // shown: laid out at once
        QVERIFY(!view.layoutPending());
    }

    void zoomAndExport()
    {
        SymptomGraphView view;
        view.resize(900, 500);
        view.setResult(m_replay->snapshot());
        view.view()->setTransform(QTransform());
        view.zoomBy(2.0);
        QCOMPARE(view.zoom(), 2.0);
        view.fitToWindow();
        QVERIFY(view.zoom() <= 1.6);
        QTemporaryDir tmp;
        const QString svg = tmp.filePath(QStringLiteral("g.svg"));
        const QString png = tmp.filePath(QStringLiteral("g.png"));
        QVERIFY(view.exportImage(svg));
        QVERIFY(view.exportImage(png));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("nvlink_signal_integrity"));
        const QImage image(png);
        QVERIFY(image.width() > 400 && image.height() > 200);
    }
};

QTEST_MAIN(TestSymptomGraphView)
#include "tst_symptom_graph_view.moc"
