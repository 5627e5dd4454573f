// SPDX-License-Identifier: GPL-3.0-or-later
// Tests every timestamp form of importers/timestamps.h, including offsets, fractions and garbage.
#include "importers/timestamps.h"

#include <QtTest>

using namespace attrib::importers;
using attrib::engine::NoTime;

namespace {

constexpr qint64 Sec = 1'000'000'000;

/// Shared columns: input, year (for year-less forms), whether it parses, expected UTC ns, bytes used.
void addColumns()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("year");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("expected");
    QTest::addColumn<int>("length");
}

void addRow(const char* name, const char* input, int year, bool valid, qint64 expected = 0, int length = 0)
{
    QTest::newRow(name) << QByteArray(input) << year << valid << expected << length;
}

void checkMatch(const std::optional<StampMatch>& match, bool expectYear)
{
    QFETCH(bool, valid);
    QCOMPARE(match.has_value(), valid);
    if (!valid)
        return;
    QFETCH(qint64, expected);
    QFETCH(int, length);
    QCOMPARE(match->time, expected);
    QCOMPARE(match->length, std::size_t(length));
    QCOMPARE(match->hasYear, expectYear);
}

std::string_view view(const QByteArray& bytes)
{
    return std::string_view(bytes.constData(), bytes.size());
}

}  // namespace

class TestTimestamps : public QObject {
    Q_OBJECT

private slots:
    void makeTimeKnownEpochs_data();
    void makeTimeKnownEpochs();
    void iso8601_data();
    void iso8601();
    void rfc3164_data();
    void rfc3164();
    void dmesgT_data();
    void dmesgT();
    void dmesgRaw_data();
    void dmesgRaw();
    void epochBracket_data();
    void epochBracket();
    void glog_data();
    void glog();
    void fabricManager_data();
    void fabricManager();
    void slashDate_data();
    void slashDate();
    void monthAbbrev_data();
    void monthAbbrev();
};

void TestTimestamps::makeTimeKnownEpochs_data()
{
    QTest::addColumn<QList<int>>("civil");
    QTest::addColumn<qint64>("seconds");
    QTest::newRow("epoch") << QList<int>{1970, 1, 1, 0, 0, 0} << qint64(0);
    QTest::newRow("before epoch") << QList<int>{1969, 12, 31, 23, 59, 59} << qint64(-1);
    QTest::newRow("leap day 2000") << QList<int>{2000, 2, 29, 12, 0, 0} << qint64(951825600);
    QTest::newRow("new year's eve") << QList<int>{2024, 12, 31, 23, 59, 59} << qint64(1735689599);
    QTest::newRow("2026") << QList<int>{2026, 4, 22, 21, 34, 20} << qint64(1776893660);
}

void TestTimestamps::makeTimeKnownEpochs()
{
    QFETCH(QList<int>, civil);
    QFETCH(qint64, seconds);
    QCOMPARE(makeTime(civil[0], civil[1], civil[2], civil[3], civil[4], civil[5]), seconds * Sec);
    QCOMPARE(makeTime(civil[0], civil[1], civil[2], civil[3], civil[4], civil[5], 42), seconds * Sec + 42);
    // civilTime inverts it, a fraction staying with its whole second (also before the epoch).
    for (const qint64 nanos : {qint64(0), qint64(42), qint64(999'999'999)}) {
        const attrib::engine::CivilTime c = attrib::engine::civilTime(seconds * Sec + nanos);
        QCOMPARE((QList<int>{c.year, c.month, c.day, c.hour, c.minute, c.second}), civil);
        QCOMPARE(qint64(c.nanos), nanos);
    }
}

