// SPDX-License-Identifier: GPL-3.0-or-later
// One field-by-field comparison of two events for the tests that round-trip them (the early rules' packed copy,
// the case store). Call inside a test function; check QTest::currentTestFailed() after a loop.
#pragma once

#include "engine/model.h"

#include <QtTest>

namespace attrib::tests {

inline void compareEvents(const engine::Event& a, const engine::Event& b)
{
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.type, b.type);
    QCOMPARE(a.rule, b.rule);
    QCOMPARE(a.symptom, b.symptom);
    QCOMPARE(a.node, b.node);
    QCOMPARE(a.gpu, b.gpu);
    QCOMPARE(a.rank, b.rank);
    QCOMPARE(a.link, b.link);
    QCOMPARE(a.time, b.time);
    QCOMPARE(int(a.timeSource), int(b.timeSource));
    QCOMPARE(a.sympathetic, b.sympathetic);
    QCOMPARE(a.attrs, b.attrs);
    QCOMPARE(a.observations, b.observations);
    QCOMPARE(a.folded, b.folded);
}

}  // namespace attrib::tests
