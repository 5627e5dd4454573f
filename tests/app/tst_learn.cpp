// SPDX-License-Identifier: GPL-3.0-or-later
// Teaching in the workbench: the welcome page (first thing shown, recent bundles with the verdict they got, back
// from Help), the sample library (every sample read, grouped by failure domain, bad files named by file:line),
// lessons rendered with log text literal, and every sample opened from the Learn panel with the engine agreeing
// with its lesson (expected == actual).
#include "../common/test_catalog.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/learn_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "views/learn/learn_panel.h"
#include "views/learn/welcome_page.h"

#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

namespace {

QString samplesDir()
{
    return QString::fromStdString(tests::samplePath(""));
}

int samplesWithExpectation()
{
    const QDir dir(samplesDir());
    int n = 0;
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        n += QFileInfo::exists(dir.filePath(name + QStringLiteral("/expected.json"))) ? 1 : 0;
    return n;
}

QAction* helpAction(MainWindow* window, const QString& text)
{
    for (QMenu* menu : window->menuBar()->findChildren<QMenu*>()) {
        for (QAction* a : menu->actions()) {
            if (a->text() == text)
                return a;
        }
    }
    return nullptr;
}

}  // namespace

class TestLearn : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
        m_window = std::make_unique<MainWindow>(m_settings.get(), QStringLiteral(ATTRIB_SOURCE_RULES_DIR), false);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void libraryReadsEverySample()
    {
        const views::SampleLibrary library = views::loadSampleLibrary(samplesDir());
        QVERIFY2(library.problems.isEmpty(), qPrintable(library.problems.join(QLatin1Char('\n'))));
        QCOMPARE(library.samples.size(), samplesWithExpectation());
        QVERIFY(library.samples.size() >= 10);
        const QStringList groups = views::sampleGroups();
        for (const views::SampleInfo& s : library.samples) {
            QVERIFY2(groups.indexOf(s.group) < groups.size() - 1, qPrintable(s.name + QStringLiteral(": ") + s.group));
            QVERIFY2(!s.lesson.isEmpty(), qPrintable(s.name));
        }
        QCOMPARE(views::sampleGroup(QStringLiteral("hardware_failure"), QStringLiteral("nvlink")),
                 QStringLiteral("GPU and NVLink hardware"));
        QCOMPARE(views::sampleGroup(QStringLiteral("ambiguous"), QStringLiteral("nvlink")),
                 QStringLiteral("When the evidence cannot decide"));
    }

    void badSampleIsNamedByFileAndLine()
    {
        QTemporaryDir dir;
        tests::writeFile(dir.filePath(QStringLiteral("broken/expected.json")).toStdString(),
                         "{\n  \"terminal_state\": \"user_error\",\n  \"sub_domain\" \"container\"\n}\n");
        tests::writeFile(dir.filePath(QStringLiteral("gen/README.md")).toStdString(), "not a sample\n");
        const views::SampleLibrary library = views::loadSampleLibrary(dir.path());
        QCOMPARE(library.samples.size(), 0);
        QCOMPARE(library.problems.size(), 1);
        QVERIFY2(library.problems.front().contains(QStringLiteral("broken/expected.json:3:")),
                 qPrintable(library.problems.front()));
    }

    void lessonKeepsLogTextLiteral()
    {
        QTemporaryDir dir;
        tests::writeFile(dir.filePath(QStringLiteral("s/expected.json")).toStdString(),
                         "{\"terminal_state\": \"user_error\", \"sub_domain\": \"container\"}");
        tests::writeFile(dir.filePath(QStringLiteral("s/LESSON.md")).toStdString(),
                         "# Lesson: a <b>tagged</b> title\n\nThe log said <b>boom</b> and "
                         "<img src=x onerror=alert(1)>; the line `<script>x</script>` too.\n");
        views::LearnPanel panel;
        panel.setLibrary(views::loadSampleLibrary(dir.path()));
        QVERIFY(panel.currentSample());
        const QString text = panel.lessonView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("said <b>boom</b> and <img src=x onerror=alert(1)>")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("<script>x</script>")));
        QCOMPARE(panel.currentSample()->title, QStringLiteral("A <b>tagged</b> title"));
    }

    void welcomePageComesFirst()
    {
        LearnController* learn = m_window->learnController();
        QVERIFY(learn->welcomeShown());
        views::WelcomePage* page = learn->welcomePage();
        QVERIFY(page->isVisible());
        QVERIFY(page->openBundleButton()->isVisible());
        QVERIFY(page->openSampleButton()->isVisible());
        QVERIFY(page->tourButton()->isVisible());
        QVERIFY(!page->recentList()->isVisible());  // nothing opened yet
        QTest::mouseClick(page->openSampleButton(), Qt::LeftButton);
        QVERIFY(learn->learnDock()->isVisible());
        QCOMPARE(QApplication::focusWidget(), learn->learnPanel()->sampleTree());
    }

    void welcomeTextNeverOverlaps()
    {
        // The welcome page in the central area of a 1024x700 window is about 650x300: the wrapped bundle note must
        // get the lines it needs, never run under the heading that follows it.
        views::WelcomePage page;
        const auto* note = page.findChild<QLabel*>(QStringLiteral("welcomeBundleNote"));
        QLabel* heading = nullptr;
        for (QLabel* l : page.findChildren<QLabel*>())
            heading = l->text() == QStringLiteral("Recent bundles") ? l : heading;
        QVERIFY(note && heading);
        for (const QSize size : {QSize(650, 300), QSize(520, 420), QSize(900, 300), QSize(1500, 900)}) {
            page.resize(size);
            page.show();
            QVERIFY(QTest::qWaitForWindowExposed(&page));
            QCoreApplication::processEvents();
            const QRect noteRect(note->mapTo(&page, QPoint(0, 0)), note->size());
            const QRect headingRect(heading->mapTo(&page, QPoint(0, 0)), heading->size());
            QVERIFY2(note->height() >= note->heightForWidth(note->width()),
                     qPrintable(QStringLiteral("%1x%2: note %3 px high, needs %4")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(note->height())
                                    .arg(note->heightForWidth(note->width()))));
            QVERIFY2(noteRect.bottom() < headingRect.top(), qPrintable(QStringLiteral("%1x%2").arg(size.width())));
        }
    }

    void everySampleAgreesWithItsLesson()
    {
        views::LearnPanel* panel = m_window->learnController()->learnPanel();
        QCOMPARE(panel->library().samples.size(), samplesWithExpectation());
        for (const views::SampleInfo& sample : panel->library().samples) {
            QVERIFY(panel->selectSample(sample.name));
            QVERIFY(!panel->comparisonLabel()->isVisible());
            QSignalSpy verdict(m_window->bundleController(), &BundleController::verdictShown);
            QTest::mouseClick(panel->openButton(), Qt::LeftButton);
            QVERIFY2(verdict.wait(60000), qPrintable(sample.name));
            QVERIFY2(panel->comparisonLabel()->isVisible(), qPrintable(sample.name));
            QVERIFY2(panel->agrees(),
                     qPrintable(sample.name + QStringLiteral(": ") + panel->comparisonLabel()->text()));
            QCOMPARE(panel->currentSample()->name, sample.name);
        }
        QVERIFY(!m_window->learnController()->welcomeShown());
    }

    void recentBundlesShowTheirVerdict()
    {
        const QList<views::RecentEntry> entries = m_window->learnController()->recentEntries();
        QVERIFY(!entries.isEmpty());
        for (const views::RecentEntry& e : entries)
            QVERIFY2(!e.terminalState.isEmpty(), qPrintable(e.path));
        QAction* welcome = helpAction(m_window.get(), QStringLiteral("&Welcome page"));
        QVERIFY(welcome);
        welcome->trigger();
        LearnController* learn = m_window->learnController();
        QVERIFY(learn->welcomeShown());
        QTreeWidget* recent = learn->welcomePage()->recentList();
        QVERIFY(recent->isVisible());
        QCOMPARE(recent->topLevelItemCount(), static_cast<int>(entries.size()));
        QVERIFY2(recent->topLevelItem(0)->text(0).contains(QLatin1Char('/')),
                 qPrintable(recent->topLevelItem(0)->text(0)));
        // Enter on the first recent bundle opens it again.
        QSignalSpy changed(m_window->bundleController(), &BundleController::bundleChanged);
        recent->setFocus();
        QTest::keyClick(recent, Qt::Key_Return);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.front().front().toString(), entries.front().path);
        QVERIFY(!learn->welcomeShown());
    }
};

QTEST_MAIN(TestLearn)
#include "tst_learn.moc"
