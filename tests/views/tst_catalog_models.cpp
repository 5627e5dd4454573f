// SPDX-License-Identifier: GPL-3.0-or-later
// Catalog browser, rule problems and corpus impact models under QAbstractItemModelTester, on the source
// catalog and on a deliberately broken copy.
#include "../common/guide_blocks.h"
#include "bench_fixtures.h"

#include "views/catalog/catalog_browser.h"
#include "views/catalog/corpus_impact_model.h"
#include "views/catalog/diagnostics_panel.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

namespace {

void attachTester(QAbstractItemModel* model)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, model);
}

QModelIndex group(const CatalogModel& model, const QString& prefix)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data().toString().startsWith(prefix))
            return model.index(row, 0);
    return {};
}

}  // namespace

class TestCatalogModels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rulesGroupedByPhase()
    {
        CatalogModel model;
        attachTester(&model);
        model.setCatalog(tests::sourceCatalog());
        for (const char* phase : {"symptom registry", "extract", "early", "scrub", "refine", "priority"})
            QVERIFY2(group(model, QLatin1String(phase)).isValid(), phase);
        const QModelIndex rule = model.findRule(QStringLiteral("Xid149AndNvlinkFiltering"));
        QVERIFY(rule.isValid());
        QCOMPARE(rule.parent().data().toString().left(6), QStringLiteral("refine"));
        QVERIFY(rule.siblingAtColumn(CatalogModel::SourceColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("refine/nvlink.json:")));
        QVERIFY(rule.data(CatalogModel::FileRole).toString().endsWith(QStringLiteral("refine/nvlink.json")));
        QVERIFY(rule.data(CatalogModel::LineRole).toInt() > 1);
        QVERIFY(rule.siblingAtColumn(CatalogModel::CasesColumn).data().toString().endsWith(QStringLiteral("pass")));
        QVERIFY(!rule.siblingAtColumn(CatalogModel::DescriptionColumn).data().toString().isEmpty());
        QVERIFY(model.rowCount(rule) >= 5);  // its inline cases
        QCOMPARE(model.index(0, CatalogModel::CasesColumn, rule).data().toString(), QStringLiteral("pass"));
        QCOMPARE(model.index(0, 0, rule).data(CatalogModel::KindRole).toInt(),
                 static_cast<int>(CatalogModel::Kind::Case));
    }

    void failingCaseShowsItsExpectation()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, dir);
        tests::writeFile(dir / "extractors" / "broken_case.json", tests::BrokenCaseExtractor);
        tests::writeFile(dir / "refine" / "bad_json.json", "{\"kind\": \"refine\",\n  \"rules\": [\n");
        const auto catalog = rules::loadCatalog(dir.string());
        CatalogModel model;
        attachTester(&model);
        model.setCatalog(catalog);
        const QModelIndex leftOut = group(model, QStringLiteral("left out"));
        QVERIFY(leftOut.isValid());
        QVERIFY(leftOut.data(CatalogModel::FailedRole).toBool());
        const QModelIndex broken = model.findRule(QStringLiteral("bench_broken_case"));
        QVERIFY(broken.isValid());
        QCOMPARE(broken.parent(), leftOut);
        const QModelIndex failed = model.index(0, 0, broken);
        QCOMPARE(failed.siblingAtColumn(CatalogModel::CasesColumn).data().toString(), QStringLiteral("FAIL"));
        QVERIFY(failed.siblingAtColumn(CatalogModel::DescriptionColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("'moon'")));
        QCOMPARE(failed.data(CatalogModel::LineRole).toInt(), 3);

        DiagnosticsModel diagnostics;
        attachTester(&diagnostics);
        diagnostics.setDiagnostics(catalog->diagnostics(), tmp.path(), catalog->diagnostics());
        QVERIFY(diagnostics.errorCount() >= 2);
        bool json = false;
        for (int row = 0; row < diagnostics.rowCount(); ++row) {
            const QString where = diagnostics.index(row, DiagnosticsModel::LocationColumn).data().toString();
            if (where.startsWith(QStringLiteral("refine/bad_json.json:"))) {
                json = true;
                QVERIFY(diagnostics.index(row, 0).data(DiagnosticsModel::NewRole).toBool());
                QVERIFY(diagnostics.index(row, 0)
                            .data(DiagnosticsModel::FileRole)
                            .toString()
                            .endsWith(QStringLiteral("refine/bad_json.json")));
            }
        }
        QVERIFY(json);
    }

    void browserOpensFilesAndAsksWhyNot()
    {
        CatalogBrowser browser;
        browser.setCatalog(tests::sourceCatalog());
        QSignalSpy open(&browser, &CatalogBrowser::openRuleFile);
        QVERIFY(browser.showRule(QStringLiteral("Xid149AndNvlinkFiltering")));
        QVERIFY(!browser.showRule(QStringLiteral("NoSuchRule")));
        Q_EMIT browser.view()->doubleClicked(browser.view()->currentIndex());
        QCOMPARE(open.count(), 1);
        QVERIFY(open.front().at(0).toString().endsWith(QStringLiteral("refine/nvlink.json")));
        QVERIFY(open.front().at(1).toInt() > 1);

        // Every analysis hands its catalog over: the same catalog keeps the tree (no model reset), a new one
        // rebuilds it, but only once the browser is on screen or asked for its tree (opening a bundle does not
        // spend the GUI thread on a tree of thousands of cases nobody looks at).
        QSignalSpy reset(browser.view()->model(), &QAbstractItemModel::modelReset);
        browser.setCatalog(tests::sourceCatalog());
        QCOMPARE(reset.count(), 0);
        browser.setCatalog(rules::loadCatalog(ATTRIB_SOURCE_RULES_DIR));
        QCOMPARE(reset.count(), 0);  // hidden: the tree waits
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QTRY_VERIFY(reset.count() >= 1);
    }

    void diagnosticsPanelCaption()
    {
        DiagnosticsPanel panel;
        panel.showCatalog(*tests::sourceCatalog());
        QVERIFY(panel.caption().contains(QStringLiteral("inline case(s) pass")));
    }

    void corpusImpactModel()
    {
        CorpusImpactModel model;
        attachTester(&model);
        engine::CorpusImpact impact;
        engine::BundleImpact same;
        same.name = "a";
        same.baseline = same.candidate = "unknown/unknown";
        engine::BundleImpact changed;
        changed.name = "b";
        changed.diff.terminalBefore = "unknown";
        changed.diff.terminalAfter = "user_error";
        changed.diff.symptoms.push_back({"s@job", std::nullopt, engine::SymptomStatus::Active, "", ""});
        impact.bundles = {same, changed};
        model.setImpact(impact);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, CorpusImpactModel::ResultColumn).data().toString(), QStringLiteral("same"));
        QCOMPARE(model.index(1, CorpusImpactModel::ResultColumn).data().toString(), QStringLiteral("CHANGED"));
        QCOMPARE(model.index(1, CorpusImpactModel::ChangesColumn).data().toString(),
                 QStringLiteral("s@job: added (active)"));
        QVERIFY(model.index(1, 0).data(CorpusImpactModel::ChangedRole).toBool());
    }
};

QTEST_MAIN(TestCatalogModels)
#include "tst_catalog_models.moc"
