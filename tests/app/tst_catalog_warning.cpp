// SPDX-License-Identifier: GPL-3.0-or-later
// A rule file that fails to load leaves its rules out of the analysis (issue 11): the verdict pane says so in red,
// names the file and line, and opens the Rule problems panel; the shipped catalog shows no such box.
#include "../common/guide_blocks.h"
#include "../common/test_catalog.h"
#include "../common/workbench_window.h"

#include "app/bench/rule_bench.h"
#include "app/gui/bundle_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "views/verdict/verdict_panel.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
using namespace attrib::app;

class TestCatalogWarning : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<Settings> m_settings;

    std::unique_ptr<MainWindow> analyse(const QString& rules)
    {
        auto window = tests::showWorkbench(m_settings, m_dir, rules);
        if (!window || !tests::openSampleAndWait(*window, "nvlink-xid149"))
            return nullptr;
        return window;
    }

private Q_SLOTS:
    void aBrokenRuleFileIsShownInRed()
    {
        const auto rules = std::filesystem::path(m_dir.path().toStdString()) / "rules";
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, rules);
        QFile gpu(QString::fromStdString((rules / "extractors" / "gpu.json").string()));
        QVERIFY(gpu.open(QIODevice::ReadWrite));
        QByteArray text = gpu.readAll();
        text.replace(text.indexOf("\"event\""), 7, "\"event\" 12");
        QVERIFY(gpu.resize(0) && gpu.seek(0) && gpu.write(text) == text.size());
        gpu.close();
        auto window = analyse(QString::fromStdString(rules.string()));
        QVERIFY(window);
        auto* box = window->verdictPanel()->findChild<QLabel*>(QStringLiteral("catalogWarning"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QStringLiteral("extractors/gpu.json:")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("may be wrong")));
        QDockWidget* problems = window->ruleBench()->dock(QStringLiteral("ruleProblemsDock"));
        QVERIFY(!problems->isVisible());
        window->verdictPanel()->findChild<QPushButton*>(QStringLiteral("showCatalogProblems"))->click();
        QVERIFY(problems->isVisible());
    }

    void theShippedCatalogShowsNoWarning()
    {
        auto window = analyse(QStringLiteral(ATTRIB_SOURCE_RULES_DIR));
        QVERIFY(window);
        QVERIFY(!window->verdictPanel()->findChild<QLabel*>(QStringLiteral("catalogWarning")));
    }
};

QTEST_MAIN(TestCatalogWarning)
#include "tst_catalog_warning.moc"
