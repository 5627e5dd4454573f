// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's item models under QAbstractItemModelTester: symptoms by status (and its proxy),
// coverage per collector / node / file, bundle files. Each tester is attached before data is loaded.
#include "result_fixture.h"

#include "views/analysis_data.h"
#include "views/models/bundle_file_model.h"
#include "views/models/coverage_model.h"
#include "views/models/symptom_filter_proxy.h"
#include "views/models/symptom_tree_model.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

namespace {

void attachTester(QAbstractItemModel* model)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, model);
}

QModelIndex findRow(const QAbstractItemModel* model, const QString& text, const QModelIndex& parent = {})
{
    for (int r = 0; r < model->rowCount(parent); ++r) {
        const QModelIndex i = model->index(r, 0, parent);
        if (i.data().toString() == text)
            return i;
        if (const QModelIndex found = findRow(model, text, i); found.isValid())
            return found;
    }
    return {};
}

}  // namespace

class TestViewModels : public QObject {
    Q_OBJECT

private:
    AnalysisPtr m_analysis = AnalysisData::build(tests::nvlinkFixture());

private Q_SLOTS:
    void analysisIndex()
    {
        const AnalysisData& a = *m_analysis;
        QVERIFY(a.hasVerdict());
        QCOMPARE(a.r().symptoms[a.rootCauseSymptom].name, std::string("nvlink_signal_integrity"));
        QCOMPARE(a.symptomRole[a.symptomIndex("nccl_ib_completion_error@node-01/gpu3")], EvidenceRole::Interesting);
        QCOMPARE(a.observationsAt(0, 99).size(), std::size_t(1));
        QCOMPARE(a.observationRole[a.observationsAt(0, 99)[0]], EvidenceRole::RootCause);
        QCOMPARE(a.observationsAt(0, 98).size(), std::size_t(0));
        QCOMPARE(a.eventRole(3), EvidenceRole::Context);  // nccl_init raises no symptom
        QCOMPARE(a.primaryObservation(a.rootCauseSymptom), a.observationsAt(0, 99)[0]);
    }