void TestTimestamps::iso8601_data()
{
    addColumns();
    const qint64 base = 1776893660 * Sec;  // 2026-04-22T21:34:20Z
    addRow("T and Z", "2026-04-22T21:34:20Z", 0, true, base, 20);
    addRow("space, no zone is UTC", "2026-04-22 21:34:20 host", 0, true, base, 19);
    addRow("underscore (torchrun)", "2026-04-22_21:34:20", 0, true, base, 19);
    addRow("lower-case t and z", "2026-04-22t21:34:20z", 0, true, base, 20);
    addRow("micro + offset colon", "2026-04-22T21:34:20.123456+08:00 x", 0, true, base - Sec * 8 * 3600 + 123456000,
           32);
    addRow("journal short-iso", "2023-06-22T21:55:31.352446+08:00 host kernel:", 0, true, 1687442131 * Sec + 352446000,
           32);
    addRow("offset after a space", "2026-04-22 21:34:20.123 +08:00 [x]", 0, true, base - Sec * 8 * 3600 + 123000000,
           30);
    addRow("space then no zone", "2026-04-22 21:34:20 -x", 0, true, base, 19);
    addRow("one zone only", "2026-04-22T21:34:20Z +08:00", 0, true, base, 20);
    addRow("offset no colon", "2026-04-22T21:34:20-0530", 0, true, base + (5 * 3600 + 1800) * Sec, 24);
    addRow("comma millis (python)", "2026-04-22 21:34:20,123] x", 0, true, base + 123000000, 23);
    addRow("nanoseconds", "2026-04-22T21:34:20.123456789Z", 0, true, base + 123456789, 30);
    addRow("extra digits dropped", "2026-04-22T21:34:20.1234567891Z", 0, true, base + 123456789, 31);
    addRow("short offset is not a zone", "2026-04-22T21:34:20+8 x", 0, true, base, 19);
    addRow("bad offset hour ignored", "2026-04-22T21:34:20+25:00", 0, true, base, 19);
    addRow("dot without digits", "2026-04-22T21:34:20. x", 0, true, base, 19);
    addRow("leap day", "2024-02-29T00:00:00Z", 0, true, makeTime(2024, 2, 29, 0, 0, 0), 20);
    addRow("no leap day 2025", "2025-02-29T00:00:00Z", 0, false);
    addRow("month 13", "2026-13-22T21:34:20Z", 0, false);
    addRow("month 0", "2026-00-22T21:34:20Z", 0, false);
    addRow("April 31", "2026-04-31T21:34:20Z", 0, false);
    addRow("hour 24", "2026-04-22T24:00:00Z", 0, false);
    addRow("minute 60", "2026-04-22T21:60:00Z", 0, false);
    addRow("bad separator", "2026-04-22X21:34:20Z", 0, false);
    addRow("date only", "2026-04-22", 0, false);
    addRow("no seconds", "2026-04-22T21:34", 0, false);
    addRow("unpadded month", "2026-4-22T21:34:20", 0, false);
    addRow("empty", "", 0, false);
    addRow("garbage", "not a time at all", 0, false);
}

void TestTimestamps::iso8601()
{
    QFETCH(QByteArray, input);
    checkMatch(parseIso8601(view(input)), true);
}

