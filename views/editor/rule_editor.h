// SPDX-License-Identifier: GPL-3.0-or-later
// The rule file editor pane: plain text with JSON highlighting and line numbers; save (Ctrl+S) writes
// the file, which the live-reload controller picks up. Problems of the catalog are marked on their lines.
#pragma once

#include "engine/catalog.h"

#include <QWidget>

class QLabel;

namespace attrib::views {

class CodeEditor;
class JsonHighlighter;

class RuleEditor : public QWidget {
    Q_OBJECT

public:
    explicit RuleEditor(QWidget* parent = nullptr);

    /// Opens a rule file at a 1-based line (0: keep the top). False (with a message) when unreadable.
    bool openFile(const QString& path, int line = 0);
    /// Writes the text back; emits saved(). False on a write error.
    bool save();
    /// The file changed on disk: reload it unless the buffer has unsaved edits.
    void fileChangedOnDisk();
    /// Marks the lines of problems that concern the open file (paths relative to `rulesDir`).
    void setProblems(const std::vector<engine::Diagnostic>& problems, const QString& rulesDir);

    QString filePath() const { return m_path; }
    bool isModified() const;
    CodeEditor* editor() const { return m_editor; }
    JsonHighlighter* highlighter() const { return m_highlighter; }
    QString statusText() const;
    /// One line above the editor saying which rules folder is edited (see bench::RulesWorkspace).
    void setNote(const QString& note);
    QString note() const;

Q_SIGNALS:
    void saved(const QString& path);

private:
    void updateTitle();

    QString m_path;
    CodeEditor* m_editor;
    JsonHighlighter* m_highlighter;
    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_note;
    std::vector<engine::Diagnostic> m_problems;
    QString m_rulesDir;
};

}  // namespace attrib::views
