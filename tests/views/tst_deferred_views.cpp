// SPDX-License-Identifier: GPL-3.0-or-later
// Views that are not on screen rebuild when they come on screen, not when an analysis arrives (opening a large
// bundle spends the GUI thread only on what is seen): the coverage view as a background dock tab, as in the
// workbench, and on its own.
#include "result_fixture.h"

#include "views/coverage/coverage_view.h"
#include "views/deferred_refresh.h"
#include "views/models/coverage_model.h"
#include "views/selection_model.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QTreeView>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestDeferredViews : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void backgroundTabRebuildsWhenRaised()
    {
        SelectionModel selection;
        QMainWindow window;
        auto* front = new QDockWidget(QStringLiteral("Evidence"), &window);
        front->setWidget(new QLabel(QStringLiteral("evidence")));
        auto* back = new QDockWidget(QStringLiteral("Coverage"), &window);
        auto* coverage = new CoverageView(&selection);
        back->setWidget(coverage);
        window.setCentralWidget(new QLabel(QStringLiteral("timeline")));
        window.addDockWidget(Qt::BottomDockWidgetArea, front);
        window.addDockWidget(Qt::BottomDockWidgetArea, back);
        window.tabifyDockWidget(front, back);
        front->raise();
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);  // the dock layout settles

        QVERIFY(!DeferredRefresh::onScreen(coverage));
        selection.setAnalysis(AnalysisData::build(tests::nvlinkFixture()));
        QTest::qWait(50);
        QVERIFY(coverage->isOutOfDate());  // a background tab: not rebuilt for an analysis nobody sees
        QCOMPARE(coverage->treeView()->model()->rowCount(), 0);

        back->raise();
        QTRY_VERIFY(!coverage->isOutOfDate());  // its tab raised: rebuilt
        QVERIFY(DeferredRefresh::onScreen(coverage));
        QVERIFY(coverage->treeView()->model()->rowCount() > 0);

        selection.setAnalysis(nullptr);  // on screen: rebuilt at once
        QVERIFY(!coverage->isOutOfDate());
        QCOMPARE(coverage->treeView()->model()->rowCount(), 0);
    }

    void hiddenViewAnswersAccessorsWithCurrentData()
    {
        SelectionModel selection;
        CoverageView coverage(&selection);  // never shown
        selection.setAnalysis(AnalysisData::build(tests::nvlinkFixture()));
        QVERIFY(coverage.isOutOfDate());
        QVERIFY(coverage.model()->rowCount() > 0);  // the accessor brings it up to date
        QVERIFY(!coverage.isOutOfDate());
        selection.setAnalysis(nullptr);
        QVERIFY(coverage.isOutOfDate());
        coverage.show();
        QVERIFY(QTest::qWaitForWindowExposed(&coverage));
        QTRY_VERIFY(!coverage.isOutOfDate());  // shown: rebuilt
        QCOMPARE(coverage.treeView()->model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestDeferredViews)
#include "tst_deferred_views.moc"