    void symptomTree()
    {
        SymptomTreeModel model;
        attachTester(&model);
        QCOMPARE(model.rowCount(), 0);
        model.setAnalysis(m_analysis);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(SymptomTreeModel::ColumnCount));
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Active  (1)"));
        QVERIFY(model.index(1, 0).data().toString().startsWith(QStringLiteral("Demoted")));
        const QModelIndex demoted = model.index(0, 0, model.index(1, 0));
        QCOMPARE(demoted.data().toString(), QStringLiteral("nccl_ib_completion_error"));
        QCOMPARE(demoted.siblingAtColumn(SymptomTreeModel::RuleColumn).data().toString(),
                 QStringLiteral("Xid149AndNvlinkFiltering"));
        QVERIFY(demoted.siblingAtColumn(SymptomTreeModel::ReasonColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("causal window")));
        QCOMPARE(demoted.siblingAtColumn(SymptomTreeModel::NodeColumn).data().toString(),
                 QStringLiteral("node-01 \u00b7 GPU 3"));
        QCOMPARE(demoted.siblingAtColumn(SymptomTreeModel::FirstSeenColumn).data().toString(),
                 QStringLiteral("21:34:18.000"));
        const int index = demoted.data(SymptomTreeModel::SymptomIndexRole).toInt();
        QCOMPARE(model.indexOfSymptom(index), demoted);
        QVERIFY(demoted.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Xid149AndNvlinkFiltering")));
        model.setAnalysis(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void aSymptomOfSeveralRanksSaysHowMany()
    {
        auto result = std::make_shared<engine::AnalysisResult>(*tests::nvlinkFixture());
        // The NCCL symptom gathers a second event from another rank.
        auto it = std::find_if(result->symptoms.begin(), result->symptoms.end(),
                               [](const engine::Symptom& s) { return s.name == "nccl_ib_completion_error"; });
        QVERIFY(it != result->symptoms.end() && it->events.size() == 1);
        auto first = std::find_if(result->events.begin(), result->events.end(),
                                  [&](const engine::Event& e) { return e.id == it->events.front(); });
        QVERIFY(first != result->events.end());
        first->rank = 3;
        engine::Event second = *first;
        second.id = result->events.back().id + 1;
        second.rank = 7;
        result->events.push_back(second);
        it->events.push_back(second.id);
        const int rank = 7 + 2;  // two ranks
        const std::string id = it->id;
        const int gpu = it->gpu;
        const QString node = QString::fromStdString(it->node);
        SymptomTreeModel model;
        const AnalysisPtr analysis = AnalysisData::build(result);
        model.setAnalysis(analysis);
        const QModelIndex row = model.indexOfSymptom(analysis->symptomIndex(id));
        const QString place = row.siblingAtColumn(SymptomTreeModel::NodeColumn).data().toString();
        QVERIFY2(place.startsWith(node) && place.endsWith(QStringLiteral("%1 ranks").arg(rank - 7)), qPrintable(place));
        QVERIFY2(!place.contains(QStringLiteral("rank ")), qPrintable(place));
        QCOMPARE(place.contains(QStringLiteral("GPU")), gpu >= 0);
    }

    void symptomProxyToggles()
    {
        SymptomTreeModel model;
        SymptomFilterProxy proxy;
        proxy.setSourceModel(&model);
        attachTester(&proxy);
        // A second demoted symptom that the text filter below does not match.
        auto result = std::make_shared<engine::AnalysisResult>(*m_analysis->result);
        engine::Symptom other =
            *std::find_if(result->symptoms.begin(), result->symptoms.end(),
                          [](const engine::Symptom& s) { return s.name == "nccl_ib_completion_error"; });
        other.name = "collective_timeout";
        other.id = "collective_timeout@node-01";
        other.gpu = -1;
        other.statusRule = "NodeFailureExplainsCommErrors";
        other.statusReason = "a timeout after the link went down";
        result->symptoms.push_back(other);
        model.setAnalysis(AnalysisData::build(result));
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setShowDemoted(false);
        QCOMPARE(proxy.rowCount(), 2);
        QVERIFY(!findRow(&proxy, QStringLiteral("nccl_ib_completion_error")).isValid());
        proxy.setShowScrubbed(false);
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setShowDemoted(true);
        proxy.setShowScrubbed(true);
        proxy.setFilterText(QStringLiteral("ib_completion"));
        QCOMPARE(proxy.rowCount(), 1);  // only the demoted group keeps a matching child
        // The group counts what the filter shows, out of all.
        const int demotedAll = model.rowCount(model.index(1, 0));
        const int demotedShown = proxy.rowCount(proxy.index(0, 0));
        QVERIFY(demotedShown < demotedAll);
        QCOMPARE(proxy.index(0, 0).data().toString(),
                 QStringLiteral("Demoted (explained away)  (%1 of %2)").arg(demotedShown).arg(demotedAll));
        const QModelIndex hit = findRow(&proxy, QStringLiteral("nccl_ib_completion_error"));
        QVERIFY(hit.isValid());
        QCOMPARE(hit.data(Qt::ForegroundRole).value<QColor>(), QColor::fromRgb(0x6d5d3a));
        proxy.setFilterText(QString());
        const QModelIndex root = findRow(&proxy, QStringLiteral("nvlink_signal_integrity"));
        QVERIFY(root.data(Qt::FontRole).value<QFont>().bold());
        proxy.sort(SymptomTreeModel::CountColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.rowCount(), 3);
        QCOMPARE(proxy.index(0, 0).data(SymptomTreeModel::StatusRole).toInt(), 0);  // groups keep their order
    }

    void coverage()
    {
        CoverageModel model;
        attachTester(&model);
        model.setAnalysis(m_analysis);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.problemCount(), 1);
        const QModelIndex kernel = model.index(0, 0);
        QCOMPARE(kernel.data().toString(), QStringLiteral("kernel"));
        QCOMPARE(kernel.siblingAtColumn(CoverageModel::StatusColumn).data().toString(), QStringLiteral("partial"));
        QVERIFY(kernel.siblingAtColumn(CoverageModel::ErrorsColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("node-01 is missing")));
        // node-02 has its dmesg; node-01 and node-03 have no kernel log at all.
        QCOMPARE(model.rowCount(kernel), 3);
        const QModelIndex node02 = model.index(0, 0, kernel);
        QCOMPARE(node02.data().toString(), QStringLiteral("node-02"));
        QCOMPARE(model.rowCount(node02), 1);
        const QModelIndex file = model.index(0, 0, node02);
        QCOMPARE(file.data().toString(), QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(file.data(CoverageModel::FileIndexRole).toInt(), 0);
        QCOMPARE(file.siblingAtColumn(CoverageModel::LinesColumn).data().toULongLong(), 120ull);
        const QModelIndex missing = model.index(1, 0, kernel);
        QCOMPARE(missing.data().toString(), QStringLiteral("node-01"));
        QCOMPARE(missing.siblingAtColumn(CoverageModel::StatusColumn).data().toString(), QStringLiteral("missing"));
        model.setAnalysis(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void bundleFiles()
    {
        BundleFileModel model;
        attachTester(&model);
        model.setAnalysis(m_analysis);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, BundleFileModel::PathColumn).data().toString(),
                 QStringLiteral("nodes/node-02/dmesg.txt"));
        QCOMPARE(model.index(0, BundleFileModel::KindColumn).data().toString(), QStringLiteral("kernel"));
        QCOMPARE(model.index(0, BundleFileModel::MatchedColumn).data().toULongLong(), 2ull);
        QCOMPARE(model.index(2, 0).data(BundleFileModel::FileIndexRole).toInt(), 2);
        // A partial result (files listed, nothing read yet) still lists files.
        auto partial = std::make_shared<engine::AnalysisResult>();
        partial->files = m_analysis->r().files;
        model.setAnalysis(AnalysisData::build(partial));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(1, BundleFileModel::KindColumn).data().toString(), QString());
    }

    void largeResultModels()
    {
        const AnalysisPtr big = AnalysisData::build(tests::generatedResult(200, 100));
        SymptomTreeModel symptoms;
        attachTester(&symptoms);
        symptoms.setAnalysis(big);
        QCOMPARE(symptoms.rowCount(symptoms.index(0, 0)) + symptoms.rowCount(symptoms.index(1, 0)), 400);
    }
};

QTEST_GUILESS_MAIN(TestViewModels)
#include "tst_view_models.moc"
