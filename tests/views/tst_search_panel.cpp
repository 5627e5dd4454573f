// SPDX-License-Identifier: GPL-3.0-or-later
// The search panel: the index is built in the background (progress, cancel), results are grouped by node and
// file, Enter / F3 / Shift+F3 step through the hits and each step asks for the evidence view at that line.
#include "../store/search_fixtures.h"

#include "engine/store/bundle_lines.h"
#include "views/store/search_panel.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestSearchPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    store::testing::GeneratedBundle m_bundle;

    /// Builds (first time) or reuses the bundle's index in `panel` and waits until it is ready.
    bool indexed(SearchPanel& panel)
    {
        QSignalSpy ready(&panel, &SearchPanel::indexReady);
        panel.startIndex(m_dir.path().toStdString() + "/s/a.fts.sqlite", "h1",
                         store::bundleLineSource(m_bundle.result));
        return ready.wait(60000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_bundle = store::testing::generateBundle(std::filesystem::path(m_dir.path().toStdString()) / "b", 4, 20'000);
    }

    void buildsInTheBackgroundAndGroupsHits()
    {
        SearchPanel panel;
        panel.resize(1000, 700);
        QSignalSpy ready(&panel, &SearchPanel::indexReady);
        panel.startIndex(m_dir.path().toStdString() + "/s/a.fts.sqlite", "h1",
                         store::bundleLineSource(m_bundle.result));
        QVERIFY(!panel.searchBox()->isEnabled());
        QVERIFY(ready.wait(60000));
        QVERIFY(panel.searchBox()->isEnabled());
        QCOMPARE(panel.search(QStringLiteral("needle-7f3a")), 1);
        const int hits = panel.search(QStringLiteral("INFO Channel 9/32"));
        QVERIFY(hits > 4);
        QCOMPARE(panel.results()->topLevelItemCount(), 4);  // one group per node
        QTreeWidgetItem* node = panel.results()->topLevelItem(0);
        QCOMPARE(node->text(0), QStringLiteral("node-00"));
        QCOMPARE(node->childCount(), 1);  // one file
        QCOMPARE(node->child(0)->text(0), QStringLiteral("logs/node-00.log"));
        QSignalSpy activated(&panel, &SearchPanel::hitActivated);
        panel.searchBox()->setFocus();
        QTest::keyClick(panel.searchBox(), Qt::Key_F3);
        QTest::keyClick(panel.searchBox(), Qt::Key_F3);
        QTest::keyClick(panel.searchBox(), Qt::Key_F3, Qt::ShiftModifier);
        QCOMPARE(activated.size(), 3);
        QCOMPARE(activated[0], activated[2]);
        QVERIFY(activated[1][1].toULongLong() > activated[0][1].toULongLong());
        QCOMPARE(panel.search(QStringLiteral("ab")), 0);
        QVERIFY(panel.status()->text().contains(QStringLiteral("3 characters")));
        if (const QByteArray dir = qgetenv("ATTRIB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            // docs/images/search-result.png: a regex over every line, hits grouped by node and file.
            QSignalSpy finished(&panel, &SearchPanel::searchFinished);
            panel.regexToggle()->click();
            const QString pattern = QStringLiteral(R"(train step=\d+0000 loss)");
            panel.searchBox()->setText(pattern);
            panel.search(pattern);
            QVERIFY(finished.wait(60000));
            panel.results()->scrollToTop();
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            panel.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/search-result.png"));
        }
    }

    void regexModeScansInTheBackground()
    {
        SearchPanel panel;
        QVERIFY(indexed(panel));
        QSignalSpy finished(&panel, &SearchPanel::searchFinished);
        QVERIFY(!panel.caseToggle()->isEnabled());
        panel.regexToggle()->click();
        QVERIFY(panel.regexMode());
        QVERIFY(panel.caseToggle()->isEnabled());
        QCOMPARE(panel.search(QStringLiteral(R"(pid=\d+, name=\w+, needle-[0-9a-f]{4})")), -1);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.last().at(0).toInt(), 1);
        QCOMPARE(panel.results()->topLevelItemCount(), 1);
        QVERIFY(panel.status()->text().contains(QStringLiteral("1 hits for /")));
        QSignalSpy activated(&panel, &SearchPanel::hitActivated);
        panel.nextHit();
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated[0][1].toULongLong(), qulonglong(m_bundle.needleLine));
        // A pattern RE2 refuses: the status says why, nothing is shown.
        panel.search(QStringLiteral("needle(["));
        QVERIFY(finished.wait(60000));
        QCOMPARE(panel.results()->topLevelItemCount(), 0);
        QVERIFY2(panel.status()->text().startsWith(QStringLiteral("regular expression")),
                 qPrintable(panel.status()->text()));
        // Cancel ends the scan with what it found so far; the panel stays usable.
        panel.search(QStringLiteral("no such line anywhere \\d{9}"));
        panel.cancelSearch();
        QVERIFY(finished.size() == 3 || finished.wait(60000));
        QVERIFY(!panel.searching());
        panel.setRegexMode(false);
        QCOMPARE(panel.search(QStringLiteral("needle-7f3a")), 1);
    }

    void reopenReusesAndCancelLeavesNothing()
    {
        SearchPanel panel;
        QVERIFY(indexed(panel));
        QVERIFY(panel.status()->text().contains(QStringLiteral("reused")));
        const std::string other = m_dir.path().toStdString() + "/s/b.fts.sqlite";
        panel.startIndex(other, "h2", store::bundleLineSource(m_bundle.result));
        panel.cancelIndex();
        QTRY_VERIFY_WITH_TIMEOUT(panel.status()->text().contains(QStringLiteral("cancelled")), 60000);
        QVERIFY(!std::filesystem::exists(other));
        QVERIFY(!std::filesystem::exists(other + ".partial"));
    }
};

QTEST_MAIN(TestSearchPanel)
#include "tst_search_panel.moc"
