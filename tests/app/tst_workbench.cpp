// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench end to end on the NVLink sample: open it, see the verdict (node-02, nvlink), follow the
// root cause to the timeline and its evidence line, pick a demoted NCCL symptom and see why it was demoted,
// copy the verdict as Markdown, export the timeline, and the recent list.
#include "../common/test_catalog.h"
#include "../common/workbench_window.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/job_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/recent_bundles.h"
#include "app/gui/report_actions.h"
#include "app/gui/settings.h"
#include "views/demotion/demotion_view.h"
#include "views/evidence/evidence_panel.h"
#include "views/models/symptom_tree_model.h"
#include "views/timeline/timeline_plot.h"
#include "views/timeline/timeline_view.h"
#include "views/verdict/verdict_panel.h"

#include <QClipboard>
#include <QMimeData>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestWorkbench : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    QModelIndex findSymptom(const QString& id) const
    {
        const QAbstractItemModel* model = m_window->demotionView()->treeView()->model();
        for (int g = 0; g < model->rowCount(); ++g) {
            const QModelIndex group = model->index(g, 0);
            for (int r = 0; r < model->rowCount(group); ++r) {
                const QModelIndex i = model->index(r, 0, group);
                const int s = i.data(views::SymptomTreeModel::SymptomIndexRole).toInt();
                if (QString::fromStdString(m_window->selectionModel()->analysis()->r().symptoms[s].id) == id)
                    return i;
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_window = tests::showWorkbench(m_settings, m_dir);
        QVERIFY(m_window);
        QSignalSpy verdict(m_window->bundleController(), &BundleController::verdictShown);
        QVERIFY(tests::openSampleAndWait(*m_window, "nvlink-xid149", true));
        QCOMPARE(verdict.size(), 1);
    }

    void verdictNamesNodeAndSubDomain()
    {
        const QString text = m_window->verdictPanel()->contentText();
        QVERIFY2(text.contains(QStringLiteral("node-02")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("NVLINK")));
        QVERIFY(text.contains(QStringLiteral("HARDWARE FAILURE")));
        QVERIFY(text.contains(QStringLiteral("nvlink_signal_integrity")));
        QVERIFY(text.contains(QStringLiteral("nodes/node-02/dmesg.txt:99")));
        QVERIFY(text.contains(QStringLiteral("drain node-02")));
        QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("nvlink-xid149")));
    }

    void rootCauseOpensTimelineAndEvidence()
    {
        QPushButton* root = m_window->verdictPanel()->rootCauseButton();
        QVERIFY(root);
        QTest::mouseClick(root, Qt::LeftButton);
        const auto& analysis = m_window->selectionModel()->analysis();
        const views::Selection& sel = m_window->selectionModel()->current();
        QCOMPARE(sel.symptom, analysis->rootCauseSymptom);
        views::TimelinePlot* plot = m_window->timelineView()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot->eventPosition(sel.event).x() >= 0);  // the timeline shows the selected event
        QVERIFY(
            m_window->evidencePanel()->titleText().startsWith(QStringLiteral("nvlink_signal_integrity@node-02/gpu3")));

        QTest::mouseClick(m_window->verdictPanel()->evidenceButton(), Qt::LeftButton);
        views::EvidenceTextView* view = m_window->evidencePanel()->textView();
        QVERIFY(view->isFileMode());
        QTRY_COMPARE(view->rowLine(view->currentRow()), qint64(98));  // line 99, once the file is indexed
        QVERIFY(view->rowText(view->currentRow()).contains(QStringLiteral("NVRM: Xid (PCI:0000:61:00): 149")));
        QVERIFY(!view->rowSpans(view->currentRow()).isEmpty());  // the Xid rule's match is highlighted
        QCOMPARE(view->rowRole(view->currentRow()), int(views::EvidenceRole::RootCause));
        // The demotion tree follows the selection too.
        const QModelIndex current = m_window->demotionView()->treeView()->currentIndex();
        QCOMPARE(current.data().toString(), QStringLiteral("nvlink_signal_integrity"));
    }

    void demotedNcclSymptomShowsWhy()
    {
        const QModelIndex row = findSymptom(QStringLiteral("nccl_ib_completion_error@node-01/gpu3"));
        QVERIFY(row.isValid());
        QTreeView* tree = m_window->demotionView()->treeView();
        tree->scrollTo(row);
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::NoModifier, tree->visualRect(row).center());
        const auto& analysis = m_window->selectionModel()->analysis();
        const views::Selection& sel = m_window->selectionModel()->current();
        QCOMPARE(QString::fromStdString(analysis->r().symptoms[sel.symptom].id),
                 QStringLiteral("nccl_ib_completion_error@node-01/gpu3"));
        QCOMPARE(row.siblingAtColumn(views::SymptomTreeModel::RuleColumn).data().toString(),
                 QStringLiteral("Xid149AndNvlinkFiltering"));
        views::EvidencePanel* evidence = m_window->evidencePanel();
        QVERIFY(evidence->detailText().contains(QStringLiteral("demoted by Xid149AndNvlinkFiltering")));
        views::EvidenceTextView* view = evidence->textView();
        QVERIFY(view->rowCount() >= 1);
        QVERIFY2(view->rowText(0).contains(QStringLiteral("Got completion from peer")), qPrintable(view->rowText(0)));
        QCOMPARE(view->rowRole(0), int(views::EvidenceRole::Interesting));
        views::TimelinePlot* plot = m_window->timelineView()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot->eventPosition(sel.event).x() >= 0);
    }

    void hidingDemotedKeepsTheRest()
    {
        m_window->demotionView()->showDemotedBox()->setChecked(false);
        QVERIFY(!findSymptom(QStringLiteral("nccl_ib_completion_error@node-01/gpu3")).isValid());
        QVERIFY(findSymptom(QStringLiteral("nvlink_signal_integrity@node-02/gpu3")).isValid());
        QCOMPARE(m_settings->showDemoted(), false);
        m_window->demotionView()->showDemotedBox()->setChecked(true);
    }

    void copyMarkdownAndExport()
    {
        QVERIFY(m_window->reportActions()->copyVerdictMarkdown());
        const QString markdown = QGuiApplication::clipboard()->text();
        QVERIFY2(markdown.contains(QStringLiteral("hardware\\_failure")), qPrintable(markdown.left(400)));  // escaped
        QVERIFY(markdown.contains(QStringLiteral("node-02")));
        const QString png = m_dir.filePath(QStringLiteral("t.png"));
        const QString svg = m_dir.filePath(QStringLiteral("t.svg"));
        QVERIFY(m_window->reportActions()->exportTimeline(png));
        QVERIFY(m_window->reportActions()->exportTimeline(svg));
        QVERIFY(!QImage(png).isNull());
        QVERIFY(QFileInfo(svg).size() > 1000);
    }

    void recentListRemembersTheSample()
    {
        const QStringList recent = m_window->recentBundles()->paths();
        QCOMPARE(recent.size(), 1);
        QVERIFY(recent.front().endsWith(QStringLiteral("samples/nvlink-xid149")));
        QCOMPARE(m_settings->recentBundles(), recent);
    }

    void notABundleIsReported()
    {
        QVERIFY(!m_window->bundleController()->open(m_dir.filePath(QStringLiteral("no-such-bundle"))));
        QVERIFY(m_window->verdictPanel()->contentText().contains(QStringLiteral("no such file or folder")));
        QCOMPARE(m_window->recentBundles()->paths().size(), 1);
    }

    void dropOpensABundle()
    {
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(QString::fromStdString(tests::samplePath("nvlink-xid149")))});
        const QPoint at = m_window->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy timeline(m_window->bundleController(), &BundleController::timelineShown);
        QDropEvent drop(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window.get(), &drop);
        QVERIFY(timeline.wait(60000));
        QVERIFY(m_window->verdictPanel()->contentText().contains(QStringLiteral("node-02")));
        QCOMPARE(m_window->recentBundles()->paths().size(), 1);  // the same bundle again: still one entry
        auto* text = new QMimeData;
        text->setUrls({QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("settings.ini")))});
        QDragEnterEvent refused(at, Qt::CopyAction, text, Qt::LeftButton, Qt::NoModifier);
        refused.setAccepted(false);
        QApplication::sendEvent(m_window.get(), &refused);
        QVERIFY(!refused.isAccepted());  // not a folder or an archive
        delete mime;
        delete text;
    }

    void cleanupTestCase()
    {
        m_window->close();
        m_window.reset();
    }
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
