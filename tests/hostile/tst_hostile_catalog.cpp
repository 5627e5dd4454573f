// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile class "rules folder": wrong config types, link loops, duplicates, data shadowing, a pattern that
// breaks the catalog's pattern size cap, a 10 MB pattern. Each is a diagnostic with file:line and the rest loads; the
// CLI neither crashes nor hangs.
#include "../common/guide_blocks.h"
#include "../common/test_catalog.h"
#include "hostile_run.h"
#include "hostile_scratch.h"

#include "engine/catalog.h"
#include "engine/json_util.h"
#include "engine/lazy_regex.h"
#include "engine/pipeline.h"

#include <QtTest>

#include <re2/re2.h>

#include <algorithm>
#include <set>

using namespace attrib;
namespace fs = std::filesystem;

namespace {

std::string diagnosticsText(const engine::Catalog& c)
{
    std::string out;
    for (const auto& d : c.diagnostics())
        out += d.str() + "\n";
    return out;
}

/// An extractor file with one rule whose pattern is `pattern`.
std::string extractorFile(const std::string& id, const std::string& pattern, const std::string& line)
{
    nlohmann::json rule = {
        {"id", id}, {"sources", {"kernel"}}, {"pattern", pattern}, {"event", "xid"}, {"cases", {{{"line", line}}}}};
    return nlohmann::json({{"kind", "extractors"}, {"rules", {rule}}}).dump(2);
}

/// An early rule that passes its cases but, on an event from node "boom", spoils the context, adds an event
/// and then throws (as a rule reading a config value of the wrong type only when such evidence arrives does).
class ThrowOnMarker final : public engine::CodeRule {
public:
    std::string id() const override { return "ThrowOnMarker"; }
    std::string description() const override { return "throws on node boom"; }
    std::vector<engine::Event> run(std::vector<engine::Event> events, engine::ExecutionContext& context,
                                   const engine::Catalog&, engine::TraceSink& trace) const override
    {
        for (const auto& e : events)
            if (e.node == "boom") {
                context.platform = "spoiled";
                events.push_back(e);
                engine::TraceStep step;
                step.phase = engine::TracePhase::Early;
                step.rule = id();
                step.action = engine::TraceAction::Match;  // a step the rule records before it throws
                trace.record(std::move(step));
                throw std::runtime_error("type must be number, but is string");
            }
        return events;
    }
};

engine::Event testEvent(const std::string& type, const std::string& node, int at,
                        std::map<std::string, std::string> attrs)
{
    engine::Event e;
    e.type = type;
    e.rule = "test";
    e.node = node;
    e.time = 1'700'000'000LL * engine::NsPerSec + at * engine::NsPerSec;
    e.timeSource = engine::TimeSource::Absolute;
    e.attrs = engine::AttrMap(attrs);
    return e;
}

}  // namespace

class TestHostileCatalog : public QObject {
    Q_OBJECT

private:
    tests::ScratchRoot m_tmp;

    fs::path rulesCopy(const std::string& name)
    {
        fs::path dir = m_tmp.root() / name;
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, dir);
        return dir;
    }

    /// The sample's verdict and `rules test` under a hostile rules folder: no crash, no hang.
    void checkCli(const fs::path& rules, bool expectVerdict = true)
    {
        const auto test = tests::runLimited(ATTRIB_CLI, {"rules", "test", "--rules", rules.string()}, m_tmp.root());
        QVERIFY2(!test.timedOut && test.signal == 0 && test.exitCode == 1, test.summary().c_str());
        QVERIFY2(!tests::hasRawControl(test.out), test.out.c_str());
        const auto r =
            tests::analyzeLimited(tests::samplePath("nvlink-xid149"), m_tmp.root(), {"--rules", rules.string()});
        QVERIFY2(!r.timedOut && r.signal == 0 && r.exitCode == 0, r.summary().c_str());
        if (expectVerdict)
            QVERIFY2(r.out.find("hardware_failure / nvlink") != std::string::npos, r.out.c_str());
    }

