// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib rules patterns`: one line per usable extractor pattern, without named groups, each still a valid
// regex that decides every inline case line as its rule does (RE2's ASCII classes spelled out for ripgrep's Unicode
// ones); ripgrep (when installed) accepts the whole list.
#include "../common/test_catalog.h"

#include "engine/extractor.h"

#include <re2/re2.h>

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace attrib;

class TestRulesPatterns : public QObject {
    Q_OBJECT

private:
    QStringList m_patterns;

private Q_SLOTS:
    void initTestCase()
    {
        QProcess attrib;
        attrib.start(QStringLiteral(ATTRIB_CLI),
                     {QStringLiteral("rules"), QStringLiteral("patterns"), QStringLiteral("--rules"),
                      QStringLiteral(ATTRIB_SOURCE_RULES_DIR)});
        QVERIFY(attrib.waitForFinished(120000));
        QCOMPARE(attrib.exitCode(), 0);
        m_patterns = QString::fromUtf8(attrib.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    void oneLinePerDistinctUsablePattern()
    {
        std::set<std::string> distinct;
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re)
                distinct.insert(rule.pattern);
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re && rule.context)
                distinct.insert(rule.context->pattern);
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re && rule.after)
                distinct.insert(rule.after->pattern);
        QVERIFY(distinct.size() > 50);
        const std::set<QString> printed(m_patterns.begin(), m_patterns.end());
        QCOMPARE(printed.size(), static_cast<std::size_t>(m_patterns.size()));  // no duplicates
        QCOMPARE(printed.size(), distinct.size());
    }

    /// The k-th distinct usable pattern is the k-th printed line: compiled by RE2, it decides every inline case
    /// line (must-match or not) as its rule does, so named groups left and ASCII classes spelled out change nothing.
    /// A rule with numeric conditions (`require`) matches a subset of its pattern's lines, which ripgrep cannot
    /// compare: its printed pattern must find every line the rule matches, and may find more.
    void sameMatchesAsEachRule()
    {
        std::map<std::string, int> lineOf;
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re && !lineOf.count(rule.pattern))
                lineOf.emplace(rule.pattern, static_cast<int>(lineOf.size()));
        std::set<std::string> contexts;  // printed after the rules' own patterns
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re && rule.context && !lineOf.count(rule.context->pattern))
                contexts.insert(rule.context->pattern);
        std::set<std::string> afters;  // printed after the context patterns
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re && rule.after && !lineOf.count(rule.after->pattern) && !contexts.count(rule.after->pattern))
                afters.insert(rule.after->pattern);
        QVERIFY(!afters.empty());
        QCOMPARE(static_cast<int>(lineOf.size() + contexts.size() + afters.size()),
                 static_cast<int>(m_patterns.size()));
        int checked = 0;
        int spelled = 0;
        int supersets = 0;
        for (const auto& rule : tests::sourceCatalog()->extractors()) {
            if (!rule.re)
                continue;
            const QString& p = m_patterns[lineOf.at(rule.pattern)];
            QVERIFY2(!p.contains(QStringLiteral("(?P<")) && !p.contains(QStringLiteral("(?<")), qPrintable(p));
            spelled += p.contains(QStringLiteral("0-9A-Za-z_")) ? 1 : 0;
            // RE2 has no `u` flag; its \\b is the ASCII boundary ripgrep's (?-u:\\b) is.
            QString forRe2 = p;
            forRe2.replace(QStringLiteral("(?-u:\\b)"), QStringLiteral("\\b"));
            forRe2.replace(QStringLiteral("(?-u:\\B)"), QStringLiteral("\\B"));
            const re2::RE2 printed(forRe2.toStdString());
            QVERIFY2(printed.ok(), qPrintable(p));
            for (const auto& c : rule.cases) {
                engine::AttrMap captures;
                const bool byRule = engine::matchRule(rule, c.line, captures);
                const bool byPrinted = re2::RE2::PartialMatch(c.line, printed);
                // require, map and exclude narrow the rule: its printed pattern alone is then a superset.
                const bool narrowed = engine::narrowsPattern(rule);
                QVERIFY2(narrowed ? byPrinted || !byRule : byPrinted == byRule, (rule.id + ": " + c.line).c_str());
                supersets += narrowed && byPrinted && !byRule ? 1 : 0;
                ++checked;
            }
        }
        QVERIFY(checked > 1000);
        QVERIFY(spelled > 50);   // `\w` spelled as RE2 reads it
        QVERIFY(supersets > 0);  // the catalog's `require` cases below their bounds: the pattern alone finds them
    }

    void superfluousEscapesLoseTheirBackslash()
    {
        // RE2 takes an escaped quote or colon as a literal; ripgrep 13 refuses them, so the printed pattern drops
        // the backslash and keeps the regex crate's own escapes (of the dot, parentheses and dash).
        QTemporaryDir dir;
        tests::writeFile(dir.filePath(QStringLiteral("catalog.json")).toStdString(),
                         "{\"kind\": \"catalog\", \"version\": \"1\"}");
        tests::writeFile(dir.filePath(QStringLiteral("s.json")).toStdString(),
                         "{\"kind\": \"symptoms\", \"symptoms\": [{\"name\": \"x_seen\", \"domain\": \"application\", "
                         "\"priority\": 10, \"terminal_state\": \"application_failure\", \"description\": \"d\", "
                         "\"summary\": \"s\", \"action\": \"a\", \"target\": \"t\"}]}");
        tests::writeFile(dir.filePath(QStringLiteral("e.json")).toStdString(),
                         "{\"kind\": \"extractors\", \"rules\": [{\"id\": \"quoted\", \"sources\": [\"app\"], "
                         "\"pattern\": \"said \\\\\\\"no\\\\\\\" at (?P<t>\\\\d+)\\\\: \\\\(x\\\\.y\\\\-z\\\\)\", "
                         "\"event\": \"e\", \"symptom\": \"x_seen\", "
                         "\"cases\": [{\"line\": \"said \\\"no\\\" at 12: (x.y-z)\"}]}]}");
        QProcess attrib;
        attrib.start(QStringLiteral(ATTRIB_CLI),
                     {QStringLiteral("rules"), QStringLiteral("patterns"), QStringLiteral("--rules"), dir.path()});
        QVERIFY(attrib.waitForFinished(60000));
        QCOMPARE(attrib.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(attrib.readAllStandardOutput()).trimmed(),
                 QStringLiteral("said \"no\" at (?:[0-9]+): \\(x\\.y\\-z\\)"));
    }

    void ripgrepAcceptsThem()
    {
        const QString rg = QStandardPaths::findExecutable(QStringLiteral("rg"));
        if (rg.isEmpty())
            QSKIP("ripgrep is not installed");
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("patterns")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(m_patterns.join(QLatin1Char('\n')).toUtf8() + "\n");
        file.close();
        QFile log(dir.filePath(QStringLiteral("x.log")));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("[Mon May  4 10:01:40 2026] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU "
                  "has fallen off the bus.\nnothing here\n");
        log.close();
        QProcess p;
        p.start(rg, {QStringLiteral("-c"), QStringLiteral("-f"), file.fileName(), log.fileName()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray("1"));
    }
};

QTEST_APPLESS_MAIN(TestRulesPatterns)
#include "tst_rules_patterns.moc"
