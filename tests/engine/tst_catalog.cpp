// SPDX-License-Identifier: GPL-3.0-or-later
// Catalog loading: diagnostics with file and line, bad rules left out, the rest still loads.
#include "../common/test_catalog.h"

#include "catalog_fixtures.h"
#include "engine/catalog.h"
#include "engine/extractor.h"
#include "engine/trace_why.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

namespace fs = std::filesystem;
using namespace attrib;

class TestCatalog : public QObject {
    Q_OBJECT

private:
    /// A copy of the source catalog in a temp dir, for breaking on purpose.
    fs::path copyCatalog(QTemporaryDir& dir)
    {
        const fs::path root = dir.path().toStdString();
        fs::copy(ATTRIB_SOURCE_RULES_DIR, root / "rules", fs::copy_options::recursive);
        return root / "rules";
    }

    /// The source catalog plus one file at `relative` (below the catalog folder) holding `text`, loaded.
    engine::CatalogPtr catalogWithFile(const fs::path& relative, const std::string& text)
    {
        QTemporaryDir dir;
        const fs::path root = copyCatalog(dir);
        tests::writeFile(root / relative, text);
        return rules::loadCatalog(root.string());
    }

    /// The source catalog plus one extractor file holding `rules` (a JSON array), loaded.
    engine::CatalogPtr catalogWithExtractors(const char* file, const std::string& rules)
    {
        return catalogWithFile(fs::path("extractors") / file, R"({"kind": "extractors", "rules": )" + rules + "}\n");
    }

    bool loaded(const engine::Catalog& c, const std::string& rule)
    {
        const auto& all = c.extractors();
        return std::any_of(all.begin(), all.end(), [&](const auto& r) { return r.id == rule; });
    }

    const engine::Diagnostic* findDiagnostic(const engine::Catalog& c, const std::string& rule)
    {
        for (const auto& d : c.diagnostics())
            if (d.rule == rule)
                return &d;
        return nullptr;
    }

private Q_SLOTS:
    void sourceCatalogIsClean()
    {
        const auto cat = tests::sourceCatalog();
        for (const auto& d : cat->diagnostics())
            qWarning("%s", d.str().c_str());
        QVERIFY(cat->diagnostics().empty());
        QCOMPARE(cat->casesFailed(), std::size_t(0));
        QVERIFY(cat->casesPassed() >= 40);
        QVERIFY(cat->symptom("nvlink_signal_integrity"));
        QVERIFY(cat->priorityTable("gb200"));
        QCOMPARE(cat->priorityTable("unknown-platform")->id, std::string("DefaultPriorityRootCause"));
        QVERIFY(!cat->hash().empty());
    }