private Q_SLOTS:
    void diagnosticsNameTheEntryLine()
    {
        const auto catalog = tests::sourceCatalog();
        int checked = 0;
        for (const auto& rule : catalog->extractors()) {
            const std::string text = tests::slurp(fs::path(ATTRIB_SOURCE_RULES_DIR) / rule.where.file);
            std::size_t start = 0;
            for (int line = 1; line < rule.where.line; ++line)
                start = text.find('\n', start) + 1;
            const std::string lineText = text.substr(start, text.find('\n', start) - start);
            QVERIFY2(lineText.find("\"" + rule.id + "\"") != std::string::npos,
                     (rule.where.str() + ": " + rule.id + " not on " + lineText).c_str());
            ++checked;
        }
        QVERIFY(checked > 50);
    }

    void wrongConfigTypeIsADiagnostic()
    {
        const fs::path rules = rulesCopy("config-type");
        const fs::path file = rules / "early" / "xid_burst.json";
        std::string text = tests::slurp(file);
        const auto at = text.find("\"burst_window_s\": 10");
        QVERIFY(at != std::string::npos);
        text.replace(at, 20, "\"burst_window_s\": \"ten\"");
        const auto at2 = text.find("\"sympathetic_xids\": [45, 154]");
        QVERIFY(at2 != std::string::npos);
        text.replace(at2, 29, "\"sympathetic_xids\": [\"x\", {}]");
        tests::writeFile(file, text);
        // Read only while running (an Xid 149 arrives): the rule throws in its cases and in the analysis.
        const fs::path lazy = rulesCopy("config-type-lazy");
        std::string lazyText = tests::slurp(lazy / "early" / "xid_burst.json");
        const auto at3 = lazyText.find("\"nvlink5\": {");
        QVERIFY(at3 != std::string::npos);
        lazyText.replace(at3, 12, "\"nvlink5\": \"oops\", \"unused\": {");
        tests::writeFile(lazy / "early" / "xid_burst.json", lazyText);
        const auto lazyCatalog = engine::Catalog::load(lazy.string(), rules::builtinCodeRules());
        const std::string lazyDiags = diagnosticsText(*lazyCatalog);
        QVERIFY2(lazyDiags.find("early/xid_burst.json:") != std::string::npos &&
                     lazyDiags.find("rule left out") != std::string::npos,
                 lazyDiags.c_str());
        checkCli(lazy, false);
        const auto catalog = engine::Catalog::load(rules.string(), rules::builtinCodeRules());
        const std::string diags = diagnosticsText(*catalog);
        QVERIFY2(diags.find("early/xid_burst.json:") != std::string::npos, diags.c_str());
        QVERIFY(!catalog->extractors().empty());
        checkCli(rules, false);
    }

    /// A rule that throws while running changes nothing (events, context), even after earlier rules changed
    /// the events, and the later rules still run; the trace says it failed.
    void aRuleThatThrowsWhileRunningChangesNothing()
    {
        const fs::path rules = rulesCopy("throws-running");
        nlohmann::json file = nlohmann::json::parse(tests::slurp(rules / "early" / "gpu_identity.json"));
        file["rules"][0]["id"] = "ThrowOnMarker";
        file["rules"][0]["implementation"] = "ThrowOnMarker";
        file["rules"][0]["order"] = 15;  // after LearnGpuIdentity (10), before the Xid rules
        tests::writeFile(rules / "early" / "throw_on_marker.json", file.dump(1));
        engine::CodeRuleRegistry registry = rules::builtinCodeRules();
        registry.factories["ThrowOnMarker"] = [](const nlohmann::json&) { return std::make_unique<ThrowOnMarker>(); };
        const auto catalog = engine::Catalog::load(rules.string(), registry);
        QVERIFY2(diagnosticsText(*catalog).find("ThrowOnMarker") == std::string::npos,
                 diagnosticsText(*catalog).c_str());
        const std::vector<engine::Event> input = {
            testEvent("nccl_init", "n2", 0, {{"bus_id", "61000"}, {"local_gpu", "3"}}),
            testEvent("xid", "n2", 100, {{"xid", "79"}, {"pci", "0000:61:00"}}),
            testEvent("xid", "boom", 200, {{"xid", "79"}, {"pci", "0000:61:00"}})};
        engine::ExecutionContext context, expectedContext;
        context.nodes = expectedContext.nodes = {"n2", "boom"};
        engine::Trace trace, expectedTrace;
        const auto got = engine::runEarlyRules(*catalog, input, context, trace);
        const auto want = engine::runEarlyRules(*tests::sourceCatalog(), input, expectedContext, expectedTrace);
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].id, want[i].id);
            QCOMPARE(got[i].type, want[i].type);
            QCOMPARE(got[i].node, want[i].node);
            QCOMPARE(got[i].gpu, want[i].gpu);
            QCOMPARE(got[i].symptom, want[i].symptom);
            QVERIFY(got[i].attrs == want[i].attrs);
        }
        QCOMPARE(context.platform, expectedContext.platform);
        QVERIFY(context.pciToGpu == expectedContext.pciToGpu);
        int errors = 0;
        for (const auto& step : trace.steps())
            errors += step.rule == "ThrowOnMarker" && step.action == engine::TraceAction::Error ? 1 : 0;
        QCOMPARE(errors, 1);
        QCOMPARE(trace.steps().size(), expectedTrace.steps().size() + 2);  // the partial step and the error
    }

    void linkLoopsAreDiagnostics()
    {
        const fs::path rules = rulesCopy("loops");
        fs::create_symlink("loop.json", rules / "loop.json");
        fs::create_directory_symlink("..", rules / "extractors" / "up");
        fs::create_symlink("/etc/passwd", rules / "outside.json");
        const auto catalog = engine::Catalog::load(rules.string(), rules::builtinCodeRules());
        const std::string diags = diagnosticsText(*catalog);
        QVERIFY2(diags.find("loop.json:1: error: broken or looping") != std::string::npos, diags.c_str());
        QVERIFY2(diags.find("outside.json:1: error: symbolic link to /etc/passwd, outside") != std::string::npos,
                 diags.c_str());
        QCOMPARE(catalog->extractors().size(), tests::sourceCatalog()->extractors().size());
    }

    void duplicatesNameBothPlaces()
    {
        const fs::path rules = rulesCopy("duplicates");
        tests::writeFile(rules / "00-evil.json",
                         R"({"kind": "symptoms", "symptoms": [
  {"name": "nvlink_signal_integrity", "domain": "application", "priority": 1}
]})");
        const auto& first = tests::sourceCatalog()->extractors().front();
        tests::writeFile(rules / "extractors" / "zz-dup.json",
                         extractorFile(first.id, "NVRM: Xid", "NVRM: Xid (PCI:0000:61:00): 79"));
        tests::writeFile(rules / "aa-data.json", R"({"kind": "data", "name": "xid_catalog", "xids": {}})");
        const auto catalog = engine::Catalog::load(rules.string(), rules::builtinCodeRules());
        const std::string diags = diagnosticsText(*catalog);
        QVERIFY2(diags.find("symptom 'nvlink_signal_integrity' defined twice: here and at 00-evil.json:2") !=
                     std::string::npos,
                 diags.c_str());
        QVERIFY2(diags.find("00-evil.json:2: error: rule nvlink_signal_integrity: symptom 'nvlink_signal_integrity' is "
                            "defined again at symptoms/") != std::string::npos,
                 diags.c_str());
        QVERIFY2(diags.find("extractors/zz-dup.json:") != std::string::npos &&
                     diags.find("rule id '" + first.id + "' defined twice: here and at " + first.where.str()) !=
                         std::string::npos,
                 diags.c_str());
        QVERIFY2(diags.find("aa-data.json:1: error: rule xid_catalog: data 'xid_catalog' is defined again at "
                            "data/xid_catalog.json") != std::string::npos,
                 diags.c_str());
    }

    void setBreakingPatternIsIsolated()
    {
        // Wide rules, each under the per-rule cap and larger than any of the catalog's own, added until all the
        // patterns together are well over the catalog's total cap (which grows with the number of extractors): the
        // largest are left out one by one until the whole fits; the catalog's own extractors all stay, and so do
        // the wide rules that still fit.
        const fs::path rules = rulesCopy("set-breaker");
        const auto& own = tests::sourceCatalog()->extractors();
        long total = 0;
        for (const auto& e : own)
            total += e.re ? e.re->programSize() : 0;
        const auto cap = [&](std::size_t wideRules) {
            return std::max(engine::MinSetProgram,
                            engine::SetProgramPerExtractor * static_cast<long>(own.size() + wideRules));
        };
        re2::RE2::Options options;
        options.set_log_errors(false);
        nlohmann::json list = nlohmann::json::array();
        for (int r = 0; list.size() < 150 || total <= cap(list.size()) + 100000; ++r) {
            std::string alternatives;
            for (int i = 0; i < 200 + r % 40; ++i)  // wide_39, wide_79, ... are the largest, wide_0 the smallest
                alternatives += (i ? "|" : "") + ("q" + std::to_string(r) + "z" + std::to_string(i)) + "[a-z]{1,9}x";
            const std::string pattern = "(?:" + alternatives + ")";
            total += re2::RE2(pattern, options).ProgramSize();
            list.push_back({{"id", "wide_" + std::to_string(r)},
                            {"sources", {"kernel"}},
                            {"pattern", pattern},
                            {"event", "xid"},
                            {"cases", {{{"line", "q" + std::to_string(r) + "z7abcx"}}}}});
        }
        tests::writeFile(rules / "extractors" / "zz-wide.json",
                         nlohmann::json({{"kind", "extractors"}, {"rules", list}}).dump(1));
        const auto catalog = engine::Catalog::load(rules.string(), rules::builtinCodeRules());
        const std::string diags = diagnosticsText(*catalog);
        QVERIFY2(diags.find("extractors/zz-wide.json:") != std::string::npos &&
                     diags.find("rule wide_39: the catalog's pattern set") != std::string::npos &&
                     diags.find("over its cap of " + std::to_string(cap(list.size()))) != std::string::npos,
                 diags.c_str());
        QVERIFY2(diags.find("rule wide_0: ") == std::string::npos, diags.c_str());  // the smallest fit
        std::set<std::string> ids;
        for (const auto& e : catalog->extractors())
            ids.insert(e.id);
        for (const auto& e : tests::sourceCatalog()->extractors())
            QVERIFY2(ids.count(e.id), e.id.c_str());
        QCOMPARE(catalog->casesFailed(), std::size_t(0));
        checkCli(rules);
    }

    void hugePatternIsCapped()
    {
        const fs::path rules = rulesCopy("huge-pattern");
        tests::writeFile(rules / "extractors" / "zz-10mb.json",
                         extractorFile("ten_megabytes", std::string(10 << 20, 'a'), "aaa"));
        const auto r =
            tests::analyzeLimited(tests::samplePath("nvlink-xid149"), m_tmp.root(), {"--rules", rules.string()});
        QVERIFY2(!r.timedOut && r.exitCode == 0 && r.cpuSeconds < 15, r.summary().c_str());
        QVERIFY2(r.err.find("zz-10mb.json:") != std::string::npos && r.err.find("over the cap") != std::string::npos,
                 r.err.c_str());
        qInfo("10 MB pattern: %s", r.summary().c_str());
    }
};

QTEST_APPLESS_MAIN(TestHostileCatalog)
#include "tst_hostile_catalog.moc"
