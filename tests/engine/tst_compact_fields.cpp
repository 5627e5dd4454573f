// SPDX-License-Identifier: GPL-3.0-or-later
// ObservationIds (an event's observation ids, one held in place) and SampleBox (an observation's metric fields,
// on the heap only when set): they behave as the vector and the fields they replace.
#include "engine/compact_fields.h"
#include "engine/model.h"

#include <QtTest>

#include <utility>

using namespace attrib::engine;

class TestCompactFields : public QObject {
    Q_OBJECT

private slots:
    void idsGrowFromOneInPlaceToTheHeap()
    {
        ObservationIds ids;
        QVERIFY(ids.empty());
        ids.push_back(7);
        QCOMPARE(ids.size(), std::size_t(1));
        QCOMPARE(ids.front(), std::uint64_t(7));
        for (std::uint64_t i = 8; i < 40; ++i)
            ids.push_back(i);
        QCOMPARE(ids.size(), std::size_t(33));
        QCOMPARE(ids.front(), std::uint64_t(7));
        QCOMPARE(ids.back(), std::uint64_t(39));
        std::uint64_t expected = 7;
        for (const std::uint64_t id : ids)
            QCOMPARE(id, expected++);
        QCOMPARE(ids.toVector(), std::vector<std::uint64_t>(ids.begin(), ids.end()));
    }

    void idsCopyMoveAndCompareByValue()
    {
        const ObservationIds one{5};
        const ObservationIds many{1, 2, 3};
        ObservationIds copy = many;
        QVERIFY(copy == many);
        copy[1] = 9;  // a copy owns its ids
        QCOMPARE(many[1], std::uint64_t(2));
        QVERIFY(!(copy == many));
        ObservationIds moved = std::move(copy);
        QCOMPARE(moved.toVector(), (std::vector<std::uint64_t>{1, 9, 3}));
        moved = one;  // heap back to one id
        QVERIFY(moved == one);
        moved = many;
        moved = ObservationIds(std::vector<std::uint64_t>{4, 4});
        QCOMPARE(moved.size(), std::size_t(2));
        moved = std::vector<std::uint64_t>{};
        QVERIFY(moved.empty());
        QVERIFY(ObservationIds() == ObservationIds(std::vector<std::uint64_t>{}));
    }

    void idsResizeAndClear()
    {
        ObservationIds ids{3};
        ids.resize(4);
        QCOMPARE(ids.toVector(), (std::vector<std::uint64_t>{3, 0, 0, 0}));
        ids.resize(1);
        QCOMPARE(ids.toVector(), (std::vector<std::uint64_t>{3}));
        ids.clear();
        QVERIFY(ids.empty());
        ids.push_back(11);
        QCOMPARE(ids.front(), std::uint64_t(11));
    }

    void sampleBoxReadsEmptyUntilWrittenAndCopiesDeeply()
    {
        Observation log;
        QVERIFY(log.sample->metric.empty());
        QVERIFY(log.sample->labels.empty());
        QCOMPARE(log.sample->value, 0.0);
        Observation metric;
        metric.sample.edit().metric = "DCGM_FI_DEV_GPU_TEMP";
        metric.sample.edit().value = 91.5;
        metric.sample.edit().labels["gpu"] = "3";
        Observation copy = metric;
        copy.sample.edit().labels["gpu"] = "4";
        QCOMPARE(metric.sample->labels.at("gpu"), std::string("3"));
        QCOMPARE(copy.sample->metric.str(), std::string("DCGM_FI_DEV_GPU_TEMP"));
        QCOMPARE(copy.sample->value, 91.5);
        log = copy;
        QCOMPARE(log.sample->labels.at("gpu"), std::string("4"));
        // A log line's observation does not carry the metric fields' 64 bytes.
        QVERIFY(sizeof(Observation) <= 112);
    }
};

QTEST_APPLESS_MAIN(TestCompactFields)
#include "tst_compact_fields.moc"