void TestTimestamps::rfc3164_data()
{
    addColumns();
    addRow("two-digit day", "Apr 22 21:34:20 host kernel: x", 2026, true, 1776893660 * Sec, 15);
    addRow("space-padded day", "Dec  6 19:25:33 at7tj000004 systemd", 2024, true, makeTime(2024, 12, 6, 19, 25, 33),
           15);
    addRow("unpadded day", "Dec 6 19:25:33 host", 2024, true, makeTime(2024, 12, 6, 19, 25, 33), 14);
    addRow("zero-padded day", "Apr 08 03:37:03 host", 2026, true, makeTime(2026, 4, 8, 3, 37, 3), 15);
    addRow("short-precise fraction", "Apr 08 03:37:03.834962 3444994", 2026, true,
           makeTime(2026, 4, 8, 3, 37, 3, 834962000), 22);
    addRow("year applied", "Jan  1 00:00:00", 1970, true, 0, 15);
    addRow("Feb 29 leap year", "Feb 29 10:00:00", 2024, true, makeTime(2024, 2, 29, 10, 0, 0), 15);
    addRow("Feb 29 common year", "Feb 29 10:00:00", 2025, false);
    addRow("bad month", "Foo 22 21:34:20 host", 2026, false);
    // journalctl and syslog in other locales print strftime's %b there (glibc abmon tables).
    addRow("French nov.", "nov. 11 20:28:56 surface kernel: x", 2025, true, makeTime(2025, 11, 11, 20, 28, 56), 16);
    addRow("French dec. (accented)",
           "d\xc3\xa9"
           "c. 03 10:00:00 h",
           2025, true, makeTime(2025, 12, 3, 10, 0, 0), 17);
    addRow("French mars", "mars 03 10:00:00 h", 2025, true, makeTime(2025, 3, 3, 10, 0, 0), 16);
    addRow("German Dez", "Dez 24 08:00:01 host", 2025, true, makeTime(2025, 12, 24, 8, 0, 1), 15);
    addRow("Spanish sept.", "sept. 09 08:00:01 host", 2025, true, makeTime(2025, 9, 9, 8, 0, 1), 17);
    addRow("Russian", "\xd0\xbd\xd0\xbe\xd1\x8f 11 20:28:56 h", 2025, true, makeTime(2025, 11, 11, 20, 28, 56), 18);
    addRow("Chinese", "11\xe6\x9c\x88 11 20:28:56 h", 2025, true, makeTime(2025, 11, 11, 20, 28, 56), 17);
    addRow("Korean", "3\xec\x9b\x94 02 20:28:56 h", 2025, true, makeTime(2025, 3, 2, 20, 28, 56), 16);
    addRow("month 13", "13\xe6\x9c\x88 11 20:28:56 h", 2025, false);
    addRow("a word that starts like a month", "marsh 03 10:00:00 h", 2025, false);
    addRow("a number without the month mark", "11 11 20:28:56 h", 2025, false);
    addRow("April 31", "Apr 31 21:34:20 host", 2026, false);
    addRow("day 0", "Apr  0 21:34:20 host", 2026, false);
    addRow("hour 25", "Apr 22 25:34:20 host", 2026, false);
    addRow("missing space", "Apr22 21:34:20", 2026, false);
    addRow("truncated", "Apr 22 21:34", 2026, false);
    addRow("empty", "", 2026, false);
}

void TestTimestamps::rfc3164()
{
    QFETCH(QByteArray, input);
    QFETCH(int, year);
    checkMatch(parseRfc3164(view(input), year), false);
}

void TestTimestamps::dmesgT_data()
{
    addColumns();
    addRow("domain example", "[Sun Feb 23 16:24:18 2025] NVRM: Xid", 0, true, 1740327858 * Sec, 26);
    addRow("space-padded day", "[Mon Mar  3 01:02:03 2025] x", 0, true, makeTime(2025, 3, 3, 1, 2, 3), 26);
    addRow("bad weekday", "[Xyz Feb 23 16:24:18 2025] x", 0, false);
    addRow("Feb 30", "[Sun Feb 30 16:24:18 2025] x", 0, false);
    addRow("no closing bracket", "[Sun Feb 23 16:24:18 2025 x", 0, false);
    addRow("no year", "[Sun Feb 23 16:24:18] x", 0, false);
    addRow("hour 24", "[Sun Feb 23 24:24:18 2025] x", 0, false);
    addRow("raw stamp", "[ 1843.308145] x", 0, false);
    addRow("empty", "", 0, false);
}

void TestTimestamps::dmesgT()
{
    QFETCH(QByteArray, input);
    checkMatch(parseDmesgT(view(input)), true);
}

