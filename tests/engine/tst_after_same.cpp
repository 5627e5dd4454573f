// SPDX-License-Identifier: GPL-3.0-or-later
// An extractor's `after` with `same`: a later line decides only a held line that names the same thing.
#include "../common/test_catalog.h"

#include "engine/catalog.h"
#include "engine/extractor.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

namespace fs = std::filesystem;
using namespace attrib;

namespace {

const char* const Rules = R"json({"kind": "extractors", "rules": [
  {"id": "t_stall", "sources": ["app"], "event": "stall",
   "pattern": "t-server (?P<server>\\w+) not responding",
   "after": {"pattern": "t-server (?P<server>\\w+) OK", "within": 200, "absent": true, "same": ["server"]},
   "cases": [{"line": "t-server a not responding", "fields": {"server": "a"}},
             {"line": "t-server a not responding", "after": "t-server b OK", "fields": {"server": "a"}},
             {"line": "t-server a not responding", "after": "t-server a OK", "match": false}]},
  {"id": "t_lost", "sources": ["app"], "event": "lost",
   "pattern": "t-link lost(?: to (?P<peer>\\w+))?",
   "after": {"pattern": "t-link restored(?: to (?P<peer>\\w+))?", "within": 200, "absent": true, "same": ["peer"]},
   "cases": [{"line": "t-link lost to p1"}, {"line": "t-link lost", "after": "t-link restored to p9", "match": false}]},
  {"id": "t_same_not_captured", "sources": ["app"], "event": "x", "pattern": "t-x (?P<server>\\w+)",
   "after": {"pattern": "t-y", "absent": true, "same": ["server"]},
   "cases": [{"line": "t-x a"}, {"line": "t-x a", "after": "t-y", "match": false}]},
  {"id": "t_same_empty", "sources": ["app"], "event": "x", "pattern": "t-x (?P<server>\\w+)",
   "after": {"pattern": "t-y (?P<server>\\w+)", "absent": true, "same": []},
   "cases": [{"line": "t-x a"}, {"line": "t-x a", "after": "t-y a", "match": false}]},
  {"id": "t_same_not_list", "sources": ["app"], "event": "x", "pattern": "t-x (?P<server>\\w+)",
   "after": {"pattern": "t-y (?P<server>\\w+)", "absent": true, "same": "server"},
   "cases": [{"line": "t-x a"}, {"line": "t-x a", "after": "t-y a", "match": false}]},
  {"id": "t_case_ignores_same", "sources": ["app"], "event": "x", "pattern": "t-z (?P<server>\\w+) down",
   "after": {"pattern": "t-z (?P<server>\\w+) up", "absent": true, "same": ["server"]},
   "cases": [{"line": "t-z a down"}, {"line": "t-z a down", "after": "t-z b up", "match": false}]}
]}
)json";

}  // namespace

class TestAfterSame : public QObject {
    Q_OBJECT

    engine::CatalogPtr m_catalog;

    const engine::Diagnostic* diagnostic(const std::string& rule) const
    {
        for (const auto& d : m_catalog->diagnostics())
            if (d.rule == rule)
                return &d;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "rules";
        fs::copy(ATTRIB_SOURCE_RULES_DIR, root, fs::copy_options::recursive);
        tests::writeFile(root / "extractors" / "after_same.json", Rules);
        m_catalog = rules::loadCatalog(root.string());
        QVERIFY(m_catalog);
    }

    /// The loader takes `same` naming captures of both patterns, and refuses one the later line cannot capture, an
    /// empty list and a list that is not one; a case whose later line names another thing still matches, so a case
    /// claiming it cancels fails.
    void loaderChecksSame()
    {
        for (const char* id : {"t_stall", "t_lost"}) {
            const auto* d = diagnostic(id);
            QVERIFY2(!d, d ? d->message.c_str() : id);
        }
        const auto* notCaptured = diagnostic("t_same_not_captured");
        QVERIFY(notCaptured);
        QVERIFY2(notCaptured->message.find("'same' names 'server'") != std::string::npos, notCaptured->message.c_str());
        for (const char* id : {"t_same_empty", "t_same_not_list"}) {
            const auto* d = diagnostic(id);
            QVERIFY2(d && d->message.find("\"same\": [CAPTURE...]") != std::string::npos, id);
        }
        const auto* failing = diagnostic("t_case_ignores_same");
        QVERIFY(failing);
        QVERIFY2(failing->message.find("line must not match but does") != std::string::npos, failing->message.c_str());
    }

    /// A file's lines through one memory: `t-server b OK` does not cancel server a's stall, `t-server a OK` does; a
    /// held line that lacks the capture is cancelled by any later line (it cannot tell which thing it named).
    void laterLineDecidesOnlyTheSameThing()
    {
        engine::ContextMemory memory;
        std::vector<engine::LineMatch> found;
        std::vector<std::string> decided;
        const auto feed = [&](const std::string& line) {
            ++memory.line;
            memory.tag = memory.line;
            found.clear();
            m_catalog->extractorSet().match(engine::SourceKind::App, line, found, &memory);
        };
        feed("t-server a not responding");  // 1
        feed("t-server b not responding");  // 2
        feed("t-server b OK");              // 3: cancels 2 only
        feed("t-server c not responding");  // 4
        feed("t-server a OK");              // 5: cancels 1
        feed("t-link lost");                // 6: no peer named
        feed("t-link restored to p2");      // 7: cancels 6
        feed("t-link lost to p1");          // 8
        feed("t-link restored to p2");      // 9: not p1
        memory.finish();
        for (const auto& p : memory.takeResolved()) {
            const auto id = p.match.rule->id;
            if (id != "t_stall" && id != "t_lost")
                continue;  // the catalog's own rules read these lines too
            decided.push_back(id + "@" + std::to_string(p.line));
        }
        const std::vector<std::string> expected{"t_stall@4", "t_lost@8"};
        QCOMPARE(decided, expected);
    }
};

QTEST_APPLESS_MAIN(TestAfterSame)
#include "tst_after_same.moc"
