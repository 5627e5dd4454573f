// SPDX-License-Identifier: GPL-3.0-or-later
// Guided tours: the tour files' vocabulary is checked (errors name file:line), the built-in tours load, and
// each tour is walked to the end by keyboard, every step highlighting an existing, visible widget inside the
// window; Back returns a step and Esc ends the tour.
#include "app/gui/bundle_controller.h"
#include "app/gui/learn_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "app/gui/tour_controller.h"
#include "views/tour/tour.h"
#include "views/tour/tour_overlay.h"

#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestTour : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;

    /// Presses `key` on the bubble and waits for the step it leads to.
    static void press(TourController* tours, Qt::Key key)
    {
        QSignalSpy shown(tours, &TourController::stepShown);
        QTest::keyClick(tours->overlay()->nextButton(), key);
        if (tours->running())
            QVERIFY(shown.wait(5000));
    }

    void checkStep(TourController* tours, int step)
    {
        const views::TourStep& s = tours->currentTour()->steps[step];
        const QString where = tours->currentTour()->id + QStringLiteral(" step %1 (%2)").arg(step + 1).arg(s.target);
        QCOMPARE(tours->currentStep(), step);
        views::TourOverlay* overlay = tours->overlay();
        QVERIFY2(overlay->target(), qPrintable(where));
        QCOMPARE(overlay->target()->objectName(), s.target);
        QVERIFY2(overlay->target()->isVisible(), qPrintable(where));
        const QRect hole = overlay->highlightRect();
        QVERIFY2(hole.width() >= 40 && hole.height() >= 10,
                 qPrintable(where + QStringLiteral(": %1x%2").arg(hole.width()).arg(hole.height())));
        QVERIFY2(m_window->rect().contains(hole), qPrintable(where));
        QVERIFY(overlay->bubble()->isVisible());
        QVERIFY(m_window->rect().contains(overlay->bubble()->geometry()));
        QCOMPARE(overlay->titleLabel()->text(), s.title);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
        m_window = std::make_unique<MainWindow>(m_settings.get(), QStringLiteral(ATTRIB_SOURCE_RULES_DIR), false);
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void badToursAreNamedByFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("syntax") << QByteArray("{\n  \"title\": \"t\",\n  \"steps\": [,]\n}")
                                << QStringLiteral("t.json:3:");
        QTest::newRow("no steps") << QByteArray("{\"title\": \"t\", \"steps\": []}")
                                  << QStringLiteral("t.json:1: a tour needs a non-empty \"steps\" array");
        QTest::newRow("unknown action")
            << QByteArray("{\"title\": \"t\", \"steps\": [\n {\"target\": \"a\", \"title\": \"b\", \"text\": \"c\"},\n"
                          " {\"target\": \"a\", \"title\": \"b\", \"text\": \"c\", \"do\": \"explode\"}\n]}")
            << QStringLiteral("t.json:3: step 2: unknown \"do\": \"explode\"");
        QTest::newRow("missing argument")
            << QByteArray("{\"title\": \"t\", \"steps\": [\n {\"target\": \"a\", \"title\": \"b\", \"text\": \"c\", "
                          "\"do\": \"select_symptom\"}]}")
            << QStringLiteral("t.json:2: step 1: \"do\": \"select_symptom\" needs an \"argument\"");
        QTest::newRow("missing text") << QByteArray(
                                             "{\"title\": \"t\", \"steps\": [{\"target\": \"a\", \"title\": \"b\"}]}")
                                      << QStringLiteral("t.json:1: step 1: a step needs");
    }

    void badToursAreNamedByFileAndLine()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const views::TourParse parsed = views::parseTour(json, QStringLiteral("t.json"));
        QVERIFY(!parsed.tour);
        QVERIFY2(parsed.error.startsWith(error), qPrintable(parsed.error));
    }

    void builtInToursLoad()
    {
        QStringList problems;
        const QList<views::Tour> tours = views::loadTours({QStringLiteral(":/tours")}, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QStringList ids;
        for (const views::Tour& t : tours)
            ids << t.id;
        QVERIFY2(ids.contains(QStringLiteral("nvlink-xid149")) && ids.contains(QStringLiteral("rule-debugger")),
                 qPrintable(ids.join(QLatin1Char(' '))));
        QCOMPARE(m_window->learnController()->tours()->tours().size(), tours.size());
    }

    void walkEveryTourByKeyboard()
    {
        TourController* tours = m_window->learnController()->tours();
        for (const views::Tour& tour : tours->tours()) {
            QSignalSpy shown(tours, &TourController::stepShown);
            QSignalSpy problems(tours, &TourController::problem);
            QSignalSpy finished(tours, &TourController::finished);
            QVERIFY(tours->start(tour.id));
            QVERIFY2(shown.wait(60000), qPrintable(tour.id));
            for (int step = 0; step < tour.steps.size(); ++step) {
                checkStep(tours, step);
                if (step == 1) {  // Back and forth once
                    press(tours, Qt::Key_Left);
                    checkStep(tours, 0);
                    press(tours, Qt::Key_Right);
                    checkStep(tours, 1);
                }
                press(tours, Qt::Key_Right);
            }
            QVERIFY2(problems.isEmpty(),
                     qPrintable(problems.isEmpty() ? QString() : problems.front().front().toString()));
            QCOMPARE(finished.size(), 1);
            QVERIFY(!tours->running());
            QVERIFY(!tours->overlay()->isVisible());
        }
    }

    void escEndsTheTourAndNothingElse()
    {
        TourController* tours = m_window->learnController()->tours();
        QSignalSpy shown(tours, &TourController::stepShown);
        QVERIFY(tours->start(QStringLiteral("nvlink-xid149")));  // the sample is open: no new analysis
        QVERIFY(shown.wait(5000));
        QCOMPARE(tours->currentStep(), 0);
        press(tours, Qt::Key_Right);
        QCOMPARE(tours->currentStep(), 1);
        QSignalSpy finished(tours, &TourController::finished);
        QTest::keyClick(tours->overlay()->nextButton(), Qt::Key_Escape);
        QCOMPARE(finished.size(), 1);
        QVERIFY(!tours->running());
        QVERIFY(!m_window->bundleController()->currentBundle().isEmpty());  // Esc did not cancel or close anything
        QVERIFY(m_window->bundleController()->analysis());
    }
};

QTEST_MAIN(TestTour)
#include "tst_tour.moc"
