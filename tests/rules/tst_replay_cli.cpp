// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib replay` reports exactly the verdicts a rule change flips: a corpus of two bundles (the guide's
// container bundle and a copy of the NVLink sample), the guide's rule as the change.
#include "../common/guide_blocks.h"

#include "engine/corpus_impact.h"
#include "importers/analyzer.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;
namespace fs = std::filesystem;

class TestReplayCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_corpus, m_newRules;

    QString runReplay(const QStringList& args, int& exitCode)
    {
        QProcess attrib;
        attrib.start(QStringLiteral(ATTRIB_CLI), QStringList{QStringLiteral("replay")} + args);
        if (!attrib.waitForFinished(240000))
            return QStringLiteral("timeout");
        exitCode = attrib.exitCode();
        return QString::fromUtf8(attrib.readAllStandardOutput());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path root = m_tmp.path().toStdString();
        m_corpus = root / "corpus";
        m_newRules = root / "new-rules";
        const auto blocks = tests::guideBlocks();
        tests::writeGuideBlocks(blocks, "bundle", m_corpus / "container-image");
        tests::writeFile(m_corpus / "container-image" / "expected.json", "{\"terminal_state\": \"user_error\"}\n");
        fs::copy(tests::samplePath("nvlink-xid149"), m_corpus / "nvlink-xid149", fs::copy_options::recursive);
        tests::copyCatalog(ATTRIB_SOURCE_RULES_DIR, m_newRules);
        QCOMPARE(tests::writeGuideBlocks(blocks, "file", m_newRules), 2);
    }

    void listsExactlyTheFlippedVerdict()
    {
        int code = -1;
        const QString out = runReplay({QString::fromStdString(m_corpus.string()), QStringLiteral("--rules"),
                                       QString::fromStdString(m_newRules.string()), QStringLiteral("--baseline"),
                                       QStringLiteral(ATTRIB_SOURCE_RULES_DIR)},
                                      code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("CHANGED container-image")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("nvlink-xid149")), qPrintable(out));
        QVERIFY2(
            out.contains(QStringLiteral("new:      user_error/configuration container_image_reference_invalid@job")),
            qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("container_bad_argument@job: active -> scrubbed by ScrubSuperseded")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("container_image_reference_invalid@job: added (active)")),
                 qPrintable(out));
        QVERIFY2(out.trimmed().endsWith(QStringLiteral("1 of 2 verdict(s) changed")), qPrintable(out));
    }

    void verboseListsUnchangedBundlesToo()
    {
        int code = -1;
        const QString out = runReplay({QString::fromStdString(m_corpus.string()), QStringLiteral("--rules"),
                                       QString::fromStdString(m_newRules.string()), QStringLiteral("--baseline"),
                                       QStringLiteral(ATTRIB_SOURCE_RULES_DIR), QStringLiteral("--verbose")},
                                      code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("same    nvlink-xid149")), qPrintable(out));
    }

    void jsonOutputCountsTheChange()
    {
        int code = -1;
        const QString out = runReplay({QString::fromStdString(m_corpus.string()), QStringLiteral("--rules"),
                                       QString::fromStdString(m_newRules.string()), QStringLiteral("--baseline"),
                                       QStringLiteral(ATTRIB_SOURCE_RULES_DIR), QStringLiteral("--json")},
                                      code);
        QCOMPARE(code, 0);
        const auto j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["changed"].get<int>(), 1);
        QCOMPARE(j["bundles"].size(), std::size_t(2));
    }

    void sameCatalogChangesNothing()
    {
        int code = -1;
        const QString out = runReplay({QString::fromStdString(m_corpus.string()), QStringLiteral("--rules"),
                                       QStringLiteral(ATTRIB_SOURCE_RULES_DIR), QStringLiteral("--baseline"),
                                       QStringLiteral(ATTRIB_SOURCE_RULES_DIR)},
                                      code);
        QCOMPARE(code, 0);
        QVERIFY2(out.trimmed().endsWith(QStringLiteral("0 of 2 verdict(s) changed")), qPrintable(out));
    }

    void badUsageFails()
    {
        int code = -1;
        runReplay({QStringLiteral("--baseline")}, code);
        QCOMPARE(code, 2);
        runReplay({QString::fromStdString((m_corpus / "no-such").string())}, code);
        QCOMPARE(code, 1);
    }

    void engineImpactMatchesTheCli()
    {
        const auto baseline = tests::sourceCatalog();
        const auto candidate = rules::loadCatalog(m_newRules.string());
        const engine::BundleAnalyzer analyze = [](const std::string& b, const engine::CatalogPtr& c, std::string& e) {
            auto outcome = importers::analyzeBundle(b, c);
            e = outcome.error;
            return engine::AnalysisSnapshot(outcome.result);
        };
        const auto impact =
            engine::runCorpusImpact(engine::listBundles(m_corpus.string()), baseline, candidate, analyze);
        QCOMPARE(impact.bundles.size(), std::size_t(2));
        QCOMPARE(impact.changedCount(), std::size_t(1));
        QCOMPARE(impact.bundles[0].name, std::string("container-image"));
        QVERIFY(impact.bundles[0].diff.rootCauseChanged());
        QVERIFY(impact.bundles[0].diff.subDomainChanged());
        QVERIFY(!impact.bundles[0].diff.terminalChanged());
        QVERIFY(impact.newProblems.empty());
    }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replay_cli.moc"
