// SPDX-License-Identifier: GPL-3.0-or-later
// Refinement rules that compare attributes (`same_attrs`): a cause explains a target only when both name the same
// value (a monitor's relay of Xid N and the kernel's decode of Xid N); a different or missing value keeps the target,
// and the trace says which attribute differed.
#include "../common/test_catalog.h"

#include "engine/catalog_cases.h"
#include "engine/pipeline.h"
#include "engine/refine_eval.h"

#include <QtTest>

using namespace attrib;
using namespace attrib::engine;

namespace {

Symptom symptom(const Catalog& cat, const std::string& name, const std::string& node, int gpu, const char* xid)
{
    Symptom s = tests::catalogSymptom(cat, name, node, gpu);
    s.firstSeen = s.lastSeen = s.origin = CaseEpoch;
    s.timeSource = TimeSource::Absolute;
    if (xid != nullptr)
        s.attrs["xid"] = xid;
    return s;
}

const RefineRule& relayRule(const Catalog& cat)
{
    for (const auto& r : cat.refineRules())
        if (r.id == "KernelDecodeStandsForRelayedXid")
            return r;
    qFatal("KernelDecodeStandsForRelayedXid is not in the catalog");
}

}  // namespace

class TestRefineAttrs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loaded()
    {
        const auto cat = tests::sourceCatalog();
        QCOMPARE(relayRule(*cat).sameAttrs, std::vector<std::string>{"xid"});
    }

    void sameValueDemotes()
    {
        const auto cat = tests::sourceCatalog();
        std::vector<Symptom> s = {symptom(*cat, "nvlink_contained_error", "n1", -1, "145"),
                                  symptom(*cat, "nvlink_xid_undecoded", "n1", 0, "145")};
        Trace trace;
        applyRefineRule(*cat, relayRule(*cat), s, trace);
        QCOMPARE(s[1].status, SymptomStatus::Demoted);
        QCOMPARE(trace.steps().back().details.at("same_attrs"), std::string("equal"));
    }

    void otherOrMissingValueKeeps()
    {
        const auto cat = tests::sourceCatalog();
        for (const char* relayed : {"149", static_cast<const char*>(nullptr)}) {
            std::vector<Symptom> s = {symptom(*cat, "nvlink_contained_error", "n1", -1, "145"),
                                      symptom(*cat, "nvlink_xid_undecoded", "n1", 0, relayed)};
            Trace trace;
            applyRefineRule(*cat, relayRule(*cat), s, trace);
            QCOMPARE(s[1].status, SymptomStatus::Active);
            const TraceStep& step = trace.steps().back();
            QVERIFY(!step.fired);
            QVERIFY2(step.summary.find("attribute xid differs: '145' vs '" + std::string(relayed ? relayed : "") +
                                       "'") != std::string::npos,
                     step.summary.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestRefineAttrs)
#include "tst_refine_attrs.moc"
