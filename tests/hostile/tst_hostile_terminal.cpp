// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile class "terminal": escape sequences, bidi overrides and newlines in log lines, node, file and workload
// names must not reach the terminal raw (no forged verdict line, no title change); invalid UTF-8 in names
// must not abort `analyze --json`, `eval` or `replay --json`; Markdown keeps one table row per field.
#include "../common/test_catalog.h"
#include "hostile_run.h"
#include "hostile_scratch.h"

#include "engine/report.h"
#include "engine/safe_text.h"
#include "importers/analyzer.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace attrib;
namespace fs = std::filesystem;

namespace {

const std::string Forge = "\x1b]0;owned\x07\x1b[2K\r\nVerdict:        user_error / configuration\x1b[8m";
const std::string Bidi = "\xe2\x80\xae"
                         "cod.exe";

/// The NVLink sample with escape sequences planted in every place a name or line reaches the report.
void writeEscapeBundle(const fs::path& dir)
{
    fs::copy(tests::samplePath("nvlink-xid149"), dir, fs::copy_options::recursive);
    fs::remove(dir / "expected.json");
    const fs::path dmesg = dir / "nodes" / "node-02" / "dmesg.txt";
    std::string text = tests::slurp(dmesg);
    const std::string xid = "Link 07 (0x02b425c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)";
    const auto at = text.find(xid);
    QVERIFY(at != std::string::npos);
    text.insert(at + xid.size(), Forge + Bidi);
    tests::writeFile(dmesg, text);
    std::string workload = tests::slurp(dir / "workload.json");
    const auto id = workload.find("\"1234567\"");
    workload.replace(id, 9, "\"12\\u001b]0;title\\u0007\\r\\nVerdict: user_error\"");
    tests::writeFile(dir / "workload.json", workload);
    tests::writeFile(dir / "nodes" / ("node-9\x1b[31m" + Bidi) / "kern.log",
                     "[Wed Apr 22 21:34:20 2026] NVRM: Xid (PCI:0000:61:00): 79, GPU has fallen off the bus.\x1b[0m\n");
    tests::writeFile(dir / ("broken\nVerdict: user_error\x1b[1m.log"), "\x1b[2J plain line\n");
}

}  // namespace

class TestHostileTerminal : public QObject {
    Q_OBJECT

private:
    tests::ScratchRoot m_tmp;

private Q_SLOTS:
    void initTestCase() { writeEscapeBundle(m_tmp.root() / "escapes"); }

    void neutraliserShowsEveryControl()
    {
        QCOMPARE(engine::terminalSafe("a\x1b[1mb\r\n\t\x7f"), std::string("a\\x1b[1mb\\r\\n\\t\\x7f"));
        QCOMPARE(engine::terminalSafe("\xe2\x80\xae"
                                      "x"),
                 std::string("\\u{202e}x"));
        QCOMPARE(engine::terminalSafe("\xc2\x9b"
                                      "31m"),
                 std::string("\\u{9b}31m"));
        QCOMPARE(engine::terminalSafe("bad\xff\xc3"), std::string("bad\\xff\\xc3"));
        QCOMPARE(engine::terminalSafe("GPU \xc3\xa9t\xc3\xa9"), std::string("GPU \xc3\xa9t\xc3\xa9"));
        QCOMPARE(engine::terminalSafeBlock("a\nb\tc\x1b"), std::string("a\nb\tc\\x1b"));
        QCOMPARE(engine::jsonReplaceInvalid("a\xff"), std::string("a\xef\xbf\xbd"));
        QCOMPARE(engine::xmlText("<a href='x'>\x01"), std::string("&lt;a href=&apos;x&apos;&gt;\\x01"));
        QCOMPARE(engine::markdownCode("a`b|c"), std::string("`` a`b\\|c ``"));
        QCOMPARE(engine::markdownText("![img](http://x)<b>"), std::string("\\!\\[img\\]\\(http\\://x\\)\\<b\\>"));
    }

