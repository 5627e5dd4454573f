// SPDX-License-Identifier: GPL-3.0-or-later
// The internal vocabularies (trace phases and actions, symptom changes, progress stages, sniffed formats): every
// value has its own non-empty name in its one table, and reading a name back gives the value.
#include "engine/progress.h"
#include "engine/trace.h"
#include "importers/line_format.h"

#include <QtTest>

#include <set>
#include <string>

using namespace attrib;

namespace {

/// Checks values first..last (a contiguous enum): distinct non-empty names that `from` reads back.
template <typename E, typename From> void checkTable(E first, E last, From from, const char* what)
{
    std::set<std::string> names;
    for (int i = static_cast<int>(first); i <= static_cast<int>(last); ++i) {
        const auto value = static_cast<E>(i);
        const std::string name = toString(value);
        QVERIFY2(!name.empty(), qPrintable(QStringLiteral("%1 %2 has no name").arg(QLatin1String(what)).arg(i)));
        QVERIFY2(names.insert(name).second,
                 qPrintable(QStringLiteral("%1 name %2 twice").arg(QLatin1String(what), QString::fromStdString(name))));
        if constexpr (!std::is_same_v<From, std::nullptr_t>) {
            const auto back = from(name);
            QVERIFY2(back && *back == value, qPrintable(QString::fromStdString(name)));
        }
    }
}

}  // namespace

class TestVocabularies : public QObject {
    Q_OBJECT

private slots:
    void tracePhases()
    {
        checkTable(engine::TracePhase::Scope, engine::TracePhase::Unknown, engine::tracePhaseFrom, "phase");
        QCOMPARE(std::string(toString(engine::TracePhase::Early)), std::string("early"));
        QVERIFY(!engine::tracePhaseFrom("collect"));
    }

    void traceActions()
    {
        checkTable(engine::TraceAction::Scope, engine::TraceAction::Unknown, engine::traceActionFrom, "action");
        QCOMPARE(std::string(toString(engine::TraceAction::MapGpu)), std::string("map-gpu"));
        QVERIFY(!engine::traceActionFrom("Decode"));
    }

    void symptomChanges()
    {
        checkTable(engine::SymptomChange::Kind::Added, engine::SymptomChange::Kind::Updated, engine::changeKindFrom,
                   "change");
    }

    void progressStages()
    {
        checkTable(engine::ProgressStage::ReadingFiles, engine::ProgressStage::Index, nullptr, "stage");
    }

    void formats()
    {
        QCOMPARE(std::string(toString(importers::Format::None)), std::string());
        QCOMPARE(importers::formatFrom(""), std::optional(importers::Format::None));
        checkTable(importers::Format::DmesgRaw, importers::Format::NvidiaBugReport, importers::formatFrom, "format");
        QVERIFY(!importers::formatFrom("json"));
    }
};

QTEST_APPLESS_MAIN(TestVocabularies)
#include "tst_vocabularies.moc"
