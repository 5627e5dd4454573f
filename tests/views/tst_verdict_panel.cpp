// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict panel: badges, root cause and its decisive line, coverage warnings that cannot be missed,
// ambiguity candidates, clicks that drive the selection, and log text shown as plain text only.
#include "result_fixture.h"

#include "views/coverage/coverage_summary.h"
#include "views/selection_model.h"
#include "views/verdict/verdict_panel.h"

#include <QLabel>
#include <QPushButton>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

class TestVerdictPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsVerdictAndCoverageWarning()
    {
        SelectionModel selection;
        VerdictPanel panel(&selection);
        QVERIFY(panel.contentText().contains(QStringLiteral("No bundle open")));
        selection.setAnalysis(AnalysisData::build(tests::nvlinkFixture()));
        const QString text = panel.contentText();
        QVERIFY(text.contains(QStringLiteral("HARDWARE FAILURE")));
        QVERIFY(text.contains(QStringLiteral("NVLINK")));
        QVERIFY(text.contains(QStringLiteral("node-02 \u00b7 GPU 3")));
        QVERIFY(text.contains(QStringLiteral("nodes/node-02/dmesg.txt:99")));
        QVERIFY(text.contains(QStringLiteral("NVRM: Xid (PCI:0000:61:00): 149")));
        QVERIFY(text.contains(QStringLiteral("drain node-02")));
        auto* warning = panel.findChild<QLabel*>(QStringLiteral("coverageWarning"));
        QVERIFY(warning);
        QVERIFY(warning->text().contains(QStringLiteral("Evidence is incomplete")));
        QVERIFY(warning->text().contains(QStringLiteral("kernel log of node-01 is missing")));
        for (QLabel* label : panel.findChildren<QLabel*>())
            QCOMPARE(label->textFormat(), Qt::PlainText);
    }

    void longNodeListsAreCut()
    {
        auto result = std::make_shared<engine::AnalysisResult>(*tests::nvlinkFixture());
        result->verdict.affectedNodes.clear();
        for (int i = 0; i < 1024; ++i)
            result->verdict.affectedNodes.push_back("node-" + std::to_string(1000 + i));
        SelectionModel selection;
        VerdictPanel panel(&selection);
        selection.setAnalysis(AnalysisData::build(result));
        auto* list = panel.findChild<QLabel*>(QStringLiteral("affectedNodes"));
        QVERIFY(list);
        QVERIFY(list->text().startsWith(QStringLiteral("node-1000, node-1001, ")));
        QVERIFY(list->text().endsWith(QStringLiteral("node-1011 and 1012 more (1024 in all)")));
        QVERIFY(list->toolTip().endsWith(QStringLiteral("node-2023")));
        result->verdict.affectedNodes.resize(2);
        selection.setAnalysis(AnalysisData::build(result));
        list = panel.findChild<QLabel*>(QStringLiteral("affectedNodes"));
        QCOMPARE(list->text(), QStringLiteral("node-1000, node-1001"));
        QVERIFY(list->toolTip().isEmpty());
    }

    void clicksDriveTheSelection()
    {
        SelectionModel selection;
        VerdictPanel panel(&selection);
        selection.setAnalysis(AnalysisData::build(tests::nvlinkFixture()));
        QTest::mouseClick(panel.rootCauseButton(), Qt::LeftButton);
        QCOMPARE(selection.current().focus, Selection::Focus::Symptom);
        QCOMPARE(selection.current().symptom, selection.analysis()->rootCauseSymptom);
        QTest::mouseClick(panel.evidenceButton(), Qt::LeftButton);
        QCOMPARE(selection.current().focus, Selection::Focus::Observation);
        QCOMPARE(selection.current().observation, 0);
    }

    void ambiguousListsCandidates()
    {
        auto result = std::make_shared<engine::AnalysisResult>(*tests::nvlinkFixture());
        engine::Verdict& v = result->verdict;
        v.terminalState = "ambiguous";
        v.subDomain = "unknown";
        v.rootCause.reset();
        for (const char* id : {"nvlink_signal_integrity@node-02/gpu3", "nccl_ib_completion_error@node-01/gpu3"}) {
            const engine::Symptom* s = result->symptom(id);
            v.candidates.push_back({s->id, s->name, s->node, s->gpu, s->firstSeen, "hardware_failure", s->domain,
                                    "<b>summary</b> of " + s->name, "kernel log of node-01"});
        }
        SelectionModel selection;
        VerdictPanel panel(&selection);
        selection.setAnalysis(AnalysisData::build(result));
        const QString text = panel.contentText();
        QVERIFY(text.contains(QStringLiteral("AMBIGUOUS")));
        QVERIFY(text.contains(QStringLiteral("Ambiguous: competing candidates")));
        QVERIFY(text.contains(QStringLiteral("<b>summary</b> of nccl_ib_completion_error")));  // literally
        QVERIFY(text.contains(QStringLiteral("Would separate them: kernel log of node-01")));
        QVERIFY(text.contains(QStringLiteral("none identified")));
        QPushButton* second = nullptr;
        for (QPushButton* b : panel.findChildren<QPushButton*>()) {
            if (b->text().startsWith(QStringLiteral("nccl_ib_completion_error on node-01")))
                second = b;
        }
        QVERIFY(second);
        QTest::mouseClick(second, Qt::LeftButton);
        QCOMPARE(selection.current().symptom,
                 selection.analysis()->symptomIndex("nccl_ib_completion_error@node-01/gpu3"));
        // Advice already in the explanation is not repeated under the candidates.
        auto again = std::make_shared<engine::AnalysisResult>(*result);
        again->verdict.explanation = "Two candidates; the kernel log of node-01 would separate them.";
        selection.setAnalysis(AnalysisData::build(again));
        QVERIFY(panel.contentText().contains(QStringLiteral("the kernel log of node-01 would separate them")));
        QVERIFY(!panel.contentText().contains(QStringLiteral("Would separate them")));
    }

    void readingsOfOneFindingAreListed()
    {
        // A finding that reads the same for a fault and for a design: its readings, not rival symptoms to compare.
        auto result = std::make_shared<engine::AnalysisResult>(*tests::nvlinkFixture());
        engine::Verdict& v = result->verdict;
        v.terminalState = "ambiguous";
        const std::string id = v.rootCause->symptomId;
        v.candidates = {{id, v.rootCause->symptom, "node-02", 3, v.rootCause->time, "hardware_failure", "nvlink",
                         "lost links", "nvidia-smi nvlink -s"},
                        {id, v.rootCause->symptom, "node-02", 3, v.rootCause->time, "user_error", "configuration",
                         "no NVLink connected", "nvidia-smi nvlink -s"}};
        SelectionModel selection;
        VerdictPanel panel(&selection);
        selection.setAnalysis(AnalysisData::build(result));
        const QString text = panel.contentText();
        QVERIFY(text.contains(QStringLiteral("Ambiguous: what this finding can mean")));
        QVERIFY(text.contains(QStringLiteral("USER ERROR / configuration\nno NVLink connected")));
        QVERIFY(text.contains(QStringLiteral("Would separate them: nvidia-smi nvlink -s")));
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("compareCandidates")));
    }

    /// Only evidence files count in "Read N of M": a sample's metadata and workload.json are listed, not evidence,
    /// whatever their format's display name says.
    void coverageCountsEvidenceFilesOnly()
    {
        tests::ResultBuilder b;
        b.file("nodes/node-01/dmesg.txt", engine::SourceKind::Kernel, "node-01", 10);
        b.file("rank0.log", engine::SourceKind::App, "node-01", 5);
        const auto lesson = b.file("LESSON.md", engine::SourceKind::Unknown, "", 0);
        const auto workload = b.file("workload.json", engine::SourceKind::Accounting, "", 0);
        auto r = std::make_shared<engine::AnalysisResult>(*b.build());
        r->fileCoverage[lesson].role = engine::FileRole::Metadata;
        r->fileCoverage[lesson].format = "markdown";
        r->fileCoverage[workload].role = engine::FileRole::Workload;
        r->fileCoverage[workload].format = "workload-json";
        const CoverageSummary summary = CoverageSummary::build(*r);
        QVERIFY2(summary.headline.startsWith(QStringLiteral("Read 2 of 2 file(s) on 1 node(s)")),
                 qPrintable(summary.headline));
        QVERIFY(summary.notRead.isEmpty());
        r->fileCoverage[lesson].role = engine::FileRole::Evidence;  // the same file as evidence, not read
        QVERIFY(CoverageSummary::build(*r).headline.startsWith(QStringLiteral("Read 2 of 3 file(s)")));
    }

    void messages()
    {
        SelectionModel selection;
        VerdictPanel panel(&selection);
        panel.showMessage(QStringLiteral("Could not analyse the bundle"), QStringLiteral("<i>x</i>: empty"), true);
        QVERIFY(panel.contentText().contains(QStringLiteral("<i>x</i>: empty")));
        QVERIFY(!panel.rootCauseButton());
    }
};

QTEST_MAIN(TestVerdictPanel)
#include "tst_verdict_panel.moc"