    void invalidRegexLeavesRuleOutAndNamesFileAndLine()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "broken.json", fixtures::BrokenRegexRules);
        const auto* d = findDiagnostic(*cat, "bad_rule");
        QVERIFY(d);
        QCOMPARE(d->where.file, std::string("extractors/broken.json"));
        QCOMPARE(d->where.line, 7);
        QVERIFY(d->message.find("invalid pattern") != std::string::npos);
        QVERIFY(loaded(*cat, "good_rule"));
        QVERIFY(!loaded(*cat, "bad_rule"));
        QVERIFY(cat->extractors().size() > 10);  // the rest of the catalog still loads
    }

    void rawControlCharacterInPatternLeavesRuleOut()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "raw.json", fixtures::RawControlRules);
        const auto* newline = findDiagnostic(*cat, "newline_rule");
        QVERIFY(newline);
        QCOMPARE(newline->where.file, std::string("extractors/raw.json"));
        QCOMPARE(newline->where.line, 6);
        QVERIFY(newline->message.find("raw control character (byte 0x0a at offset 7)") != std::string::npos);
        const auto* tab = findDiagnostic(*cat, "tab_exclude_rule");
        QVERIFY(tab);
        QVERIFY(tab->message.find("exclude pattern holds a raw control character (byte 0x09") != std::string::npos);
        QVERIFY(!findDiagnostic(*cat, "kept_rule"));
        QVERIFY(loaded(*cat, "kept_rule"));
        QVERIFY(!loaded(*cat, "newline_rule"));
        QVERIFY(!loaded(*cat, "tab_exclude_rule"));
    }

    /// A file whose entries sit under a misspelt key loaded nothing and passed every check: now it is an error
    /// that names the file.
    void fileWithoutItsArrayIsAnError()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "misspelt.json",
                                         "{\"kind\": \"extractors\", \"extractors\": [{\"id\": \"x\"}]}\n");
        const auto& all = cat->diagnostics();
        const auto it = std::find_if(all.begin(), all.end(), [](const engine::Diagnostic& d) {
            return d.where.file == "extractors/misspelt.json" &&
                d.message.find("no 'rules' array") != std::string::npos;
        });
        QVERIFY(it != all.end());
        QCOMPARE(it->severity, engine::Diagnostic::Severity::Error);
    }

    void failingCaseLeavesRuleOut()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "wrong.json", fixtures::WrongCaseRules);
        const auto* d = findDiagnostic(*cat, "wrong_case");
        QVERIFY(d);
        QCOMPARE(d->where.line, 3);
        QVERIFY(d->message.find("expected 'sdb' but got 'sda'") != std::string::npos);
        QVERIFY(cat->casesFailed() >= 1);
    }

    void invalidJsonNamesLine()
    {
        const auto cat =
            catalogWithFile(fs::path("refine") / "typo.json", "{\n  \"kind\": \"refine\",\n  \"rules\": [,]\n}\n");
        bool found = false;
        for (const auto& d : cat->diagnostics())
            if (d.where.file == "refine/typo.json" && d.where.line == 3)
                found = true;
        QVERIFY(found);
        QVERIFY(!cat->refineRules().empty());
    }

    void unregisteredSymptomIsAnError()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "ghost.json", fixtures::GhostSymptomRules);
        const auto* d = findDiagnostic(*cat, "ghost");
        QVERIFY(d);
        QVERIFY(d->message.find("unregistered symptom") != std::string::npos);
    }

    void caseSourceMustBeAnAddress()
    {
        const auto cat = catalogWithFile(fs::path("extractors") / "sourced.json", fixtures::CaseSourceRules);
        const auto* d = findDiagnostic(*cat, "bad_source");
        QVERIFY(d);
        QCOMPARE(d->where.line, 5);
        QVERIFY(d->message.find("case source must be an http(s) address") != std::string::npos);
        QVERIFY(!findDiagnostic(*cat, "sourced"));
        QVERIFY(loaded(*cat, "sourced"));
        QVERIFY(!loaded(*cat, "bad_source"));
    }

    void capturesNamedLikeEngineValuesAreRejected()
    {
        // {count} in a summary is the engine's occurrence count: a capture of that name would be silently hidden.
        const auto cat = catalogWithExtractors("reserved.json", R"json([
  {"id": "shadowed_count", "sources": ["app"], "pattern": "(?P<count>\\d+) errors", "cases": [{"line": "3 errors"}]},
  {"id": "shadowed_name", "sources": ["app"], "pattern": "host (?P<name__b>\\w+) down", "cases": [{"line": "host a down"}]},
  {"id": "fine", "sources": ["app"], "pattern": "(?P<amount>\\d+) errors", "cases": [{"line": "3 errors"}]}
]
)json");
        const auto* count = findDiagnostic(*cat, "shadowed_count");
        QVERIFY(count);
        QVERIFY2(count->message.find("named group 'count'") != std::string::npos, count->message.c_str());
        const auto* name = findDiagnostic(*cat, "shadowed_name");
        QVERIFY(name);
        QVERIFY2(name->message.find("{name} is the engine's own template value") != std::string::npos,
                 name->message.c_str());
        QVERIFY(!findDiagnostic(*cat, "fine"));
        bool fine = false;
        for (const auto& r : cat->extractors()) {
            QVERIFY(r.id != "shadowed_count" && r.id != "shadowed_name");  // left out
            fine = fine || r.id == "fine";
        }
        QVERIFY(fine);
    }

    void numericConditionsOnCaptures()
    {
        const auto cat = catalogWithExtractors("numbers.json", R"json([
  {"id": "hot_gpu", "sources": ["app"], "event": "hot",
   "pattern": "GPU (?P<gpu>\\d+) temp (?P<temp>-?\\d+(?:\\.\\d+)?) C",
   "require": {"temp": ">= 90"},
   "cases": [{"line": "GPU 3 temp 94 C", "fields": {"gpu": "3", "temp": "94"}},
             {"line": "GPU 3 temp 71 C", "match": false}]},
  {"id": "bad_op", "sources": ["app"], "pattern": "fan (?P<fan>\\d+)",
   "require": {"fan": "about 10"}, "cases": [{"line": "fan 5"}]},
  {"id": "no_group", "sources": ["app"], "pattern": "fan (?P<fan>\\d+)",
   "require": {"rpm": "< 10"}, "cases": [{"line": "fan 5"}]},
  {"id": "past_own_limit", "sources": ["app"], "event": "over",
   "pattern": "(?P<sensor>\\w+) \\| (?P<reading>\\S+) \\| (?P<crit>\\S+)",
   "require": {"reading": "> crit"},
   "cases": [{"line": "Inlet | 46.000 | 40.000"}, {"line": "Inlet | 23.000 | 40.000", "match": false}]},
  {"id": "no_bound_group", "sources": ["app"], "pattern": "fan (?P<fan>\\d+)",
   "require": {"fan": "< minimum"}, "cases": [{"line": "fan 5"}]}
]
)json");
        const auto* op = findDiagnostic(*cat, "bad_op");
        QVERIFY(op);
        QVERIFY2(op->message.find("expected \"OP NUMBER\"") != std::string::npos, op->message.c_str());
        QCOMPARE(op->where.line, 8);  // the line of its "require"
        const auto* group = findDiagnostic(*cat, "no_group");
        QVERIFY(group);
        QVERIFY2(group->message.find("no named group 'rpm'") != std::string::npos, group->message.c_str());
        const auto* bound = findDiagnostic(*cat, "no_bound_group");
        QVERIFY(bound);
        QVERIFY2(bound->message.find("no named group 'minimum'") != std::string::npos, bound->message.c_str());
        QVERIFY(!findDiagnostic(*cat, "past_own_limit"));
        QVERIFY(!findDiagnostic(*cat, "hot_gpu"));  // both of its cases pass, the second through the condition
        const engine::ExtractorRule* hot = nullptr;
        for (const auto& r : cat->extractors()) {
            QVERIFY(r.id != "bad_op" && r.id != "no_group");
            if (r.id == "hot_gpu")
                hot = &r;
        }
        QVERIFY(hot);
        QCOMPARE(hot->require.size(), std::size_t(1));
        const auto matches = [&](const char* line) {
            engine::AttrMap captures;
            return engine::matchRule(*hot, line, captures);
        };
        QVERIFY(matches("GPU 0 temp 90 C"));  // >= holds at the bound
        QVERIFY(matches("GPU 0 temp 101.5 C"));
        QVERIFY(!matches("GPU 0 temp 89.9 C"));
        QVERIFY(!matches("GPU 0 temp -5 C"));
        // Through the catalog's set too: a line under the bound is no event.
        std::vector<engine::LineMatch> found;
        QVERIFY(cat->extractorSet().match(engine::SourceKind::App, "GPU 7 temp 95 C", found));
        QVERIFY(std::any_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "hot_gpu"; }));
        found.clear();
        cat->extractorSet().match(engine::SourceKind::App, "GPU 7 temp 65 C", found);
        QVERIFY(std::none_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "hot_gpu"; }));
        // A bound that is another capture of the line: past its own column, or not a number there (`na`).
        const auto over = [&](const char* line) {
            found.clear();
            cat->extractorSet().match(engine::SourceKind::App, line, found);
            return std::any_of(found.begin(), found.end(),
                               [](const auto& m) { return m.rule->id == "past_own_limit"; });
        };
        QVERIFY(over("CPU_Temp | 101 | 95"));
        QVERIFY(!over("CPU_Temp | 95 | 95"));
        QVERIFY(!over("CPU_Temp | 101 | na"));
    }

    /// A rule whose line needs an earlier line of the same file (a two-line record): it matches only when the
    /// context line came at most `within` lines before, never from the line itself, and takes the fields the
    /// context line names. A context that is not required only names what it can. Cases carry the context line.
    /// (The JSON spells apostrophes \u0027: moc reads a raw string's quote as a character literal.)
    void contextLineBeforeTheRulesLine()
    {
        const auto cat = catalogWithExtractors("context.json", R"json([
  {"id": "oom_reason", "sources": ["app"], "event": "oom",
   "pattern": "^\\s*Reason:\\s+(?P<reason>OOMKilled)",
   "context": {"pattern": "^\\s*Last State:\\s+Terminated", "within": 2},
   "cases": [{"context": "    Last State:     Terminated", "line": "      Reason:       OOMKilled"},
             {"line": "      Reason:       OOMKilled", "match": false},
             {"context": "    State:          Running", "line": "      Reason:       OOMKilled", "match": false}]},
  {"id": "port_down", "sources": ["app"], "event": "down",
   "pattern": "^\\s*Physical state:\\s+(?P<phys>Polling)",
   "context": {"pattern": "^CA \u0027(?P<hca>[^\u0027]+)\u0027", "within": 12, "required": false},
   "cases": [{"context": "CA \u0027mlx5_1\u0027", "line": "\t\tPhysical state: Polling", "fields": {"hca": "mlx5_1"}},
             {"line": "\t\tPhysical state: Polling", "fields": {"phys": "Polling"}}]},
  {"id": "bad_within", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "context": {"pattern": "y", "within": 0}, "cases": [{"line": "x 1", "context": "y"}]},
  {"id": "bad_context_pattern", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "context": {"pattern": "y**"}, "cases": [{"line": "x 1", "context": "y"}]},
  {"id": "case_context_without_rule_context", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "cases": [{"line": "x 1", "context": "y"}]},
  {"id": "failing_context_case", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "context": {"pattern": "^y$"}, "cases": [{"line": "x 1", "context": "z"}]}
]
)json");
        QVERIFY(!findDiagnostic(*cat, "oom_reason"));
        QVERIFY(!findDiagnostic(*cat, "port_down"));
        for (const char* id : {"bad_within", "bad_context_pattern", "case_context_without_rule_context"}) {
            const auto* d = findDiagnostic(*cat, id);
            QVERIFY2(d && d->message.find("context") != std::string::npos, id);
        }
        const auto* failing = findDiagnostic(*cat, "failing_context_case");
        QVERIFY(failing);
        QVERIFY2(failing->message.find("context line does not match") != std::string::npos, failing->message.c_str());

        // A file's lines in order, through one memory: which lines the two rules match.
        engine::ContextMemory memory;
        std::vector<engine::LineMatch> found;
        const auto feed = [&](const char* line) {
            ++memory.line;
            found.clear();
            cat->extractorSet().match(engine::SourceKind::App, line, found, &memory);
            std::string ids;
            for (const auto& m : found)
                if (m.rule->id == "oom_reason" || m.rule->id == "port_down")
                    ids += m.rule->id + (m.captures.count("hca") ? "@" + m.captures.find("hca")->second : "");
            return ids;
        };
        QCOMPARE(feed("      Reason:       OOMKilled"), std::string());  // no context yet
        QCOMPARE(feed("    Last State:     Terminated"), std::string());
        QCOMPARE(feed("      Reason:       OOMKilled"), std::string("oom_reason"));
        QCOMPARE(feed("      Exit Code:    137"), std::string());
        QCOMPARE(feed("      Started:      Mon"), std::string());
        QCOMPARE(feed("      Reason:       OOMKilled"), std::string());           // 3 lines after: past `within`
        QCOMPARE(feed("\t\tPhysical state: Polling"), std::string("port_down"));  // not required: unnamed
        QCOMPARE(feed("CA 'mlx5_3'"), std::string());
        QCOMPARE(feed("\tPort 1:"), std::string());
        QCOMPARE(feed("\t\tPhysical state: Polling"), std::string("port_down@mlx5_3"));
        // Without a memory (a single line, as in pipeline cases), a required context never holds.
        found.clear();
        cat->extractorSet().match(engine::SourceKind::App, "      Reason:       OOMKilled", found);
        QVERIFY(std::none_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "oom_reason"; }));
    }

    /// A rule whose line a LATER line of the same file decides (`after`): with `absent` false it matches only when
    /// the later line follows within `within` lines (its captures join, the line's own win); with `absent` true only
    /// when none follows (within `within` lines or before the end of the file). Matches are held in the file's
    /// memory until decided, at most a few per rule (the oldest dropped and counted). The loader refuses a bad
    /// `within`, unknown keys, a case `after` without a rule `after`, and a rule whose cases show only one direction.
    void laterLineDecidesTheRulesLine()
    {
        const auto cat = catalogWithExtractors("after.json", R"json([
  {"id": "register_ps", "sources": ["app"], "event": "lost",
   "pattern": "Failed to register function remotely due to (?P<what>[^\\n]+)",
   "after": {"pattern": "remote target (?P<target>/job:ps/replica:\\d+/task:\\d+)(?P<what>:)?", "within": 2},
   "cases": [{"line": "Failed to register function remotely due to Socket closed",
              "after": "Additional GRPC error information from remote target /job:ps/replica:0/task:0:",
              "fields": {"target": "/job:ps/replica:0/task:0", "what": "Socket closed"}},
             {"line": "Failed to register function remotely due to Socket closed", "match": false},
             {"line": "Failed to register function remotely due to Socket closed",
              "after": "Additional GRPC error information from remote target /job:worker/replica:0/task:1:",
              "match": false}]},
  {"id": "waiting", "sources": ["app"], "event": "wait",
   "pattern": "CreateSession still waiting for response from worker: (?P<target>/job:\\w+/replica:\\d+/task:\\d+)",
   "after": {"pattern": "Start master session [0-9a-f]+", "within": 3, "absent": true},
   "cases": [{"line": "CreateSession still waiting for response from worker: /job:ps/replica:0/task:0"},
             {"line": "CreateSession still waiting for response from worker: /job:ps/replica:0/task:0",
              "after": "Start master session 5a288b32a61167f7 with config:", "match": false}]},
  {"id": "flood", "sources": ["app"], "event": "flood", "pattern": "flood line (?P<n>\\d+)",
   "after": {"pattern": "^flood ends$", "within": 200},
   "cases": [{"line": "flood line 1", "after": "flood ends"}, {"line": "flood line 1", "match": false}]},
  {"id": "bad_within", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "after": {"pattern": "y", "within": 201}, "cases": [{"line": "x 1", "after": "y"}, {"line": "x 1", "match": false}]},
  {"id": "unknown_key", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "after": {"pattern": "y", "within": 2, "absnet": true},
   "cases": [{"line": "x 1", "after": "y"}, {"line": "x 1", "match": false}]},
  {"id": "bad_after_pattern", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "after": {"pattern": "y**"}, "cases": [{"line": "x 1", "after": "y"}, {"line": "x 1", "match": false}]},
  {"id": "case_after_without_rule_after", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "cases": [{"line": "x 1", "after": "y"}]},
  {"id": "one_direction_only", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "after": {"pattern": "^y$"}, "cases": [{"line": "x 1", "after": "y"}]},
  {"id": "failing_after_case", "sources": ["app"], "pattern": "x (?P<x>\\d+)",
   "after": {"pattern": "^y$"}, "cases": [{"line": "x 1", "after": "z"}, {"line": "x 1", "match": false}]}
]
)json");
        for (const char* id : {"register_ps", "waiting", "flood"}) {
            const auto* d = findDiagnostic(*cat, id);
            QVERIFY2(!d, d ? d->message.c_str() : id);
        }
        for (const char* id : {"bad_within", "unknown_key", "bad_after_pattern", "case_after_without_rule_after",
                               "one_direction_only"}) {
            const auto* d = findDiagnostic(*cat, id);
            QVERIFY2(d && d->message.find("after") != std::string::npos, id);
        }
        const auto* failing = findDiagnostic(*cat, "failing_after_case");
        QVERIFY(failing);
        QVERIFY2(failing->message.find("after line does not match") != std::string::npos, failing->message.c_str());

        // A file's lines in order, through one memory: nothing of these rules matches at once; the decided matches
        // come out of the memory as "rule@line[:target]".
        engine::ContextMemory memory;
        std::vector<engine::LineMatch> found;
        std::vector<std::string> decided;
        const auto take = [&] {
            for (const auto& p : memory.takeResolved()) {
                if (p.match.rule->id != "register_ps" && p.match.rule->id != "waiting" && p.match.rule->id != "flood")
                    continue;  // the catalog's own rules read these lines too
                const auto target = p.match.captures.find("target");
                const auto what = p.match.captures.find("what");
                decided.push_back(p.match.rule->id + "@" + std::to_string(p.line) +
                                  (target == p.match.captures.end() ? "" : ":" + target->second) +
                                  (what == p.match.captures.end() || p.match.rule->id != "register_ps"
                                       ? ""
                                       : " (" + what->second + ")"));
            }
        };
        const auto feed = [&](const std::string& line) {
            ++memory.line;
            memory.tag = memory.line;
            found.clear();
            cat->extractorSet().match(engine::SourceKind::App, line, found, &memory);
            for (const auto& m : found)
                QVERIFY2(m.rule->id != "register_ps" && m.rule->id != "waiting" && m.rule->id != "flood",
                         m.rule->id.c_str());
            take();
        };
        const std::string reg = "E tensorflow/core/common_runtime/eager/context.cc:856] Failed to register function "
                                "remotely due to failed to connect to all addresses";
        feed(reg);                                                                                   // 1
        feed("Additional GRPC error information from remote target /job:ps/replica:0/task:0:");      // 2: decides 1
        feed(reg);                                                                                   // 3
        feed("Additional GRPC error information from remote target /job:worker/replica:0/task:1:");  // 4: not ps
        feed("This could happen if the remote target has been disconnected from the client.");       // 5
        feed("Additional GRPC error information from remote target /job:ps/replica:0/task:0:");      // 6: 3 too far
        const std::string wait = "I tensorflow/core/distributed_runtime/master.cc:221] CreateSession still waiting "
                                 "for response from worker: /job:ps/replica:0/task:0";
        feed(wait);                                                                            // 7
        feed("I master_session.cc:1004] Start master session f91644049046b05a with config:");  // 8: cancels 7
        feed(wait);                                                                            // 9
        feed("step 1");                                                                        // 10
        feed("step 2");                                                                        // 11
        feed("step 3");                                                                        // 12
        QCOMPARE(decided.size(), std::size_t(1));
        feed("step 4");  // 13: no session start within 3 lines of 9: it holds
        feed(wait);      // 14: the end of the file comes before any session start
        feed(reg);       // 15: nothing follows: no match
        memory.finish();
        take();
        const std::vector<std::string> expected{
            "register_ps@1:/job:ps/replica:0/task:0 (failed to connect to all addresses)",
            "waiting@9:/job:ps/replica:0/task:0", "waiting@14:/job:ps/replica:0/task:0"};
        QCOMPARE(decided, expected);
        QVERIFY(memory.pending.empty());
        QCOMPARE(memory.dropped, std::uint64_t(0));

        // A line repeated without end: at most MaxPendingPerRule held, the oldest dropped and counted.
        decided.clear();
        for (int i = 0; i < 20; ++i)
            feed("flood line " + std::to_string(i));
        QCOMPARE(memory.pending.size(), engine::ContextMemory::MaxPendingPerRule);
        QCOMPARE(memory.dropped, std::uint64_t(20 - engine::ContextMemory::MaxPendingPerRule));
        feed("flood ends");
        QCOMPARE(decided.size(), engine::ContextMemory::MaxPendingPerRule);
        QCOMPARE(decided.front(), "flood@" + std::to_string(memory.line - engine::ContextMemory::MaxPendingPerRule));
        QVERIFY(memory.pending.empty());

        // Without a memory (a single line, no later line to come): an absent rule matches, the others never do.
        found.clear();
        cat->extractorSet().match(engine::SourceKind::App, wait, found);
        QVERIFY(std::any_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "waiting"; }));
        found.clear();
        cat->extractorSet().match(engine::SourceKind::App, reg, found);
        QVERIFY(std::none_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "register_ps"; }));
    }

    /// `exclude` (a line the pattern matches that is not the rule's), `map` (captured words translated, no entry
    /// and no default: not the rule's line) and `set` values that read the line's captures.
    void excludeMapAndSetTemplates()
    {
        const auto cat = catalogWithExtractors("fields.json", R"json([
  {"id": "request_failed", "sources": ["app"], "event": "request_failed",
   "pattern": "get request failed: (?P<why>.+)", "exclude": "Forbidden|AccessDenied",
   "cases": [{"line": "get request failed: timed out", "fields": {"why": "timed out"}},
             {"line": "get request failed: Client error: Forbidden", "match": false}]},
  {"id": "alloc_failed", "sources": ["app"], "event": "alloc_failed",
   "pattern": "failed to allocate (?P<bytes>\\d+) bytes in (?P<space>\\w+) memory",
   "map": {"space": {"Cuda": "device", "Host": "host"}},
   "set": {"what": "{space} memory ({bytes} bytes)", "kind": "allocation"},
   "cases": [{"line": "failed to allocate 1024 bytes in Cuda memory",
              "fields": {"space": "device", "what": "device memory (1024 bytes)", "kind": "allocation"}},
             {"line": "failed to allocate 8 bytes in Unified memory", "match": false}]},
  {"id": "any_space", "sources": ["app"], "event": "any",
   "pattern": "no room in (?P<space>\\w+)", "map": {"space": {"Cuda": "device", "*": "other"}},
   "cases": [{"line": "no room in Cuda", "fields": {"space": "device"}},
             {"line": "no room in Managed", "fields": {"space": "other"}}]},
  {"id": "bad_exclude", "sources": ["app"], "pattern": "x (?P<x>\\d+)", "exclude": "y**",
   "cases": [{"line": "x 1"}]},
  {"id": "bad_map_group", "sources": ["app"], "pattern": "x (?P<x>\\d+)", "map": {"nope": {"1": "one"}},
   "cases": [{"line": "x 1"}]},
  {"id": "bad_map_value", "sources": ["app"], "pattern": "x (?P<x>\\d+)", "map": {"x": {"1": 1}},
   "cases": [{"line": "x 1"}]}
]
)json");
        for (const char* id : {"request_failed", "alloc_failed", "any_space"})
            QVERIFY2(!findDiagnostic(*cat, id), id);
        const auto* exclude = findDiagnostic(*cat, "bad_exclude");
        QVERIFY(exclude && exclude->message.find("exclude pattern invalid") != std::string::npos);
        const auto* group = findDiagnostic(*cat, "bad_map_group");
        QVERIFY(group && group->message.find("no named group 'nope'") != std::string::npos);
        const auto* value = findDiagnostic(*cat, "bad_map_value");
        QVERIFY(value && value->message.find("must be a string") != std::string::npos);
        const auto rule = [&](const char* id) {
            const auto& all = cat->extractors();
            const auto it = std::find_if(all.begin(), all.end(), [&](const auto& r) { return r.id == id; });
            return it == all.end() ? nullptr : &*it;
        };
        QVERIFY(!rule("bad_exclude") && !rule("bad_map_group") && !rule("bad_map_value"));
        const engine::ExtractorRule* request = rule("request_failed");
        const engine::ExtractorRule* alloc = rule("alloc_failed");
        QVERIFY(request && alloc);
        engine::AttrMap captures;
        QVERIFY(!engine::matchRule(*request, "get request failed: 403 AccessDenied", captures));
        QVERIFY(captures.empty());  // a line ruled out leaves no captures behind
        QVERIFY(engine::matchRule(*request, "get request failed: connection reset", captures));
        // Through the catalog's set: the excluded line is no event, the other is.
        std::vector<engine::LineMatch> found;
        cat->extractorSet().match(engine::SourceKind::App, "get request failed: Forbidden", found);
        QVERIFY(std::none_of(found.begin(), found.end(), [](const auto& m) { return m.rule->id == "request_failed"; }));
        // The event carries the translated word and the set value built from it.
        captures.clear();
        QVERIFY(engine::matchRule(*alloc, "cudaMalloc: failed to allocate 4096 bytes in Host memory", captures));
        const engine::Event e = engine::makeEvent({alloc, captures}, engine::Observation{});
        QCOMPARE(e.attrs.at("space"), std::string("host"));
        QCOMPARE(e.attrs.at("what"), std::string("host memory (4096 bytes)"));
        QCOMPARE(e.attrs.at("kind"), std::string("allocation"));
        // A set value whose capture the line left empty (a value a poster redacted) is empty, never `GPU ?`.
        QCOMPARE(engine::setValue("GPU {gpu}", {{"gpu", "3"}}), std::string("GPU 3"));
        QCOMPARE(engine::setValue("GPU {gpu}", {{"gpu", ""}}), std::string());
        QCOMPARE(engine::setValue("GPU {gpu} of {node}", {{"gpu", "3"}}), std::string());
        // The rule debugger tells a line ruled out by `exclude` from one the pattern missed.
        const auto looks =
            engine::extractorsThatLookedAt(*cat, engine::SourceKind::App, "get request failed: Forbidden");
        const auto look =
            std::find_if(looks.begin(), looks.end(), [](const auto& l) { return l.rule == "request_failed"; });
        QVERIFY(look != looks.end() && !look->matched);
        QVERIFY2(look->summary.find("ruled the line out") != std::string::npos, look->summary.c_str());
    }

    /// A case field given as null asserts that the rule neither captures nor sets it (an optional group left empty).
    void nullCaseFieldMeansAbsent()
    {
        const auto cat = catalogWithExtractors("absent.json", R"json([
  {"id": "optional_host", "sources": ["app"], "event": "peer_lost",
   "pattern": "peer lost(?: on (?P<node>[\\w-]+))?",
   "cases": [{"line": "peer lost", "fields": {"node": null}},
             {"line": "peer lost on gpu-n07", "fields": {"node": "gpu-n07"}}]},
  {"id": "wrongly_absent", "sources": ["app"], "event": "peer_lost",
   "pattern": "peer gone(?: on (?P<node>[\\w-]+))?",
   "cases": [{"line": "peer gone on gpu-n07", "fields": {"node": null}}]},
  {"id": "set_not_absent", "sources": ["app"], "event": "peer_lost", "pattern": "peer dropped",
   "set": {"kind": "drop"}, "cases": [{"line": "peer dropped", "fields": {"kind": null}}]}
]
)json");
        QVERIFY(!findDiagnostic(*cat, "optional_host"));
        const auto* captured = findDiagnostic(*cat, "wrongly_absent");
        QVERIFY(captured);
        QVERIFY2(captured->message.find("field 'node' expected absent but was captured as 'gpu-n07'") !=
                     std::string::npos,
                 captured->message.c_str());
        const auto* set = findDiagnostic(*cat, "set_not_absent");
        QVERIFY(set && set->message.find("field 'kind' expected absent but the rule sets it") != std::string::npos);
    }

    /// A symptom named from the line's words must name a registered symptom on every matching case.
    void symptomTemplateMustExpandToARegisteredSymptom()
    {
        const auto cat = catalogWithExtractors("templated.json", R"json([
  {"id": "oom_by_space", "sources": ["app"], "event": "oom", "symptom": "oom_{space}",
   "pattern": "out of (?P<space>\\w+) memory",
   "cases": [{"line": "out of cuda memory", "fields": {"symptom": "oom_cuda"}}, {"line": "plenty", "match": false}]},
  {"id": "oom_typo", "sources": ["app"], "event": "oom", "symptom": "oom_{space}",
   "pattern": "out of (?P<space>\\w+) memory", "cases": [{"line": "out of cdua memory"}]}
]
)json");
        QVERIFY(!findDiagnostic(*cat, "oom_by_space"));
        const auto* typo = findDiagnostic(*cat, "oom_typo");
        QVERIFY(typo);
        QVERIFY2(typo->message.find("gives unregistered symptom 'oom_cdua'") != std::string::npos,
                 typo->message.c_str());
    }

    void missingFolderIsReported()
    {
        const auto cat = rules::loadCatalog("/nonexistent/rules");
        QCOMPARE(cat->diagnostics().size(), std::size_t(1));
        QVERIFY(cat->extractors().empty());
    }

    void globMatching()
    {
        QVERIFY(engine::globMatch("nccl_*", "nccl_remote_error"));
        QVERIFY(engine::globMatch("*", ""));
        QVERIFY(engine::globMatch("a?c", "abc"));
        QVERIFY(!engine::globMatch("nccl_*", "cuda_nccl"));
        QVERIFY(!engine::globMatch("abc", "abcd"));
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
