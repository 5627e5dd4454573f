// SPDX-License-Identifier: GPL-3.0-or-later
// AttrMap (events' and symptoms' fields in one sorted vector) behaves like the std::map it replaced: key order,
// insert-if-absent, lookups that miss, at() that throws, and the same walk order as a std::map of the same pairs.
#include "engine/attr_map.h"

#include <QtTest>

#include <map>
#include <stdexcept>

using namespace attrib::engine;

class TestAttrMap : public QObject {
    Q_OBJECT

private slots:
    void iteratesInKeyOrderWhateverTheInsertOrder()
    {
        AttrMap m;
        m["xid"] = "79";
        m.emplace("pci", "0000:3b:00.0");
        m.emplace("Busid", "3b");
        m["gpu"] = "6";
        std::map<std::string, std::string> reference{
            {"xid", "79"}, {"pci", "0000:3b:00.0"}, {"Busid", "3b"}, {"gpu", "6"}};
        QCOMPARE(m.size(), reference.size());
        auto it = reference.begin();
        for (const auto& [key, value] : m) {
            QCOMPARE(key, it->first);
            QCOMPARE(value, it->second);
            ++it;
        }
        QCOMPARE(m.toMap(), reference);
        QVERIFY(AttrMap(reference) == m);
    }

    void emplaceKeepsTheFirstValueAndSubscriptAssigns()
    {
        AttrMap m;
        QVERIFY(m.emplace("node", "n1").second);
        const auto [it, inserted] = m.emplace("node", "n2");
        QVERIFY(!inserted);
        QCOMPARE(it->second, std::string("n1"));
        m["node"] = "n4";
        m["rank"] = "3";
        QCOMPARE(m.at("node"), std::string("n4"));
        QCOMPARE(m.size(), std::size_t(2));
    }

    void missesAreMissesNotInserts()
    {
        const AttrMap m{{"a", "1"}, {"c", "3"}};
        QVERIFY(m.find("b") == m.end());
        QVERIFY(m.find("") == m.end());
        QVERIFY(m.find("cc") == m.end());
        QCOMPARE(m.count("a"), std::size_t(1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)m.at("b"));
        QCOMPARE(m.size(), std::size_t(2));
    }

    void subscriptInsertsAnEmptyValueInOrder()
    {
        AttrMap m{{"b", "2"}};
        QVERIFY(m["a"].empty());
        QCOMPARE(m.begin()->first, std::string("a"));
        QCOMPARE(m.size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestAttrMap)
#include "tst_attr_map.moc"