void TestTimestamps::dmesgRaw_data()
{
    addColumns();
    addRow("padded", "[ 1843.308145] NVRM", 0, true, 1843 * Sec + 308145000, 14);
    addRow("large uptime", "[171167.620236] NVRM", 0, true, 171167 * Sec + 620236000, 15);
    addRow("boot", "[    0.000000] Linux version", 0, true, 0, 14);
    addRow("nanosecond digits", "[12.123456789]", 0, true, 12 * Sec + 123456789, 14);
    addRow("no fraction", "[1843] x", 0, false);
    addRow("letters", "[ abc.123] x", 0, false);
    addRow("unterminated", "[1843.308145 x", 0, false);
    addRow("no bracket", "1843.308145] x", 0, false);
    addRow("rank prefix", "[rank0]: x", 0, false);
    addRow("negative", "[-5.000000] x", 0, false);
    addRow("too many digits", "[123456789012.000000] x", 0, false);
    addRow("unix time is no uptime", "[1701292112.829711] [a670n1:162239:0] x", 0, false);
    addRow("empty", "", 0, false);
}

void TestTimestamps::dmesgRaw()
{
    QFETCH(QByteArray, input);
    checkMatch(parseDmesgRaw(view(input)), false);
}

void TestTimestamps::epochBracket_data()
{
    addColumns();
    // UCX's log prefix (ucs/debug/log.c); osu_bw run of tests/real/comm_library-ucx-gpudirect-local-protection-osu-bw.
    addRow("ucx", "[1701292112.829711] [a670n1:162239:0] x", 0, true, makeTime(2023, 11, 29, 21, 8, 32, 829711000), 19);
    addRow("lowest", "[1000000000.0]", 0, true, makeTime(2001, 9, 9, 1, 46, 40), 14);
    addRow("uptime", "[ 1843.308145] NVRM", 0, false);
    addRow("too late", "[4000000000.000000] x", 0, false);
    addRow("no fraction", "[1701292112] x", 0, false);
}

void TestTimestamps::epochBracket()
{
    QFETCH(QByteArray, input);
    checkMatch(parseEpochBracket(view(input)), true);
}

void TestTimestamps::glog_data()
{
    addColumns();
    const qint64 dec6 = makeTime(2024, 12, 6, 18, 44, 12);
    addRow("c10 nanoseconds", "E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607]", 2024, true, dec6 + 715298746, 24);
    addRow("with bracket", "[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607]", 2024, true, dec6 + 715298746, 25);
    addRow("unpadded month", "[E321 02:07:08.408271257 x", 2025, true, makeTime(2025, 3, 21, 2, 7, 8, 408271257), 24);
    addRow("glog micro", "I0325 20:57:27.620000 2606 api.py:869]", 2025, true,
           makeTime(2025, 3, 25, 20, 57, 27, 620000000), 21);
    addRow("no fraction", "[W1111 17:10:53] x", 2024, true, makeTime(2024, 11, 11, 17, 10, 53), 15);
    addRow("fatal level", "F0101 00:00:00.5", 2026, true, makeTime(2026, 1, 1, 0, 0, 0, 500000000), 16);
    addRow("bad level", "X1206 18:44:12.7", 2024, false);
    addRow("month 13", "E1306 18:44:12.7", 2024, false);
    addRow("day 32", "E1232 18:44:12.7", 2024, false);
    addRow("too few digits", "E12 18:44:12.7", 2024, false);
    addRow("too many digits", "E12066 18:44:12.7", 2024, false);
    addRow("hour 25", "E1206 25:44:12.7", 2024, false);
    addRow("no stamp (old c10)", "[E ProcessGroupNCCL.cpp:737]", 2024, false);
    addRow("Feb 29 common year", "E0229 00:00:00", 2025, false);
    addRow("empty", "", 2024, false);
}

void TestTimestamps::glog()
{
    QFETCH(QByteArray, input);
    QFETCH(int, year);
    checkMatch(parseGlog(view(input), year), false);
}

