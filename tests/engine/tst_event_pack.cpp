// SPDX-License-Identifier: GPL-3.0-or-later
// PackedEvents (the early rules' copy of their input): every field comes back exactly, extreme values included,
// and the packed copy is smaller than the live events it stands for.
#include "../common/event_compare.h"
#include "engine/event_pack.h"

#include <QtTest>

#include <limits>

using namespace attrib::engine;

namespace {

Event sample(std::uint64_t id)
{
    Event e;
    e.id = id;
    e.type = "nccl_socket";
    e.rule = "nccl_socket_closed";
    e.symptom = "nccl_connection_error";
    e.node = "node-0598";
    e.gpu = static_cast<int>(id % 8);
    e.rank = static_cast<int>(id);
    e.link = id % 2 ? "nvlink" + std::to_string(id % 18) : std::string();
    e.time = 1'780'000'000'000'000'000 + static_cast<TimeNs>(id) * NsPerMs;
    e.timeSource = TimeSource::Inherited;
    e.sympathetic = id % 3 == 0;
    e.attrs = {{"peer", "node-0926.cluster"}, {"what", "Connection closed by remote peer"}};
    e.observations = {id, id + 1};
    e.folded = id * 1000;
    return e;
}

}  // namespace

class TestEventPack : public QObject {
    Q_OBJECT

private slots:
    void roundTripsEveryField()
    {
        std::vector<Event> events;
        for (std::uint64_t i = 0; i < 100; ++i)
            events.push_back(sample(i));
        Event extreme;  // defaults: NoTime, -1 GPU and rank, empty strings and maps
        events.push_back(extreme);
        extreme.id = std::numeric_limits<std::uint64_t>::max();
        extreme.gpu = std::numeric_limits<int>::min();
        extreme.rank = std::numeric_limits<int>::max();
        extreme.time = std::numeric_limits<TimeNs>::max();
        extreme.timeSource = TimeSource::None;
        extreme.node = std::string("a\0b", 3);  // bytes, not C strings
        extreme.attrs = {{"", ""}, {std::string(300, 'k'), std::string(70'000, 'v')}};
        extreme.folded = std::numeric_limits<std::uint64_t>::max();
        events.push_back(extreme);
        const PackedEvents packed(events);
        QCOMPARE(packed.size(), events.size());
        const auto back = packed.unpack();
        QCOMPARE(back.size(), events.size());
        for (std::size_t i = 0; i < events.size(); ++i)
            attrib::tests::compareEvents(back[i], events[i]);
        QCOMPARE(PackedEvents().unpack().size(), std::size_t(0));
    }

    void packedIsSmallerThanLive()
    {
        std::vector<Event> events;
        for (std::uint64_t i = 0; i < 1000; ++i)
            events.push_back(sample(i));
        const PackedEvents packed(events);
        // Smaller than the structs alone, before any of their strings or map nodes on the heap.
        QVERIFY2(packed.bytes() < events.size() * sizeof(Event), qPrintable(QString::number(packed.bytes())));
    }

    /// A large job's events repeat their fields with small changes: the pack deflates them (it is held at the
    /// analysis' memory peak), over many of its 64 KiB input blocks, and still gives every field back.
    void deflatesRepeatedFieldsOverManyBlocks()
    {
        std::vector<Event> events;
        for (std::uint64_t i = 0; i < 20'000; ++i)
            events.push_back(sample(i));
        const PackedEvents packed(events);
        // Undeflated, each event takes some 95 bytes here (its two attribute values alone are 48); deflated, 18.
        QVERIFY2(packed.bytes() < events.size() * 24, qPrintable(QString::number(packed.bytes())));
        const auto back = packed.unpack();
        QCOMPARE(back.size(), events.size());
        for (std::size_t i = 0; i < events.size(); i += 997)
            attrib::tests::compareEvents(back[i], events[i]);
        attrib::tests::compareEvents(back.back(), events.back());
    }
};

QTEST_APPLESS_MAIN(TestEventPack)
#include "tst_event_pack.moc"
