// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib rules patterns`: one line per usable extractor pattern, without named groups, each still a valid
// regex that finds what its rule finds; ripgrep (when installed) accepts the whole list.
#include "../common/test_catalog.h"

#include <re2/re2.h>

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

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
        static const QRegularExpression named(QStringLiteral("\\(\\?P?<(\\w+)>"));
        std::set<QString> expected;
        for (const auto& rule : tests::sourceCatalog()->extractors())
            if (rule.re)
                expected.insert(QString::fromStdString(rule.pattern).replace(named, QStringLiteral("(?:")));
        QVERIFY(expected.size() > 50);
        const std::set<QString> printed(m_patterns.begin(), m_patterns.end());
        QCOMPARE(printed.size(), static_cast<std::size_t>(m_patterns.size()));  // no duplicates
        QVERIFY(printed == expected);
    }

    void noNamedGroupsAndSameMatches()
    {
        // Every rule's own must-match lines still match its printed pattern (found among the lines).
        std::vector<std::unique_ptr<re2::RE2>> compiled;
        for (const auto& p : m_patterns) {
            QVERIFY2(!p.contains(QStringLiteral("(?P<")) && !p.contains(QStringLiteral("(?<")), qPrintable(p));
            compiled.push_back(std::make_unique<re2::RE2>(p.toStdString()));
            QVERIFY2(compiled.back()->ok(), qPrintable(p));
        }
        int checked = 0;
        for (const auto& rule : tests::sourceCatalog()->extractors()) {
            if (!rule.re)
                continue;
            for (const auto& c : rule.cases) {
                if (!c.shouldMatch)
                    continue;
                bool any = false;
                for (const auto& re : compiled)
                    any = any || re2::RE2::PartialMatch(c.line, *re);
                QVERIFY2(any, (rule.id + ": " + c.line).c_str());
                ++checked;
            }
        }
        QVERIFY(checked > 50);
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
