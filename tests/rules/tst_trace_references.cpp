// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger shows the events and symptoms a trace step names: on every sample, each reference must resolve
// to what the step recorded (the extracting rule, the decoded Xid, the node, the symptom built), never to an
// event that was renumbered after the step.
#include "../common/test_catalog.h"

#include "engine/pipeline.h"
#include "importers/analyzer.h"

#include <QtTest>

using namespace attrib;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> sampleNames()
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(std::string(ATTRIB_SOURCE_DIR) + "/samples"))
        if (entry.is_directory() && fs::exists(entry.path() / "expected.json"))
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// Empty when the event fits the step; otherwise what does not fit.
std::string mismatch(const engine::AnalysisResult& r, const engine::TraceStep& step, const engine::Event& e)
{
    for (const auto obs : e.observations)
        if (!r.observation(obs))
            return "names observation " + std::to_string(obs) + " which does not exist";
    if (step.phase == engine::TracePhase::Extract && e.rule != step.rule)
        return "extract step of " + step.rule + " names an event of " + e.rule;
    // A resolve step is about the peer node and names the reports other nodes made of it.
    if (step.phase == engine::TracePhase::Early && step.action != engine::TraceAction::Resolve && !step.node.empty() &&
        e.node != step.node)
        return "step on " + step.node + " names an event on " + e.node;
    if (step.phase == engine::TracePhase::Early && step.action == engine::TraceAction::Decode) {
        const auto xid = e.attrs.find("xid");
        if (e.type != "xid" || xid == e.attrs.end() || xid->second != step.details.at("xid"))
            return "decode step of Xid " + step.details.at("xid") + " names a " + e.type + " event";
    }
    if (step.phase == engine::TracePhase::Symptoms && step.action == engine::TraceAction::Add) {
        const std::string id = engine::symptomIdFor(e.symptom, e.node, e.gpu);
        if (step.changes.empty() || step.changes.front().symptom != id)
            return "symptom step names an event of " + id;
    }
    return {};
}

}  // namespace

class TestTraceReferences : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepsNameWhatTheyRecorded_data()
    {
        QTest::addColumn<QString>("sample");
        for (const auto& name : sampleNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void stepsNameWhatTheyRecorded()
    {
        QFETCH(QString, sample);
        const auto outcome = importers::analyzeBundle(tests::samplePath(sample.toStdString()), tests::sourceCatalog());
        QVERIFY2(outcome.result, outcome.error.c_str());
        const auto& r = *outcome.result;
        std::size_t references = 0;
        std::vector<std::string> wrong;
        for (const auto& step : r.trace) {
            for (const auto id : step.events) {
                ++references;
                const engine::Event* e = r.event(id);
                const std::string problem =
                    e ? mismatch(r, step, *e) : "names event " + std::to_string(id) + " which does not exist";
                if (!problem.empty())
                    wrong.push_back("step " + std::to_string(step.index) + " (" + toString(step.phase) + "/" +
                                    toString(step.action) + " " + step.rule + "): " + problem);
            }
            for (const auto& change : step.changes) {
                ++references;
                if (!r.symptom(change.symptom))
                    wrong.push_back("step " + std::to_string(step.index) + " changes unknown symptom " +
                                    change.symptom);
            }
        }
        QVERIFY(references > 0);
        std::string report;
        for (std::size_t i = 0; i < wrong.size() && i < 10; ++i)
            report += wrong[i] + "\n";
        QVERIFY2(wrong.empty(),
                 qPrintable(QString::number(wrong.size()) + QStringLiteral(" of ") + QString::number(references) +
                            QStringLiteral(" references wrong:\n") + QString::fromStdString(report)));
    }
};

QTEST_APPLESS_MAIN(TestTraceReferences)
#include "tst_trace_references.moc"
