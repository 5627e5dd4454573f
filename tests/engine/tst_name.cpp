// SPDX-License-Identifier: GPL-3.0-or-later
// Name (engine/name.h): equal text is one interned string whatever the source type or thread, comparisons and
// ordering follow the text, and a name reads back as the text it was made from.
#include "engine/model.h"  // Name; moc cannot parse <compare> as the first header it reads (name.h alone)

#include <QThread>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using attrib::engine::Name;

class TestName : public QObject {
    Q_OBJECT

private slots:
    void equalTextIsOneString()
    {
        const std::string built = std::string("nccl_") + "socket_closed";
        const Name a("nccl_socket_closed");
        const Name b(built);
        const Name c{std::string_view(built)};
        QCOMPARE(&a.str(), &b.str());
        QCOMPARE(&b.str(), &c.str());
        QVERIFY(a == b);
        QVERIFY(a == "nccl_socket_closed");
        QVERIFY(a == built);
        QVERIFY(!(a == Name("nccl_socket_closed ")));
        QVERIFY(a != Name("nccl_socket"));
    }

    void emptyAndClear()
    {
        Name n("xid");
        QVERIFY(!n.empty());
        n.clear();
        QVERIFY(n.empty());
        QVERIFY(n == Name());
        QVERIFY(n == Name(""));
        QCOMPARE(n.size(), std::size_t{0});
    }

    void orderFollowsTheText()
    {
        // Interned in the opposite order of the text: the order must not follow addresses or insertion.
        std::vector<Name> names{Name("zeta_rule"), Name("mid_rule"), Name("alpha_rule")};
        std::sort(names.begin(), names.end());
        QCOMPARE(names[0].str(), std::string("alpha_rule"));
        QCOMPARE(names[1].str(), std::string("mid_rule"));
        QCOMPARE(names[2].str(), std::string("zeta_rule"));
        QVERIFY(Name("a") < Name("b"));
        QVERIFY(!(Name("b") < Name("b")));
    }

    void readsBackAsText()
    {
        const Name n("node-0598");
        QCOMPARE(std::string("on ") + n, std::string("on node-0598"));
        QCOMPARE(n + "/gpu6", std::string("node-0598/gpu6"));
        const std::string& ref = n;
        QCOMPARE(ref, std::string("node-0598"));
        nlohmann::json j = nlohmann::json::object();
        j["node"] = n;
        QCOMPARE(j.dump(), std::string(R"({"node":"node-0598"})"));
    }

    void threadsInternToTheSameString()
    {
        // Two threads (the analysis reads files on several) intern the same new texts at once.
        constexpr int Count = 2000;
        std::vector<const std::string*> first(Count);
        std::vector<const std::string*> second(Count);
        auto run = [](std::vector<const std::string*>& out) {
            for (int i = 0; i < Count; ++i)
                out[static_cast<std::size_t>(i)] = &Name("thread-name-" + std::to_string(i)).str();
        };
        std::unique_ptr<QThread> a(QThread::create(run, std::ref(first)));
        std::unique_ptr<QThread> b(QThread::create(run, std::ref(second)));
        a->start();
        b->start();
        QVERIFY(a->wait());
        QVERIFY(b->wait());
        QVERIFY(first == second);
        QCOMPARE(*first[1234], std::string("thread-name-1234"));
    }
};

QTEST_APPLESS_MAIN(TestName)
#include "tst_name.moc"