    void analyzeTextHasNoRawControl()
    {
        const auto r = tests::analyzeLimited(m_tmp.root() / "escapes", m_tmp.root());
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        QVERIFY2(!tests::hasRawControl(r.out), r.out.c_str());
        QVERIFY2(!tests::hasRawControl(r.err), r.err.c_str());
        // The real verdict is printed once, and no line starts with a forged one.
        QVERIFY2(r.out.find("\nVerdict:        hardware_failure / nvlink") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("\nVerdict:        user_error") == std::string::npos, r.out.c_str());
        // Names carry their escapes shown visibly; a log line is read without them, and coverage says so.
        QVERIFY2(r.out.find("\\x1b]0;title\\x07") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("owned") == std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("read without their terminal colour codes") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("\\u{202e}") != std::string::npos, r.out.c_str());
    }

    void analyzeJsonKeepsExactEscaping()
    {
        const auto r = tests::analyzeLimited(m_tmp.root() / "escapes", m_tmp.root(), {"--json"});
        QVERIFY2(r.exitCode == 0, r.summary().c_str());
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["terminal_state"].get<std::string>(), std::string("hardware_failure"));
        QVERIFY2(r.out.find("\\u001b]0;title\\u0007") != std::string::npos, r.out.c_str());
    }

    void markdownKeepsOneRowPerField()
    {
        const auto outcome = importers::analyzeBundle((m_tmp.root() / "escapes").string(), tests::sourceCatalog());
        QVERIFY(outcome.result);
        const std::string md = engine::reportMarkdown(*outcome.result);
        QVERIFY(!tests::hasRawControl(md));
        std::istringstream lines(md);
        for (std::string line; std::getline(lines, line);) {
            QVERIFY2(line.rfind("Verdict", 0) != 0, line.c_str());
            if (line.rfind("| Evidence", 0) == 0)
                QVERIFY2(line.find("`` ") != std::string::npos || line.find("` ") != std::string::npos, line.c_str());
        }
    }

    void invalidUtf8NamesDoNotAbort()
    {
        const fs::path corpus = m_tmp.root() / "corpus";
        const fs::path bundle = corpus / "bad\xff\xfename";
        fs::create_directories(corpus);
        fs::copy(tests::samplePath("nvlink-xid149"), bundle, fs::copy_options::recursive);
        fs::rename(bundle / "nodes" / "node-02", bundle / "nodes" / "node-\xff\xc3");
        tests::writeFile(bundle / "nodes" / "node-03" / "odd\xc0\xafname.log", "line \xff\xfe\n");
        const auto json = tests::analyzeLimited(bundle, m_tmp.root(), {"--json"});
        QVERIFY2(json.exitCode == 0, json.summary().c_str());
        QVERIFY(!nlohmann::json::parse(json.out, nullptr, false).is_discarded());
        const auto text = tests::analyzeLimited(bundle, m_tmp.root());
        QVERIFY2(text.exitCode == 0 && !tests::hasRawControl(text.out), text.summary().c_str());
        const auto eval = tests::runLimited(ATTRIB_CLI, {"eval", corpus.string()}, m_tmp.root());
        QVERIFY2(eval.signal == 0 && (eval.exitCode == 0 || eval.exitCode == 1), eval.summary().c_str());
        QVERIFY2(eval.out.find("bad\\xff\\xfename") != std::string::npos, eval.out.c_str());
        const auto replay = tests::runLimited(
            ATTRIB_CLI, {"replay", corpus.string(), "--json", "--rules", ATTRIB_SOURCE_RULES_DIR}, m_tmp.root(), 120);
        QVERIFY2(replay.signal == 0 && replay.exitCode == 0, replay.summary().c_str());
        QVERIFY(!nlohmann::json::parse(replay.out, nullptr, false).is_discarded());
    }
};

QTEST_APPLESS_MAIN(TestHostileTerminal)
#include "tst_hostile_terminal.moc"