void TestTimestamps::fabricManager_data()
{
    addColumns();
    addRow("domain example", "[Jul 23 2024 07:53:55] [ERROR] [tid 841] x", 0, true, 1721721235 * Sec, 22);
    addRow("zero-padded day", "[Jul 09 2024 18:14:07] [ERROR]", 0, true, makeTime(2024, 7, 9, 18, 14, 7), 22);
    addRow("bad day", "[Jul 32 2024 07:53:55]", 0, false);
    addRow("two-digit year", "[Jul 23 24 07:53:55]", 0, false);
    addRow("bad month", "[Foo 23 2024 07:53:55]", 0, false);
    addRow("no closing bracket", "[Jul 23 2024 07:53:55 x", 0, false);
    addRow("dmesg -T", "[Sun Feb 23 16:24:18 2025]", 0, false);
}

void TestTimestamps::fabricManager()
{
    QFETCH(QByteArray, input);
    checkMatch(parseFabricManager(view(input)), true);
}

void TestTimestamps::slashDate_data()
{
    addColumns();  // `year` holds the ShortYear: 0 last (strftime's %x), 1 first (log4j's yy/MM/dd)
    addRow("PBS daemon log", "06/18/2024 10:22:33;0008;PBS_Server", 0, true, makeTime(2024, 6, 18, 10, 22, 33), 19);
    addRow("four-digit year ignores order", "06/18/2024 10:22:33", 1, true, makeTime(2024, 6, 18, 10, 22, 33), 19);
    addRow("C locale %x %X", "12/03/24 14:22:05] ERROR", 0, true, makeTime(2024, 12, 3, 14, 22, 5), 17);
    addRow("log4j yy/MM/dd", "21/01/15 18:40:27 WARN", 1, true, makeTime(2021, 1, 15, 18, 40, 27), 17);
    addRow("fraction", "06/18/2024 10:22:33.250 x", 0, true, makeTime(2024, 6, 18, 10, 22, 33, 250000000), 23);
    addRow("day first when month cannot be", "25/12/2023 08:00:00", 0, true, makeTime(2023, 12, 25, 8, 0, 0), 19);
    addRow("TensorRT logger %m/%d/%Y-%H:%M:%S", "12/06/2026-10:11:12] [TRT] [E] x", 0, true,
           makeTime(2026, 12, 6, 10, 11, 12), 19);
    addRow("dash after a two-digit year", "12/06/26-10:11:12", 0, false);
    addRow("both over 12", "25/13/2023 08:00:00", 0, false);
    addRow("Feb 30", "02/30/2024 08:00:00", 0, false);
    addRow("log4j month 13", "21/13/15 18:40:27", 1, false);
    addRow("three-digit year", "02/03/202 08:00:00", 0, false);
    addRow("no time", "02/03/2024 x", 0, false);
    addRow("single-digit month", "2/03/2024 08:00:00", 0, false);
    addRow("bad clock", "02/03/2024 25:00:00", 0, false);
}

void TestTimestamps::slashDate()
{
    QFETCH(QByteArray, input);
    QFETCH(int, year);
    checkMatch(parseSlashDate(view(input), year == 0 ? ShortYear::Last : ShortYear::First), true);
}

void TestTimestamps::monthAbbrev_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<int>("month");
    QTest::newRow("Jan") << QByteArray("Jan") << 1;
    QTest::newRow("Dec") << QByteArray("Dec") << 12;
    QTest::newRow("lower") << QByteArray("sep") << 9;
    QTest::newRow("upper") << QByteArray("MAY") << 5;
    QTest::newRow("too long") << QByteArray("Janu") << 0;
    QTest::newRow("too short") << QByteArray("Ja") << 0;
    QTest::newRow("unknown") << QByteArray("Xyz") << 0;
    QTest::newRow("empty") << QByteArray() << 0;
}

void TestTimestamps::monthAbbrev()
{
    QFETCH(QByteArray, name);
    QFETCH(int, month);
    QCOMPARE(monthFromAbbrev(view(name)), month);
}

QTEST_APPLESS_MAIN(TestTimestamps)
#include "tst_timestamps.moc"
