// SPDX-License-Identifier: GPL-3.0-or-later
// The rule editor pane: JSON highlighting, line-number gutter, problem lines, save and reload from disk;
// the verdict banner's texts.
#include "../common/test_catalog.h"

#include "views/editor/code_editor.h"
#include "views/editor/json_highlighter.h"
#include "views/editor/rule_editor.h"
#include "views/editor/verdict_banner.h"

#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QtTest>

using namespace attrib;
using namespace attrib::views;

namespace {

/// The format applied at a column of a line, from the highlighter's layout ranges.
QTextCharFormat formatAt(const CodeEditor& editor, int line, int column)
{
    const QTextBlock block = editor.document()->findBlockByNumber(line);
    for (const auto& range : block.layout()->formats())
        if (column >= range.start && column < range.start + range.length)
            return range.format;
    return {};
}

}  // namespace

class TestRuleEditor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void highlightsJson()
    {
        RuleEditor editor;
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("r.json"));
        tests::writeFile(path.toStdString(), "{\"kind\": \"extractors\", \"n\": 12, \"ok\": true}\n");
        QVERIFY(editor.openFile(path));
        const auto* hl = editor.highlighter();
        QCOMPARE(formatAt(*editor.editor(), 0, 1).foreground(), hl->format(JsonHighlighter::Token::Key).foreground());
        QCOMPARE(formatAt(*editor.editor(), 0, 10).foreground(),
                 hl->format(JsonHighlighter::Token::String).foreground());
        QCOMPARE(formatAt(*editor.editor(), 0, 28).foreground(),
                 hl->format(JsonHighlighter::Token::Number).foreground());
        QCOMPARE(formatAt(*editor.editor(), 0, 40).foreground(),
                 hl->format(JsonHighlighter::Token::Literal).foreground());
        QVERIFY(hl->format(JsonHighlighter::Token::Key).foreground() !=
                hl->format(JsonHighlighter::Token::String).foreground());
    }

    void gutterAndProblemLines()
    {
        CodeEditor editor;
        QString text;
        for (int i = 0; i < 1200; ++i)
            text += QStringLiteral("line\n");
        editor.setPlainText(text);
        QVERIFY(editor.gutterWidth() >= editor.fontMetrics().horizontalAdvance(QStringLiteral("9999")));
        editor.setProblemLines({3, 7});
        QCOMPARE(editor.problemLines(), (QSet<int>{3, 7}));
        editor.goToLine(700);
        QCOMPARE(editor.textCursor().blockNumber(), 699);
    }

    void saveWritesAndReloadKeepsEdits()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("refine/x.json"));
        tests::writeFile(path.toStdString(), "{\n  \"kind\": \"refine\"\n}\n");
        RuleEditor editor;
        QSignalSpy saved(&editor, &RuleEditor::saved);
        QVERIFY(editor.openFile(path, 2));
        QCOMPARE(editor.editor()->textCursor().blockNumber(), 1);
        editor.editor()->insertPlainText(QStringLiteral("  "));
        QVERIFY(editor.isModified());
        QVERIFY(editor.save());
        QCOMPARE(saved.count(), 1);
        QVERIFY(!editor.isModified());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("    \"kind\""));
        // Changed on disk while unmodified: reloaded; while modified: kept.
        tests::writeFile(path.toStdString(), "{\"kind\": \"refine\", \"rules\": []}\n");
        editor.fileChangedOnDisk();
        QVERIFY(editor.editor()->toPlainText().contains(QStringLiteral("\"rules\"")));
        editor.editor()->insertPlainText(QStringLiteral("x"));
        tests::writeFile(path.toStdString(), "{}\n");
        editor.fileChangedOnDisk();
        QVERIFY(editor.editor()->toPlainText().contains(QStringLiteral("\"rules\"")));
        QVERIFY(editor.statusText().contains(QStringLiteral("unsaved edits are kept")));
        // Problems of this file mark their lines.
        engine::Diagnostic d;
        d.where = {"refine/x.json", 1};
        d.message = "invalid JSON";
        editor.setProblems({d}, tmp.path());
        QCOMPARE(editor.editor()->problemLines(), QSet<int>{1});
        QVERIFY(editor.statusText().contains(QStringLiteral("refine/x.json:1")));
    }

    void bannerTexts()
    {
        VerdictBanner banner;
        engine::VerdictDiff diff;
        diff.terminalBefore = diff.terminalAfter = "user_error";
        diff.subDomainBefore = "container";
        diff.subDomainAfter = "configuration";
        diff.rootCauseBefore = "a@job";
        diff.rootCauseAfter = "b@job";
        diff.symptoms.push_back({"a@job", engine::SymptomStatus::Active, engine::SymptomStatus::Scrubbed, "", "S"});
        banner.showDiff(diff, QStringLiteral("catalog 1"));
        QCOMPARE(banner.kind(), VerdictBanner::Kind::Changed);
        QVERIFY(banner.text().contains(QStringLiteral("sub-domain: container \u2192 configuration")));
        QVERIFY(banner.text().contains(QStringLiteral("root cause: a@job \u2192 b@job")));
        QVERIFY(banner.text().contains(QStringLiteral("a@job: active -> scrubbed by S")));
        engine::Diagnostic d;
        d.where = {"extractors/x.json", 4};
        d.message = "invalid JSON";
        banner.showRejected({d});
        QCOMPARE(banner.kind(), VerdictBanner::Kind::Rejected);
        QVERIFY(banner.headline().contains(QStringLiteral("extractors/x.json:4")));
        QVERIFY(banner.headline().contains(QStringLiteral("last good catalog stays active")));
        QSignalSpy dismissed(&banner, &VerdictBanner::dismissed);
        banner.dismiss();
        QCOMPARE(dismissed.count(), 1);
        QCOMPARE(banner.kind(), VerdictBanner::Kind::Hidden);
    }
};

QTEST_MAIN(TestRuleEditor)
#include "tst_rule_editor.moc"
