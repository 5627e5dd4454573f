// SPDX-License-Identifier: GPL-3.0-or-later
// Cases in the workbench: an analysis is saved as a case, reopened from the store without the engine (also
// read-only when the bundle has moved), labeled through the panel as you type, and exported as a report.
#include "../common/test_catalog.h"
#include "../common/workbench_window.h"

#include "app/gui/bundle_controller.h"
#include "app/gui/cases_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/settings.h"
#include "engine/store/sqlite_case_store.h"
#include "views/store/label_panel.h"

#include <QComboBox>
#include <QFile>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

namespace fs = std::filesystem;
using namespace attrib;
using namespace attrib::app;

class TestCasesController : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<MainWindow> m_window;
    CasesController* m_cases = nullptr;

    std::string storePath() const { return m_dir.filePath(QStringLiteral("cases.sqlite")).toStdString(); }

    qint64 analyse(const QString& bundle)
    {
        QSignalSpy saved(m_cases, &CasesController::caseSaved);
        m_window->openBundle(bundle);
        if (!saved.wait(120000))
            return 0;
        return saved.front().front().toLongLong();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_window = tests::showWorkbench(m_settings, m_dir);
        QVERIFY(m_window);
        m_cases = m_window->casesController();
        m_cases->setStorePath(QString::fromStdString(storePath()));
    }

    void analysisIsSavedAndLabeledAsYouType()
    {
        const qint64 id = analyse(QString::fromStdString(tests::samplePath("nvlink-xid149")));
        QVERIFY(id > 0);
        auto store = store::SqliteCaseStore::open(storePath(), store::OpenMode::ReadOnly);
        QCOMPARE(store->getCase(id)->summary.rootNode, std::string("node-02"));
        auto* panel = m_cases->labelPanel();
        QVERIFY(panel->stateBox()->isEnabled());
        panel->stateBox()->setCurrentIndex(panel->stateBox()->findText(QStringLiteral("hardware_failure")));
        panel->notesEdit()->setPlainText(QStringLiteral("reseated the <b>cable</b> | ok"));
        QTRY_VERIFY_WITH_TIMEOUT(store->getCase(id)->summary.label.has_value(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(store->getCase(id)->summary.label->notes,
                                  std::string("reseated the <b>cable</b> | ok"), 5000);
        QCOMPARE(store->getCase(id)->summary.label->terminalState, std::string("hardware_failure"));
    }

    void caseReopensWithoutTheEngineAndExports()
    {
        auto store = store::SqliteCaseStore::open(storePath(), store::OpenMode::ReadOnly);
        const auto id = store->listCases().front().id;
        QSignalSpy opened(m_cases, &CasesController::caseOpened);
        QVERIFY(m_cases->openCase(id));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.front()[1].toBool(), false);
        QTest::qWait(200);
        QCOMPARE(store->caseCount(), std::size_t(1));  // reopening does not save a new case
        QCOMPARE(m_window->bundleController()->analysis()->r().verdict.rootCause->node, std::string("node-02"));
        QCOMPARE(m_cases->labelPanel()->notesEdit()->toPlainText(), QStringLiteral("reseated the <b>cable</b> | ok"));
        for (const char* suffix : {".md", ".html", ".pdf"}) {
            const QString path = m_dir.filePath(QStringLiteral("report") + QLatin1String(suffix));
            QString error;
            QVERIFY2(m_cases->exportReport(path, &error), qPrintable(error));
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            if (QLatin1String(suffix) == QLatin1String(".pdf"))
                QVERIFY(bytes.startsWith("%PDF-"));
            else
                QVERIFY(bytes.contains("node-02"));
        }
        // The timeline on screen goes with the report: embedded in HTML, a linked PNG beside Markdown, and the
        // PDF grows by the image.
        QFile html(m_dir.filePath(QStringLiteral("report.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(html.readAll().contains("<img width=\"640\" src=\"data:image/png;base64,"));
        QFile md(m_dir.filePath(QStringLiteral("report.md")));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("![Timeline of the failure](report-timeline.png)"));
        const QImage png(CasesController::timelineImagePath(m_dir.filePath(QStringLiteral("report.md"))));
        QCOMPARE(png.size(), QSize(1400, 420));
        const qint64 withImage = QFileInfo(m_dir.filePath(QStringLiteral("report.pdf"))).size();
        m_cases->setTimelineRenderer({});
        QString error;
        QVERIFY2(m_cases->exportReport(m_dir.filePath(QStringLiteral("plain.pdf")), &error), qPrintable(error));
        QVERIFY2(QFileInfo(m_dir.filePath(QStringLiteral("plain.pdf"))).size() + 10000 < withImage,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(QFileInfo(m_dir.filePath(QStringLiteral("plain.pdf"))).size())
                                .arg(withImage)));
    }

    void caseOfAMovedBundleOpensReadOnly()
    {
        const fs::path copy = fs::path(m_dir.path().toStdString()) / "moved-bundle";
        fs::copy(tests::samplePath("nvlink-xid149"), copy, fs::copy_options::recursive);
        const qint64 id = analyse(QString::fromStdString(copy.string()));
        QVERIFY(id > 0);
        fs::remove_all(copy);
        QSignalSpy opened(m_cases, &CasesController::caseOpened);
        QVERIFY(m_cases->openCase(id));
        QCOMPARE(opened.front()[1].toBool(), true);
        const auto& r = m_window->bundleController()->analysis()->r();
        QCOMPARE(r.verdict.subDomain, std::string("nvlink"));
        QVERIFY(!r.observations.empty());
        QVERIFY(r.files.front().absolutePath.empty());
    }
};

QTEST_MAIN(TestCasesController)
#include "tst_cases_controller.moc"
