// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/editor/rule_editor.h"

#include "views/editor/code_editor.h"
#include "views/editor/json_highlighter.h"
#include "views/presentation.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSaveFile>
#include <QToolButton>
#include <QVBoxLayout>

namespace attrib::views {

RuleEditor::RuleEditor(QWidget* parent)
    : QWidget(parent)
    , m_editor(new CodeEditor(this))
    , m_highlighter(new JsonHighlighter(m_editor->document()))
    , m_title(new QLabel(tr("No rule file open: double-click a rule in the catalog."), this))
    , m_status(new QLabel(this))
    , m_note(new QLabel(this))
{
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("ruleEditorNote"));
    m_note->hide();
    m_title->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    auto* saveButton = new QToolButton(this);
    auto* saveAction = new QAction(tr("Save"), this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(saveAction);
    saveButton->setDefaultAction(saveAction);
    auto* openButton = new QToolButton(this);
    openButton->setText(tr("Open\u2026"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(openButton);
    bar->addWidget(saveButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_note);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_status);
    connect(saveAction, &QAction::triggered, this, &RuleEditor::save);
    connect(openButton, &QToolButton::clicked, this, [this] {
        const QString start = m_path.isEmpty() ? QString() : QFileInfo(m_path).absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, tr("Open rule file"), start, tr("Rule files (*.json)"));
        if (!path.isEmpty())
            openFile(path);
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, &RuleEditor::updateTitle);
}

bool RuleEditor::openFile(const QString& path, int line)
{
    if (path != m_path && isModified())
        save();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("Cannot open %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_editor->setPlainText(QString::fromUtf8(file.readAll()));
    m_editor->document()->setModified(false);
    if (line > 0)
        m_editor->goToLine(line);
    setProblems(m_problems, m_rulesDir);
    m_status->clear();
    updateTitle();
    return true;
}

bool RuleEditor::save()
{
    if (m_path.isEmpty())
        return false;
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_editor->toPlainText().toUtf8()) < 0 || !file.commit()) {
        m_status->setText(tr("Cannot save %1: %2").arg(m_path, file.errorString()));
        return false;
    }
    m_editor->document()->setModified(false);
    m_status->setText(tr("Saved; reloading the catalog\u2026"));
    updateTitle();
    Q_EMIT saved(m_path);
    return true;
}

void RuleEditor::fileChangedOnDisk()
{
    if (m_path.isEmpty())
        return;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QString text = QString::fromUtf8(file.readAll());
    if (text == m_editor->toPlainText())
        return;
    if (isModified()) {
        m_status->setText(tr("%1 changed on disk; your unsaved edits are kept (save to overwrite).").arg(m_path));
        return;
    }
    const int line = m_editor->textCursor().blockNumber() + 1;
    m_editor->setPlainText(text);
    m_editor->document()->setModified(false);
    m_editor->goToLine(line);
    m_status->setText(tr("Reloaded: the file changed on disk."));
}

void RuleEditor::setProblems(const std::vector<engine::Diagnostic>& problems, const QString& rulesDir)
{
    m_problems = problems;
    m_rulesDir = rulesDir;
    QSet<int> lines;
    QStringList messages;
    for (const auto& d : problems) {
        const QString file = QFileInfo(QDir(rulesDir).filePath(qs(d.where.file))).absoluteFilePath();
        if (m_path.isEmpty() || file != m_path)
            continue;
        lines.insert(std::max(1, d.where.line));
        messages << qs(d.str());
    }
    m_editor->setProblemLines(lines);
    if (!messages.isEmpty())
        m_status->setText(messages.join(QLatin1Char('\n')));
}

bool RuleEditor::isModified() const
{
    return m_editor->document()->isModified();
}

QString RuleEditor::statusText() const
{
    return m_status->text();
}

void RuleEditor::updateTitle()
{
    m_title->setText(m_path.isEmpty()
                         ? tr("No rule file open")
                         : QString(m_path + (isModified() ? QStringLiteral("  \u25cf modified") : QString())));
}

void RuleEditor::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString RuleEditor::note() const
{
    return m_note->text();
}

}  // namespace attrib::views
